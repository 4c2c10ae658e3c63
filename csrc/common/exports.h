/* exports.h - what the simulated NPU's libraries export besides CANN's ACL
 * API, under ascendrtc_ names.  The definitions (rt/, rtc/) and the
 * extension's function table (ext/arc_ext.h ARC_EXT_FUNCS, the only way
 * Python reaches them) share these declarations.  A CANN home has none of
 * them; the extension then finds NULL and says so. */
#ifndef ARC_EXPORTS_H_
#define ARC_EXPORTS_H_

#ifdef __cplusplus
extern "C" {
#endif

#define ARC_EXPORT __attribute__((visibility("default")))

/* libascendcl: set the text aclGetRecentErrMsg returns (libacl_rtc reports
 * its errors through it). */
ARC_EXPORT void ascendrtc_set_recent_error(const char *msg);
/* libascendcl: the default launch timeout in seconds for launches without a
 * TIMEOUT/TIMEOUT_US attribute; 0 = none, negative = back to
 * $ASCENDRTC_LAUNCH_TIMEOUT. */
ARC_EXPORT void ascendrtc_set_launch_timeout(double seconds);
/* libascendcl: unified-buffer bytes per vector core of the simulated
 * device's SoC (rt/soc.c), which aclrtGetDeviceInfo reports only on 3510. */
ARC_EXPORT long long ascendrtc_ub_size(void);
/* libacl_rtc: what a compiled binary depends on besides source and
 * options (compiler, target CPU, device headers); caches key on it. */
ARC_EXPORT const char *ascendrtc_rtc_fingerprint(void);
/* libacl_rtc: the --npu-arch a compile with these options would target
 * ("dav-2201"), as aclrtcCompileProg's option parser resolves --npu-arch
 * and --npu-soc; NULL when the options do not parse. */
ARC_EXPORT const char *ascendrtc_rtc_resolve_arch(int n, const char *const *options);

#ifdef __cplusplus
}
#endif
#endif /* ARC_EXPORTS_H_ */
