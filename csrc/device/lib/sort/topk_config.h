/* topk_config.h - TopKMode, TopKAlgo, TopKOrder, TopKConfig and
 * defaultTopKConfig as the TopK and TopK Tiling pages define them: the one
 * definition kernels (lib/sort/topk.h) and host tiling code
 * (host_api/lib/sort_tiling_api.h) include.  Plain C++. */
#ifndef ARC_LIB_SORT_TOPK_CONFIG_H_
#define ARC_LIB_SORT_TOPK_CONFIG_H_

namespace AscendC {
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
constexpr TopKConfig defaultTopKConfig = {};
} // namespace AscendC

#endif /* ARC_LIB_SORT_TOPK_CONFIG_H_ */
