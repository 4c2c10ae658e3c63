// simt_round.h - a lockstep round with every thread in step runs a thread
// loop without per-thread state checks (simt_round.cpp).
//
// A lockstep loop's run (simt_lockstep.h) goes round its thread loops once
// per iteration.  Each thread checks that it stopped at the loop's point and
// reads its round counter k from its frame, so the loop's index
// (start(tid) + k * step) is a load per thread and its accesses gather.  In
// a round where every thread of the block stopped there with the same k --
// checked once before the round, over the block's pend and k arrays --
// those two reads are constants of the round: a copy of the thread loops
// with them so indexes memory affinely in the thread index, which the GM
// bounds checks hoist out of (simt_guard.h) and the loop vectoriser
// vectorises.  Any other round takes the thread loops as they were.
#ifndef ARC_RTC_SIMT_ROUND_H_
#define ARC_RTC_SIMT_ROUND_H_

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace arc_rtc {
namespace simt_detail {

// The loop property (llvm.loop) that marks the copy's thread loop.
inline const char *const kRoundLoop = "arc.round.loop";

// In run function `run` of lockstep point s: the thread loops are the
// blocks from `zh` (the outer loop's header, whose phis take the same
// value from every block outside the loops) up to `done` (where they end);
// `pl` is the thread's load of its pend entry, `pend` the block's pend
// array, `frames` its frames and `nthreads` (i64) its threads.  Adds the
// copy and its check when the loops read exactly one round counter (loads
// marked kRoundMd with its frame offset); returns whether it did.
bool lockstep_round_copy(llvm::Function &run, llvm::BasicBlock *zh, llvm::BasicBlock *done, llvm::LoadInst *pl,
                         unsigned s, llvm::Value *pend, llvm::Value *frames, llvm::Value *nthreads);

} // namespace simt_detail
} // namespace arc_rtc

#endif
