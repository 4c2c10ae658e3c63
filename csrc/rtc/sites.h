// sites.h - kernel source lines for runtime errors.
#ifndef ARC_RTC_SITES_H_
#define ARC_RTC_SITES_H_

#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/Module.h>

#include <string>

namespace arc_rtc {
// Before every call to a runtime service that can report an error
// (__arc_trap, __arc_gm_check, __arc_race_access, ...), insert a call to
// __arc_site("file:line") naming the innermost frame of the call's inlined
// location that lies in the user's code (not under device_root), so the
// runtime's messages name the kernel source line.  Needs the module's debug
// locations (line tables); a call with none in user code (inside a device-API
// function the optimiser did not inline) keeps the site its caller set, as
// calls from user code into such functions are marked too.  `strip`
// prefixes are removed from the file names shown.
// "file:line" of the innermost frame of loc's inlined chain outside
// device_root ("" when none), `strip` prefixes removed.
std::string user_line(const llvm::DILocation *loc, llvm::StringRef device_root, const char *const *strip, int nstrip);
void mark_sites(llvm::Module &m, const char *device_root, const char *const *strip, int nstrip);
} // namespace arc_rtc

#endif
