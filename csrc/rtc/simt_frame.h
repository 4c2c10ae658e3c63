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
// definition no longer dominates are demoted to the stack, then every
// alloca becomes a slot of the thread's frame (f's argument `frame`;
// slots after the warp exchange area, arc_simt_xch).  Returns the frame's
// size in bytes; appends to `errors` what cannot be laid out (a
// variable-length array, a frame over 1 MiB) naming kernel `id`.
unsigned simt_frame_layout(llvm::Function &f, llvm::BasicBlock *E, llvm::Value *frame, bool points,
                           const std::string &id, std::string &errors);

} // namespace simt_detail
} // namespace arc_rtc

#endif
