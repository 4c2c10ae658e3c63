// simt_ubcheck.h - the SIMT pass's shared-UB race instrumentation
// (simt_ubcheck.cpp; the runtime's side is rt/analysis/race_simt.c).
#ifndef ARC_RTC_SIMT_UBCHECK_H_
#define ARC_RTC_SIMT_UBCHECK_H_

#include <llvm/IR/IRBuilder.h>

#include <string>
#include <vector>

namespace arc_rtc {
namespace simt_detail {

// Instruments the accesses of the thread function f to the block's shared
// UB (pointers derived from `bases`, the loads of the block's UB
// addresses), each behind `chk` (f's argument: true only in the checked run
// functions, so the unchecked ones fold it away).  eb builds in f's entry,
// which every resume runs; ctx is the block's context, tid the thread's
// linear index (i32).  Each access's line is appended to `sites` (its id is
// its index + 1).  Returns how many accesses were instrumented.
unsigned simt_ub_instrument(llvm::Function &f, llvm::IRBuilder<> &eb, llvm::Value *ctx, llvm::Value *chk,
                            llvm::Value *tid, const std::vector<llvm::Value *> &bases,
                            std::vector<std::string> &sites, const char *device_root, const char *const *strip,
                            int nstrip);

// Whether run function f (after its region was picked) still checks a
// shared-UB access: a checked run function that does not is the unchecked
// one's twin, left out (compile time).
bool simt_ub_checked(const llvm::Function &f);

} // namespace simt_detail
} // namespace arc_rtc

#endif
