// raw_access.h - race-check instrumentation of the kernel's own pointer
// accesses.
#ifndef ARC_RTC_RAW_ACCESS_H_
#define ARC_RTC_RAW_ACCESS_H_

#include <llvm/IR/Module.h>

namespace arc_rtc {
// Before every load, store, memcpy/memmove/memset in the user's code (its
// debug location lies outside device_root: the device API reports its own
// accesses) whose address may be UB or GM (not a local variable or a
// global), insert `if (on) __arc_race_raw(p, bytes, write, "file:line")`,
// `on` being __arc_race_raw_on() asked once at the function's entry.  The
// runtime (rt/analysis/race_raw.c) attributes them to the scalar pipe.  A loop's
// contiguous accesses are reported once, as their whole range, before the
// loop when its trip count can be computed there.  Needs the
// module's line tables; returns the number of accesses instrumented.
// `strip` prefixes are removed from the file names shown.
unsigned instrument_raw_accesses(llvm::Module &m, const char *device_root, const char *const *strip, int nstrip);
} // namespace arc_rtc

#endif
