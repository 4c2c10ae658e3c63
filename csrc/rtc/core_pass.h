// core_pass.h - a kernel file compiled once per side of the AI core, as
// CANN's compiler compiles every file: an AIC pass (__DAV_CUBE__,
// g_coreType == AscendC::AIC) and an AIV pass (__DAV_VEC__, AscendC::AIV).
// The simulated NPU runs one binary on both sides, so the rtc compiles the
// two passes only for a file whose code can tell them apart (it names
// g_coreType or a __DAV_* side macro: CATLASS's kernels choose their body
// by g_coreType) and merges them: each entry runs the AIC pass's code on an
// AIC and the AIV pass's on an AIV.  Internal to the clang bridge (C++).
#ifndef ARC_RTC_CORE_PASS_H_
#define ARC_RTC_CORE_PASS_H_

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

namespace arc_rtc {

// Whether text names g_coreType or a side macro (__DAV_CUBE__, __DAV_VEC__,
// __DAV_C220_CUBE__, __DAV_C220_VEC__).
bool names_core_pass(llvm::StringRef text);

// The cc1 arguments of pass 1 (AIC) or 2 (AIV) for arch (2201, 3510).
void core_pass_args(int pass, int arch, std::vector<std::string> &args);

// Merges the AIV pass's module into the AIC pass's (same context): every
// definition of aiv gets the suffix ".aiv" (its kernels' uses stay recorded
// under their own names, so kernel_uses() answers for both sides), and each
// entry of aic (__arc_entry_*, a launch site's) calls its own side's code by
// the core it runs on.  False with *log on failure.
bool merge_core_passes(llvm::Module &aic, std::unique_ptr<llvm::Module> aiv, std::string *log);

} // namespace arc_rtc

#endif
