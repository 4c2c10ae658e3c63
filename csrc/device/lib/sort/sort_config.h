/* sort_config.h - SortType, SortConfig and DEFAULT_SORT_CONFIG as the Sort
 * and GetSortMaxMinTmpSize pages define them: the one definition that
 * kernels (lib/sort/sort.h) and host tiling code (host_api's
 * lib/adv_elem_tiling_api.h) both include.  Plain C++: no device
 * qualifiers. */
#ifndef ARC_LIB_SORT_SORT_CONFIG_H_
#define ARC_LIB_SORT_SORT_CONFIG_H_

namespace AscendC {
enum class SortType {
    RADIX_SORT, /* radix sort */
    MERGE_SORT  /* merge sort */
};
/* hasSrcIndex / hasDstIndex are the host query's fields (its page); the
 * kernel's forms say the same by their arguments. */
struct SortConfig {
    SortType type = SortType::RADIX_SORT;
    bool isDescend = false;
    bool hasSrcIndex = false;
    bool hasDstIndex = false;
};
constexpr SortConfig DEFAULT_SORT_CONFIG = {SortType::RADIX_SORT, false};
} // namespace AscendC

#endif /* ARC_LIB_SORT_SORT_CONFIG_H_ */
