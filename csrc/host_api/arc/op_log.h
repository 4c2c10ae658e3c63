// arc/op_log.h - what CANN's log and error-report entry points become in
// process: CheckLogLevel says errors and warnings are on, DlogRecord keeps
// the op's last error and warning lines (the host driver adds them to the failure it
// reports, so a tiling function that logs why it refuses is heard), and
// the error-message reports (base/err_msg.h) land in the same place.
#ifndef ARC_HOST_OP_LOG_H
#define ARC_HOST_OP_LOG_H

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace arc_host {
// The error lines op code logged during the current call (reset per call).
inline std::string &logged_errors()
{
    static thread_local std::string s;
    return s;
}
inline void log_error_line(const char *text)
{
    std::string &s = logged_errors();
    if (s.size() < 4096)
        s += std::string(s.empty() ? "" : "; ") + text;
}
} // namespace arc_host

// Log levels as CANN's dlog numbers them (debug 0 .. error 3).  Weak
// definitions: every translation unit of an op may carry them.
extern "C" __attribute__((weak)) int32_t CheckLogLevel(int32_t, int32_t level) { return level >= 2 ? 1 : 0; }
extern "C" __attribute__((weak)) void DlogRecord(int32_t, int32_t level, const char *fmt, ...)
{
    if (level < 2)
        return;
    // warnings too: a library may say why only so (ops-nn's common sources
    // warn that CANN's legacy library is missing, then return false)
    char buf[1024] = "warning: ";
    const size_t at = level == 2 ? std::strlen(buf) : 0;
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf + at, sizeof buf - at, fmt, ap);
    va_end(ap);
    arc_host::log_error_line(buf);
}

#endif
