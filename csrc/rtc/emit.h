// emit.h - the optimised module to an x86-64 ELF object in memory.
#ifndef ARC_RTC_EMIT_H_
#define ARC_RTC_EMIT_H_

#include <llvm/IR/Module.h>

#include <string>

#include "compile.h"

namespace arc_rtc {
// Code generation for `cpu` into res->bin (replacing what it held; a device
// object is checksum sealed and straight-line code gets the fast selector, a
// host object (ascendrtc cc) neither); timed: LLVM's pass times appended to
// the log.  ACL_SUCCESS or an error in the log.
int emit_object(llvm::Module &m, int opt_level, const std::string &cpu, bool timed, rtc_result *res,
                std::string &log, bool device = true);
} // namespace arc_rtc

#endif
