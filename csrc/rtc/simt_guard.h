// simt_guard.h - unmasked vector loops for a SIMT kernel's bounds checks.
//
// `if (i < n)` with i = blockIdx.x * blockDim.x + threadIdx.x is a branch
// in the thread loop of every block; the loop vectoriser turns it into
// masked loads and stores (slow stores on AMD's cores), though the check
// fails only in the grid's last block.  For each branch within a run
// function's loop on a compare of an affine function of the loop's
// iteration (without wrap) against a value the loop does not change, this
// pass computes before the loop whether the compare holds at the first and
// the last iteration -- then on all of them -- and makes the branch's
// condition `that || compare`; the loop unswitch pass it then runs on the
// function gives the loop a copy where the branch is always taken, and the
// vectoriser full vectors there; the other copy, the last block's, keeps
// the masks.  The GM bounds checks of the loop's affine accesses
// (simt_gmcheck.h) join that test: one test and one copy per loop, without
// the masks and the checks.
#ifndef ARC_RTC_SIMT_GUARD_H_
#define ARC_RTC_SIMT_GUARD_H_

#include <llvm/IR/Instructions.h>
#include <llvm/IR/PassManager.h>

namespace arc_rtc {

// Marks the latch of a run function's thread loop (the loop over the block's
// threads): the loop unroller leaves it alone.  Unrolled by a run-time count
// it repeats the whole inlined stage of a thread (and the code generator
// pays for every copy) to save a compare and branch per thread; the loop
// vectoriser, where a stage vectorises, interleaves on its own.
void no_runtime_unroll(llvm::BranchInst *latch);

struct SimtGuard : llvm::PassInfoMixin<SimtGuard> {
    llvm::PreservedAnalyses run(llvm::Function &F, llvm::FunctionAnalysisManager &AM);
};

} // namespace arc_rtc

#endif
