// simt_spin.h - spin loops in SIMT and hybrid code (simt_spin.cpp).
//
// A thread that spins on memory another thread (or a hybrid kernel's
// scalar side) will write must let that other run: loop fission runs a
// block's threads one after another between points, and a hybrid VF at
// its asc_vf_call, so a spin there would never end.  A spin loop is a loop
// whose exit depends on a volatile or atomic load of memory (not a
// compare-and-swap retry loop, which always makes progress).
#ifndef ARC_RTC_SIMT_SPIN_H_
#define ARC_RTC_SIMT_SPIN_H_

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Function.h>

#include <set>
#include <utility>
#include <vector>

namespace arc_rtc {
namespace simt_detail {

inline const char *const kYield = "__arc_simt_yield", *const kPoll = "__arc_vf_poll";

// Puts a call of `marker` (no arguments, void) on every back edge of every
// spin loop of f; returns how many.  In a SIMT thread the marker becomes a
// yield point; in a hybrid kernel's SIMD code it is __arc_vf_poll.
// lockstep: also before each volatile or atomic access in a spin loop, and
// after each such load, so that the lanes of a warp make each such access
// in turn before any goes on, as lanes executing together do: the lanes of
// a warp at one load read what one load of the converged warp reads (a
// lane's compare-and-swap after the others' reads of the same counter:
// asc-devkit's hash_table_mte_queue).  headers (when given): gets the spin
// loops' headers, which stay theirs as the markers split edges.
unsigned mark_spin_loops(llvm::Function &f, llvm::FunctionCallee marker, bool lockstep = false,
                         std::set<const llvm::BasicBlock *> *headers = nullptr);

// For each point of SIMT thread function f (points[s - 1] is point s, a
// call) that is a yield in a spin loop (its header in `headers`): the
// points from which a thread reaches it within the outermost spin loop
// around it, in the same iteration of every loop around it (no back edge
// of such a loop on the way), as a bit set over the points (bit s of word
// s / 64), rows of (points.size() + 64) / 64 words from point 0; empty
// when f has no such yield.  The block driver holds a warp's lanes at such
// a yield while a lane of the warp is at a point behind it: the NPU runs a
// warp's divergent paths one at a time to where they meet again (a
// divergence stack per warp), so its lanes go round a spin loop together
// and read its shared counters together (rt/cores/simt.c).
std::vector<unsigned long long> spin_behind(llvm::Function &f, const std::vector<llvm::CallInst *> &points,
                                           const std::set<const llvm::BasicBlock *> &headers);

// Puts a call of `marker` on every back edge of these loops (each split
// into a block of its own, the call given the latch's line); returns how
// many.  The loops' LoopInfo is stale afterwards.
unsigned mark_back_edges(const std::vector<llvm::Loop *> &loops, llvm::FunctionCallee marker);

// Puts a call of `marker` on each of these CFG edges (from, to), each split
// into a block of its own, the call given from's terminator's line; returns
// how many.
unsigned mark_edges(const std::vector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>> &edges,
                    llvm::FunctionCallee marker);

} // namespace simt_detail
} // namespace arc_rtc

#endif
