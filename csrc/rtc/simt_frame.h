// simt_frame.h - a SIMT thread's values kept across its points: each
// thread's frame (simt_frame.cpp).
#ifndef ARC_RTC_SIMT_FRAME_H_
#define ARC_RTC_SIMT_FRAME_H_

#include <llvm/IR/Function.h>

#include <string>

namespace arc_rtc {
namespace simt_detail {

// In continuation function f (after the points became returns and the entry
// block E switches to the resume blocks), values used where their
// definition no longer dominates are computed again where they derive from
// the thread's index and the launch alone, else demoted to the stack; then
// every alloca becomes a slot of the thread's frame.  The block's frames
// (`frames`, nthreads threads, i64 `nthreads` and thread index `tid` computed
// in E) are laid out by slot, structure of arrays: first each thread's warp
// exchange area (arc_simt_xch, the driver's), then per slot of size sz
// (rounded up to its alignment) an array of nthreads * sz bytes -- so
// consecutive threads' copies of a value are adjacent, and a thread loop
// that loads or stores it vectorises without gathers.  Returns the bytes
// per thread; appends to `errors` what cannot be laid out (a variable-
// length array, a frame over 1 MiB) naming kernel `id`.
unsigned simt_frame_layout(llvm::Function &f, llvm::BasicBlock *E, llvm::Value *frames, llvm::Value *tid,
                           llvm::Value *nthreads, bool points, const std::string &id, std::string &errors);

} // namespace simt_detail
} // namespace arc_rtc

#endif
