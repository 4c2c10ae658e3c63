// base/err_msg.h - the error-message reports op host code makes
// (REPORT_PREDEFINED_ERR_MSG with keys and values, REPORT_INNER_ERR_MSG
// with a format): kept as the op's logged errors (arc/op_log.h).
#ifndef ARC_HOST_BASE_ERR_MSG_H
#define ARC_HOST_BASE_ERR_MSG_H

#include <string>
#include <vector>

#include "arc/op_log.h"

namespace arc_host {
inline int report_predefined(const char *code, const std::vector<const char *> &keys,
                             const std::vector<const char *> &values)
{
    std::string s = std::string(code ? code : "?") + ":";
    for (size_t i = 0; i < keys.size() && i < values.size(); i++)
        s += std::string(" ") + (keys[i] ? keys[i] : "") + "=" + (values[i] ? values[i] : "");
    log_error_line(s.c_str());
    return 0;
}
template <typename... A> int report_inner(const char *code, const char *fmt, A... a)
{
    char buf[1024];
    std::snprintf(buf, sizeof buf, fmt, a...);
    log_error_line((std::string(code ? code : "?") + ": " + buf).c_str());
    return 0;
}
inline int report_inner(const char *code, const char *fmt)
{
    log_error_line((std::string(code ? code : "?") + ": " + (fmt ? fmt : "")).c_str());
    return 0;
}
} // namespace arc_host

#define REPORT_PREDEFINED_ERR_MSG(code, keys, values) ::arc_host::report_predefined((code), (keys), (values))
#define REPORT_INNER_ERR_MSG(code, ...) ::arc_host::report_inner((code), __VA_ARGS__)
// Registers a library's error-message table: nothing to keep in process.
#define REG_FORMAT_ERROR_MSG(msg, len) [[maybe_unused]] static const int ARC_ERR_MSG_CAT(arc_err_msg_reg_, __LINE__) = \
    ((void)(msg), (void)(len), 0)
#define ARC_ERR_MSG_CAT2(a, b) a##b
#define ARC_ERR_MSG_CAT(a, b) ARC_ERR_MSG_CAT2(a, b)
#define REPORT_ERROR_MESSAGE(code, ...) ::arc_host::report_inner((code), __VA_ARGS__)

#endif
