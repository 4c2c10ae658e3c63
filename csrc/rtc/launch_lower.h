// launch_lower.h - the <<<...>>> launches of a single-source program,
// rewritten for `ascendrtc cc` (--host-object) into calls the device API's
// arc/launch.h defines.  Internal to the clang bridge (C++).
#ifndef ARC_RTC_LAUNCH_LOWER_H_
#define ARC_RTC_LAUNCH_LOWER_H_

#include <string>

namespace arc_rtc {

// Rewrites every `callee<<<cfg>>>(` in text into
// `::__arc::launch<&callee >(__FILE__, __LINE__, cfg)(` (no line moves),
// where callee is the (qualified, template-id) name before the `<<<`.
// Returns how many it rewrote; a launch it cannot read (no callee name, no
// closing >>>) gets an error naming its line in *log and -1.
int lower_host_launches(const char *name, std::string &text, std::string *log);

} // namespace arc_rtc

#endif
