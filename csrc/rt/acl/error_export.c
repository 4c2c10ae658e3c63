/* error_export.c - lets libacl_rtc.so report through aclGetRecentErrMsg.
 * Exported under an ascendrtc_ name because it is not part of CANN's API. */
#include "common/exports.h"
#include "rt/rt_internal.h"

void ascendrtc_set_recent_error(const char *msg)
{
    sim_err_raw(ACL_SUCCESS, msg);
}
