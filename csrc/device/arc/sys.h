/* sys.h - system variables, core type guards, workspace, tiling-data
 * (arc/tiling.h) and kernel printf. */
#ifndef ARC_SYS_H_
#define ARC_SYS_H_

#include "arc/state.h"

namespace __arc {
/* printf arguments: half and bf16 travel as double. */
template <class T> inline T pf(T v) { return v; }
inline double pf(half v) { return (double)v; }
inline double pf(bfloat16_t v) { return (double)v.ToFloat(); }
} // namespace __arc

namespace __arc {
/* Each printf argument travels with its kind, so the runtime checks the
 * format against what was passed instead of reading a va_list blindly. */
template <class T> inline arc_printf_arg pfarg(T v)
{
    if constexpr (__is_same(T, bool)) {
        return {(unsigned long long)v, 'u'};
    } else if constexpr (__is_enum(T)) {
        return {(unsigned long long)(long long)v, 'i'};
    } else if constexpr (__is_integral(T)) {
        return {__is_signed(T) ? (unsigned long long)(long long)v : (unsigned long long)v, __is_signed(T) ? 'i' : 'u'};
    } else if constexpr (__is_floating_point(T)) {
        double d = (double)v;
        unsigned long long b;
        __builtin_memcpy(&b, &d, sizeof b);
        return {b, 'f'};
    } else if constexpr (__is_pointer(T)) {
        return {(unsigned long long)(__UINTPTR_TYPE__)v, __is_same(__remove_cv(__remove_pointer(T)), char) ? 's' : 'p'};
    } else if constexpr (__is_same(T, decltype(nullptr))) {
        return {0, 'p'};
    } else {
        static_assert(sizeof(T) == 0, "AscendC::printf: arguments must be integers, floating point, half, bfloat16_t "
                                      "or pointers");
        return {0, 0};
    }
}
} // namespace __arc

/* Kernel printf (also AscendC::printf); serialised and checked by the runtime. */
template <typename... A> inline int printf(const char *fmt, A... a)
{
    const arc_printf_arg args[] = {{0, 0}, ::__arc::pfarg(::__arc::pf(a))...};
    return __arc_printf_v(fmt, sizeof...(A), args + 1);
}

namespace AscendC {
inline int64_t GetBlockIdx() { return __arc_core()->block_idx; }
/* A launch has 1 to 2^32 blocks: written so that LLVM knows the count is
 * never 0 (a loop whose bounds divide by it keeps a computable range, which
 * the race check's raw-pointer reports hoist out of the loop, rtc/raw_access.cpp). */
inline int64_t GetBlockNum() { return (int64_t)(uint32_t)(__arc_core()->block_num - 1) + 1; }
inline int64_t GetSubBlockIdx() { return __arc_core()->sub_block_idx; }
inline int64_t GetSubBlockNum() { return __arc_core()->sub_block_num; }
inline int64_t GetTaskRatio() { return __arc_core()->sub_block_num > 1 ? __arc_core()->sub_block_num : 1; }
/* The name older CANN releases (and their samples) use for GetTaskRatio. */
inline int64_t GetTaskRation() { return GetTaskRatio(); }
inline constexpr uint32_t GetUBSizeInBytes() { return __arc::arch_bytes(__arc::ARCH_UB); }
inline int64_t GetSystemCycle() { return 0; }
/* One DataBlock: 32 bytes on both simulated architectures. */
inline constexpr int16_t GetDataBlockSizeInBytes() { return 32; }
/* The UB a kernel may use at run time (GetRuntimeUBSize's page): all of it
 * on dav-2201; on Ascend 950 the fixed 248 KiB of a SIMD kernel (a SIMD+SIMT
 * hybrid gets at most 216 KiB there, which this does not distinguish). */
inline uint32_t GetRuntimeUBSize() { return __NPU_ARCH__ == 3510 ? 248u * 1024u : GetUBSizeInBytes(); }
/* SuperKernel's Early-Start point: the previous kernel on the stream has
 * ended before a simulated launch starts, so there is nothing to wait for. */
template <bool FORCE = false> inline void WaitPreTaskEnd() {}
/* Its pair: the next kernel may start once this core's AIV_PIPE/AIC_PIPE
 * work is done; a simulated launch ends before the next starts anyway. */
template <pipe_t AIV_PIPE = PIPE_MTE3, pipe_t AIC_PIPE = PIPE_FIX, bool FORCE = false> inline void SetNextTaskStart() {}

/* The user workspace is the whole workspace (no system part here). */
inline uint8_t *GetUserWorkspace(uint8_t *workspace) { return workspace; }
inline uint8_t *GetSysWorkSpacePtr() { return __arc_core()->workspace; }
inline void SetSysWorkspace(uint8_t *) {}
inline void SetSysWorkSpacePtr(uint8_t *) {}

using ::printf;
template <typename... A> inline int PRINTF(const char *fmt, A... a) { return ::printf(fmt, a...); }
/* The kernel's first call on dav-3510 (InitSocState's page): resets the
 * DMA atomic mode, the mask mode and mask, the dequant scale and the CTRL
 * bits (saturation) a previous kernel on the core may have left. */
inline void InitSocState()
{
    unsigned long long *d = __arc_core()->dev;
    d[__arc::SLOT_ATOMIC] = __arc::ATOMIC_NONE;
    d[__arc::SLOT_MASK_MODE] = 0;
    d[__arc::SLOT_MASK_SET] = 0;
    d[__arc::SLOT_DEQSCALE] = 0;
    d[__arc::SLOT_CTRL] = 0; /* the CTRL bits as a launch starts (arc/ctrl.h) */
}
} // namespace AscendC
/* CANN's kernels call GetSysWorkSpacePtr() unqualified outside AscendC
 * (REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), ...) in a kernel with no
 * using-directive), so it is reachable at global scope too. */
using AscendC::GetSysWorkSpacePtr;

/* ascendc_assert(expr[, fmt, args...]): on failure, print fmt's message
 * and stop the launch naming the condition, file and line. */
namespace __arc {
[[noreturn]] inline void assert_fail(const char *e, const char *f, int l)
{
    __arc_trap("ascendc_assert", "Assertion `%s' failed (%s:%d)", e, f, l);
}
template <typename... A>
[[noreturn]] inline void assert_fail(const char *e, const char *f, int l, const char *fmt, A... a)
{
    ::printf(fmt, a...);
    __arc_trap("ascendc_assert", "Assertion `%s' failed (%s:%d)", e, f, l);
}
} // namespace __arc
#define ascendc_assert(expr, ...) \
    (__builtin_expect(!!(expr), 1) ? (void)0 : ::__arc::assert_fail(#expr, __FILE__, __LINE__, ##__VA_ARGS__))

/* ASCENDC_ASSERT(cond, { statements; }): CANN's kernel-side check, whose
 * statements (usually KERNEL_LOG(level, fmt, ...)) say why; on failure
 * they run, then the launch stops naming the condition, file and line. */
#define KERNEL_LOG(level, fmt, ...) ::printf("[" #level "] " fmt "\n", ##__VA_ARGS__)
#define ASCENDC_ASSERT(cond, behavior)                                                    \
    do {                                                                                   \
        if (__builtin_expect(!(cond), 0)) {                                                \
            behavior;                                                                      \
            __arc_trap("ASCENDC_ASSERT", "Assertion `%s' failed (%s:%d)", #cond, __FILE__, __LINE__); \
        }                                                                                  \
    } while (0)

#define ASCEND_IS_AIV (__arc_core()->core_type == 0)
#define ASCEND_IS_AIC (__arc_core()->core_type == 1)
#define ASCEND_IS_NOT_AIV (__arc_core()->core_type != 0)
#define ASCEND_IS_NOT_AIC (__arc_core()->core_type != 1)

/* g_coreType: which side this code is compiled for, a constant as CANN's
 * compiler makes it by compiling a kernel file twice (AIC pass: __DAV_CUBE__,
 * AIV pass: __DAV_VEC__).  The rtc does the same for a file that names it
 * (rtc/core_pass.h); the entry then runs each side's code on its own cores
 * (__arc_pass_is_aic).  A one-pass compile does not declare it. */
#ifdef __ARC_CORE_PASS__
constexpr int32_t g_coreType = __ARC_CORE_PASS__; /* AscendC::AIC (1) or AscendC::AIV (2) */
extern "C" __attribute__((used)) inline int __arc_pass_is_aic(void) { return ASCEND_IS_AIC; }
#endif

#include "arc/tiling.h"

#endif /* ARC_SYS_H_ */
