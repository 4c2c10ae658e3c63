// unknown_names.h - explains compile errors about names ascendrtc lacks:
// Ascend C APIs not implemented yet, and the DTYPE_* macros an op
// project's build generates, used outside one.  Internal to the
// clang bridge (C++).
#ifndef ARC_RTC_UNKNOWN_NAMES_H_
#define ARC_RTC_UNKNOWN_NAMES_H_

#include <string>

namespace arc_rtc {

// Returns `log` with every error about a missing Ascend C API, a DTYPE_*
// macro or host code extended, after clang's message, by what the name is
// and what to do.  `host_code`: the source compiled in host-code mode
// (program_host.h), so a missing host header is one this machine lacks.
std::string explain_unknown_names(const std::string &log, bool host_code = false);

} // namespace arc_rtc

#endif
