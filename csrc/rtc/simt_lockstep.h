// simt_lockstep.h - grid-stride loops run in lockstep over a block's
// threads (simt_lockstep.cpp).
//
// Loop fission runs a block's threads one after another between points, so
// a thread runs its whole loop before the next thread starts.  For a
// grid-stride loop (`for (i = base + tid; i < n; i += stride)`) that walks
// memory with a stride of the whole grid per thread -- every access a new
// cache line and page, 1024 times over -- where the NPU's threads, running
// together, read consecutive addresses at each step.  Such a loop's back
// edge becomes a lockstep point: each thread runs one iteration, then the
// next thread does, until none is left in the loop (rt/cores/simt.c).  A
// schedule the NPU could run too: threads between barriers are unordered.
#ifndef ARC_RTC_SIMT_LOCKSTEP_H_
#define ARC_RTC_SIMT_LOCKSTEP_H_

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>

#include <vector>

namespace arc_rtc {
namespace simt_detail {

inline const char *const kLockstep = "__arc_simt_lockstep";
// Metadata on a lockstep loop's round counter: its alloca, then its loads
// (with the frame slot's offset, simt_frame.cpp).
inline const char *const kRoundMd = "arc.round";

// Puts a call of `marker` (no arguments, void) on each back edge of the
// loops of SIMT thread function f (builtins still calls of __arc_simt_get)
// worth running in lockstep: innermost loops with no call but intrinsics
// and no volatile or atomic access, running more than a few iterations, in
// which an access indexes memory by a value that consecutive threads
// (threadIdx.x) start a few elements apart and that steps by much more per
// iteration.  Where that index is the loop's induction, it becomes a round
// counter times the step (kRoundMd) and the loop's exits get a point each
// too, so a round's run is the loop body alone (simt_round.h).  Returns
// how many points it made.
unsigned mark_lockstep_loops(llvm::Function &f, llvm::FunctionCallee marker);

// The end of a lockstep point's run function (b in its last block): while
// a thread of the block (nthreads, i32) is still at point s (pend: the
// threads' points), back to `start`, the thread loops' first block, whose
// phi z (the outer thread loop's index) starts at 0 again.  Returns the
// block reached when none is: b's insert point is left there.
llvm::BasicBlock *lockstep_again(llvm::IRBuilder<> &b, llvm::BasicBlock *start, llvm::PHINode *z, llvm::Value *pend,
                                 llvm::Value *nthreads, unsigned s);

} // namespace simt_detail
} // namespace arc_rtc

#endif
