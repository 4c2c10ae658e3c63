/* acl.h - umbrella header of CANN's ACL C API (ascendrtc simulated NPU). */
#ifndef ACL_H_
#define ACL_H_

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Initialise ACL; configPath may be NULL.  A second call returns
 * ACL_ERROR_REPEAT_INITIALIZE, which callers may ignore. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Release everything aclInit set up. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

#ifdef __cplusplus
}
#endif
#endif /* ACL_H_ */
