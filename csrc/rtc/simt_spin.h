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

#include <vector>

namespace arc_rtc {
namespace simt_detail {

inline const char *const kYield = "__arc_simt_yield", *const kPoll = "__arc_vf_poll";

// Puts a call of `marker` (no arguments, void) on every back edge of every
// spin loop of f; returns how many.  In a SIMT thread the marker becomes a
// yield point; in a hybrid kernel's SIMD code it is __arc_vf_poll.
// lockstep: also before each volatile or atomic access in a spin loop, so
// the lanes of a warp make each such access in turn before any makes the
// next, as lanes executing together do (a lane's compare-and-swap after
// the others' reads of the same counter: asc-devkit's hash_table_mte_queue).
unsigned mark_spin_loops(llvm::Function &f, llvm::FunctionCallee marker, bool lockstep = false);

// Puts a call of `marker` on every back edge of these loops (each split
// into a block of its own, the call given the latch's line); returns how
// many.  The loops' LoopInfo is stale afterwards.
unsigned mark_back_edges(const std::vector<llvm::Loop *> &loops, llvm::FunctionCallee marker);

} // namespace simt_detail
} // namespace arc_rtc

#endif
