/* acl_rt_compile.h - aclrtc, CANN's runtime compiler C API, as the ascendrtc
 * simulated NPU provides it (clang 19 in process, link -lacl_rtc). */
#ifndef ACL_RT_COMPILE_H_
#define ACL_RT_COMPILE_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void *aclrtcProg;

/* Error codes of aclrtc.  CANN defines these only inside its library;
 * ascendrtc publishes them with the same values for convenience. */
#ifndef ACL_ERROR_RTC_INVALID_PROG
/* From acl_error_table.h; enumerators so that they are constant expressions. */
enum {
#define ARC_ACLRTC_ERROR_ENUM(name, value, exc, msg) name = value,
    ARC_ACLRTC_ERRORS(ARC_ACLRTC_ERROR_ENUM)
#undef ARC_ACLRTC_ERROR_ENUM
};
#endif

/* Create a program from Ascend C source.  headers/includeNames give
 * numHeaders in-memory headers reachable by #include "<includeName>". */
ACL_FUNC_VISIBILITY aclError aclrtcCreateProg(aclrtcProg *prog, const char *src, const char *name, int numHeaders,
                                              const char **headers, const char **includeNames);
/* Compile with BiSheng-style options (--npu-arch=dav-2201, -O2, -D, -I, -g, -std=). */
ACL_FUNC_VISIBILITY aclError aclrtcCompileProg(aclrtcProg prog, int numOptions, const char **options);
ACL_FUNC_VISIBILITY aclError aclrtcGetBinDataSize(aclrtcProg prog, size_t *binDataSizeRet);
ACL_FUNC_VISIBILITY aclError aclrtcGetBinData(aclrtcProg prog, char *binData);
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLogSize(aclrtcProg prog, size_t *logSizeRet);
ACL_FUNC_VISIBILITY aclError aclrtcGetCompileLog(aclrtcProg prog, char *log);
/* Register a __global__ name expression such as "add_custom<float>" before compiling. */
ACL_FUNC_VISIBILITY aclError aclrtcAddNameExpr(aclrtcProg prog, const char *const nameExpression);
/* The symbol to pass to aclrtBinaryGetFunction for a registered expression;
 * owned by prog. */
ACL_FUNC_VISIBILITY aclError aclrtcGetLoweredName(aclrtcProg prog, const char *nameExpression,
                                                  const char **loweredName);
ACL_FUNC_VISIBILITY aclError aclrtcDestroyProg(aclrtcProg *prog);

#ifdef __cplusplus
}
#endif
#endif /* ACL_RT_COMPILE_H_ */
