/* acl_error_table.h - the one table of ACL error codes ascendrtc knows:
 * X(name, value, exception, message).  acl_base.h and acl_rt_compile.h
 * declare the codes from it, the extension (csrc/ext/errors.c) generates
 * its code -> name/message table and the Python exception each code raises
 * (exception: ACL -> ascendrtc.AclError, LAUNCH -> ascendrtc.LaunchError),
 * and _C.ERRORS shows Python the same rows.  Names and values follow CANN;
 * the messages are ascendrtc's one-line summaries.  Not part of CANN's API. */
#ifndef ACL_ERROR_TABLE_H_
#define ACL_ERROR_TABLE_H_

/* Codes of libascendcl (acl_base.h). */
#define ARC_ACL_ERRORS(X)                                                                          \
    X(ACL_ERROR_INVALID_PARAM, 100000, ACL, "invalid parameter")                                   \
    X(ACL_ERROR_UNINITIALIZE, 100001, ACL, "ACL is not initialised")                               \
    X(ACL_ERROR_REPEAT_INITIALIZE, 100002, ACL, "ACL is initialised already")                      \
    X(ACL_ERROR_INVALID_FILE, 100003, ACL, "invalid file")                                         \
    X(ACL_ERROR_BAD_ALLOC, 200000, ACL, "out of host memory")                                      \
    X(ACL_ERROR_INTERNAL_ERROR, 500000, ACL, "internal error")                                     \
    X(ACL_ERROR_RT_PARAM_INVALID, 107000, ACL, "invalid runtime parameter")                        \
    X(ACL_ERROR_RT_INVALID_DEVICEID, 107001, ACL, "invalid device id")                             \
    X(ACL_ERROR_RT_CONTEXT_NULL, 107002, ACL, "no context: the thread has no device set")          \
    X(ACL_ERROR_RT_INVALID_HANDLE, 107017, ACL, "invalid handle")                                  \
    X(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000, ACL, "feature not supported")                      \
    X(ACL_ERROR_RT_MEMORY_ALLOCATION, 207001, ACL, "out of device memory")                         \
    X(ACL_ERROR_RT_EVENT_NOT_COMPLETE, 207007, ACL, "event not complete")                          \
    X(ACL_ERROR_RT_INTERNAL_ERROR, 507000, ACL, "runtime internal error")                          \
    X(ACL_ERROR_RT_AICORE_TIMEOUT, 507014, LAUNCH, "kernel timed out on the AI core")              \
    X(ACL_ERROR_RT_AICORE_EXCEPTION, 507015, LAUNCH, "kernel stopped with an error on the AI core") \
    X(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046, ACL, "stream synchronisation timed out")

/* Codes of libacl_rtc (acl_rt_compile.h). */
#define ARC_ACLRTC_ERRORS(X)                                                                       \
    X(ACL_ERROR_RTC_INVALID_PROG, 176000, ACL, "invalid program handle")                          \
    X(ACL_ERROR_RTC_INVALID_INPUT, 176001, ACL, "invalid input")                                  \
    X(ACL_ERROR_RTC_INVALID_OPTION, 176002, ACL, "invalid compile option")                        \
    X(ACL_ERROR_RTC_COMPILATION, 176003, ACL, "compilation failed")                               \
    X(ACL_ERROR_RTC_LINKING, 176004, ACL, "linking failed")                                       \
    X(ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION, 176005, ACL,                                  \
      "name expressions must be added before compiling")                                          \
    X(ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION, 176006, ACL,                             \
      "lowered names exist only after compiling")                                                 \
    X(ACL_ERROR_RTC_NAME_EXPR_NOT_VALID, 176007, ACL, "not a registered name expression")         \
    X(ACL_ERROR_RTC_PROG_CREATION_FAILURE, 276000, ACL, "program creation failed")                \
    X(ACL_ERROR_RTC_OUT_OF_MEMORY, 276001, ACL, "out of memory while compiling")                  \
    X(ACL_ERROR_RTC_FAILURE, 576000, ACL, "compiler internal failure")

#define ARC_ALL_ACL_ERRORS(X) ARC_ACL_ERRORS(X) ARC_ACLRTC_ERRORS(X)

#endif /* ACL_ERROR_TABLE_H_ */
