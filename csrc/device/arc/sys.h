/* sys.h - system variables, core type guards, workspace, tiling-data
 * macros and kernel printf. */
#ifndef ARC_SYS_H_
#define ARC_SYS_H_

#include "arc/state.h"

namespace __arc {
/* printf arguments: half and bf16 travel as double. */
template <class T> inline T pf(T v) { return v; }
inline double pf(half v) { return (double)v; }
inline double pf(bfloat16_t v) { return (double)v.ToFloat(); }
} // namespace __arc

/* Kernel printf (also AscendC::printf); serialised by the runtime. */
template <typename... A> inline int printf(const char *fmt, A... a) { return __arc_printf(fmt, ::__arc::pf(a)...); }

namespace AscendC {
inline int64_t GetBlockIdx() { return __arc_core()->block_idx; }
inline int64_t GetBlockNum() { return __arc_core()->block_num; }
inline int64_t GetSubBlockIdx() { return __arc_core()->sub_block_idx; }
inline int64_t GetSubBlockNum() { return __arc_core()->sub_block_num; }
inline int64_t GetTaskRatio() { return __arc_core()->sub_block_num > 1 ? __arc_core()->sub_block_num : 1; }
inline constexpr uint32_t GetUBSizeInBytes() { return __NPU_ARCH__ == 3510 ? 256u * 1024u : 192u * 1024u; }
inline int64_t GetSystemCycle() { return 0; }

/* The user workspace is the whole workspace (no system part here). */
inline uint8_t *GetUserWorkspace(uint8_t *workspace) { return workspace; }
inline uint8_t *GetSysWorkSpacePtr() { return __arc_core()->workspace; }
inline void SetSysWorkspace(uint8_t *) {}
inline void SetSysWorkSpacePtr(uint8_t *) {}

using ::printf;
template <typename... A> inline int PRINTF(const char *fmt, A... a) { return ::printf(fmt, a...); }
inline void InitSocState() {}
} // namespace AscendC

#define ASCEND_IS_AIV (__arc_core()->core_type == 0)
#define ASCEND_IS_AIC (__arc_core()->core_type == 1)
#define ASCEND_IS_NOT_AIV (__arc_core()->core_type != 0)
#define ASCEND_IS_NOT_AIC (__arc_core()->core_type != 1)

/* ---- tiling data ----
 * Old style: BEGIN_TILING_DATA_DEF(Name) ... END_TILING_DATA_DEF;
 * REGISTER_TILING_DATA_CLASS(Op, Name) makes Name the type GET_TILING_DATA
 * reads.  New style: a plain struct and REGISTER_TILING_DEFAULT(T). */
#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, field) type field;
#define TILING_DATA_FIELD_DEF_ARR(type, n, field) type field[n];
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;
#define END_TILING_DATA_DEF }
#define REGISTER_TILING_DATA_CLASS(op, name) using __arc_tiling_default_t = name;
#define REGISTER_TILING_DEFAULT(type) using __arc_tiling_default_t = type
#define REGISTER_TILING_FOR_TILINGKEY(cond, type)

namespace __arc {
template <class T> inline void copy_tiling(T *dst, const uint8_t *src)
{
    if (src == nullptr)
        __arc_trap("GET_TILING_DATA", "the tiling argument is a null pointer (%u bytes of tiling data expected)",
                   (unsigned)sizeof(T));
    __builtin_memcpy((void *)dst, src, sizeof(T));
}
} // namespace __arc

#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    ::__arc::copy_tiling(&var, (const uint8_t *)(tiling))
#define GET_TILING_DATA(var, tiling) GET_TILING_DATA_WITH_STRUCT(__arc_tiling_default_t, var, tiling)
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, var, tiling) \
    const type *var = (const type *)(tiling)
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                        \
    decltype(((type *)0)->member) var;                                           \
    __builtin_memcpy((void *)&var, (const uint8_t *)(tiling) + __builtin_offsetof(type, member), sizeof(var))
#define TILING_KEY_IS(k) (__arc_core()->tiling_key == (unsigned long long)(k))
#define TILING_KEY_VAR (__arc_core()->tiling_key)

#endif /* ARC_SYS_H_ */
