// compile_result.cpp - see compile_result.h.
#include "compile_result.h"

#include <cstdlib>
#include <cstring>

namespace arc_rtc {

char *dup(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

int fail(rtc_result *res, std::string &log, int code, const std::string &msg)
{
    log += msg;
    if (!log.empty() && log.back() != '\n')
        log += '\n';
    res->log = dup(log);
    return code;
}

} // namespace arc_rtc
