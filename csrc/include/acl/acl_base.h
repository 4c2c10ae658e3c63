/* acl_base.h - basic types and error codes of CANN's ACL C API, as the
 * ascendrtc simulated NPU provides them.  Names and values follow CANN. */
#ifndef ACL_BASE_H_
#define ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#include "acl_error_table.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif

typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;

static const int ACL_ERROR_NONE = 0;
static const int ACL_SUCCESS = 0;

/* The error codes: acl_error_table.h holds them, with their messages. */
#define ARC_ACL_ERROR_CONST(name, value, exc, msg) static const int name = value;
ARC_ACL_ERRORS(ARC_ACL_ERROR_CONST)
#undef ARC_ACL_ERROR_CONST

/* Text of the most recent error on this thread (never NULL). */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* IEEE binary16 bits, as host code holds half data. */
typedef uint16_t aclFloat16;
/* Exact widening. */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
/* Rounded to nearest, ties to even; overflow gives infinity, NaN stays NaN. */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif
#endif /* ACL_BASE_H_ */
