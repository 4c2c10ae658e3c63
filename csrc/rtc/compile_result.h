// compile_result.h - the compile's result and log (rtc_result), shared by
// the clang bridge's files (compile.cpp, metadata.cpp, emit.cpp).
#ifndef ARC_RTC_COMPILE_RESULT_H_
#define ARC_RTC_COMPILE_RESULT_H_

#include <string>

#include "compile.h"

namespace arc_rtc {
// A malloc'd copy of s (NULL when out of memory).
char *dup(const std::string &s);
// Appends msg to the log, hands the log to res and returns code.
int fail(rtc_result *res, std::string &log, int code, const std::string &msg);
} // namespace arc_rtc

#endif
