// simt_gmcheck.h - GM bounds checks of a SIMT thread's own accesses, by
// pointer provenance (simt_gmcheck.cpp; the runtime's side is
// rt/cores/simt_gm.c, the layout arc/simt_abi.h's gm[]).
#ifndef ARC_RTC_SIMT_GMCHECK_H_
#define ARC_RTC_SIMT_GMCHECK_H_

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/IR/IRBuilder.h>

#include <map>
#include <vector>

namespace arc_rtc {
namespace simt_detail {

// Before each load, store, atomic or constant-length memory intrinsic of
// the thread function f whose address derives from one pointer parameter
// (a load of the packed arguments `args` at that parameter's offset, as
// kdesc describes them), inserts `if (address outside ctx->gm[k])
// __arc_simt_gm_oob(ctx, p, bytes, k | write << 8, "file:line", x, y, z)`
// (no return).  eb builds in f's entry, which every resume runs.  Returns
// how many accesses were instrumented.
unsigned simt_gm_instrument(llvm::Function &f, llvm::IRBuilder<> &eb, llvm::Value *ctx, llvm::Value *args,
                            const llvm::GlobalVariable *kdesc, llvm::Value *x, llvm::Value *y, llvm::Value *z,
                            const char *device_root, const char *const *strip, int nstrip);

// A branch in a run function's loop whose condition a value computed in
// the loop's preheader makes true on every iteration (simt_guard.cpp).
struct SimtHoisted {
    llvm::BranchInst *br;
    llvm::Loop *loop;
    llvm::Value *all; // i1, in the preheader
    unsigned taken;   // the successor taken on every iteration when `all`
};

// For each GM check (above) in a loop of run function F whose address is
// affine in the loop without wrap: the check holds on every iteration when
// it holds at the first and the last; that test, computed before the loop,
// is appended to `out` (the check's branch left as it is).
void simt_gm_hoist(llvm::Function &F, llvm::LoopInfo &LI, llvm::ScalarEvolution &SE, std::vector<SimtHoisted> &out);

} // namespace simt_detail
} // namespace arc_rtc

#endif
