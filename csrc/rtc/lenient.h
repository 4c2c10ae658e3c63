// lenient.h - where CANN's device build accepts code that a plain compile
// with ascendrtc's checking macros would reject, the compile arguments
// that give CANN's behaviour.  Internal to the clang bridge (C++).
#ifndef ARC_RTC_LENIENT_H_
#define ARC_RTC_LENIENT_H_

#include <string>
#include <vector>

namespace arc_rtc {

// If a text (the source or an in-memory header) writes ASSERT(...) right
// after a statement that lacks its ';' (which compiles only where ASSERT
// expands to nothing, as in CANN's device build), adds -DASSERT(...)= to
// args and a warning naming the line to *log.  Returns whether it did.
bool lenient_assert(const char *name, const char *text, size_t len, std::vector<std::string> &args,
                    std::string *log);

// CANN's single-source flow compiles host functions that launch a kernel
// with name<<<blocks, l2ctrl, stream>>>(args) and never runs them on the
// device; here the launch configuration is blanked (newlines kept, so
// lines do not move), leaving a plain call that parses.  Returns how many
// launches it blanked; adds a warning naming the first to *log.
int blank_host_launches(const char *name, std::string &text, std::string *log);

} // namespace arc_rtc

#endif
