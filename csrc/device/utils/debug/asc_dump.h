/* utils/debug/asc_dump.h - asc_dump*: print dump_size elements of a
 * buffer (GM, UB, L1, L0C) with a uint32_t tag, as DumpTensor does; GM
 * reads are checked like any device-API access. */
#ifndef ARC_UTILS_DEBUG_ASC_DUMP_H_
#define ARC_UTILS_DEBUG_ASC_DUMP_H_
#include "kernel_operator.h"

namespace __arc {
template <typename T> inline void dump(const T *p, uint32_t desc, uint32_t n, const char *where)
{
    __arc_printf("asc_dump: %s, desc=%u, %u elements of %s:", where, desc, n, tname<T>());
    for (uint32_t i = 0; i < n; i++) {
        if constexpr (is_float_v<T>) __arc_printf(" %g", (double)(float)p[i]);
        else __arc_printf(" %lld", (long long)p[i]);
    }
    __arc_printf("\n");
}
} // namespace __arc

template <typename T> inline void asc_dump_gm(__gm__ T *input, uint32_t desc, uint32_t dump_size)
{
    __arc::gm_access(input, (uint64_t)dump_size * sizeof(T), "asc_dump_gm");
    __arc::dump(input, desc, dump_size, "GM");
}
template <typename T> inline void asc_dump_ubuf(__ubuf__ T *input, uint32_t desc, uint32_t dump_size)
{
    __arc::dump(input, desc, dump_size, "UB");
}
template <typename T> inline void asc_dump_l1buf(__cbuf__ T *input, uint32_t desc, uint32_t dump_size)
{
    __arc::dump(input, desc, dump_size, "L1");
}
template <typename T> inline void asc_dump_cbuf(__cc__ T *input, uint32_t desc, uint32_t dump_size)
{
    __arc::dump(input, desc, dump_size, "L0C");
}
/* asc_dump_reg(reg, ...) in a simd_vf: the register's first dump_size
 * elements, read as T (at most the register's 256 bytes). */
template <typename T, typename U> inline void asc_dump_reg(U &input, uint32_t desc, uint32_t dump_size)
{
    static_assert(sizeof(input.v) == 256, "asc_dump_reg: input must be a Reg::RegTensor");
    constexpr uint32_t N = 256 / sizeof(T);
    ARC_CHECK(dump_size <= N, "asc_dump_reg", "dump_size %u is more than the register's %u %s elements",
              (unsigned)dump_size, (unsigned)N, __arc::tname<T>());
    T e[N];
    __builtin_memcpy(e, input.v, sizeof e);
    __arc::dump(e, desc, dump_size, "Reg");
}
template <typename T, typename U, typename = typename std::enable_if<!std::is_pointer<U>::value>::type>
inline void asc_dump(U &input, uint32_t desc, uint32_t dump_size)
{
    asc_dump_reg<T>(input, desc, dump_size);
}
/* asc_dump(p, ...): the buffer the address lies in (this core's UB or L1,
 * else GM). */
template <typename T> inline void asc_dump(T *input, uint32_t desc, uint32_t dump_size)
{
    arc_core *k = __arc_core();
    uintptr_t a = (uintptr_t)input;
    if (a >= (uintptr_t)k->ub && a < (uintptr_t)k->ub + k->ub_size)
        asc_dump_ubuf(input, desc, dump_size);
    else if (k->l1 && a >= (uintptr_t)k->l1 && a < (uintptr_t)k->l1 + k->l1_size)
        asc_dump_l1buf(input, desc, dump_size);
    else
        asc_dump_gm(input, desc, dump_size);
}
#endif
