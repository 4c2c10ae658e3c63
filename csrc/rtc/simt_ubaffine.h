// simt_ubaffine.h - the shared-UB race check's affine path.
//
// A checked run function (simt_ubcheck.h) stamps each shared-UB access of
// each thread into the shadow: in a tiled transpose that doubles the run.
// Most such runs start an epoch (the block's start, or just after a
// barrier) with every thread at their point, and each thread makes each
// access once at an address affine in its index (tile[threadIdx.y + j]
// [threadIdx.x]).  For those this pass gives the checked run function an
// entry test: the accesses as descriptors (arc_simt_ub_aff) to
// __arc_simt_ub_affine, which proves from the block's dimensions that they
// stay in the UB and that no two threads' meet (one at least a store); then
// the checked run returns at once and the driver runs its unchecked twin
// (arc_simt_abi.h's ARC_SIMT_RUN_UNCHECKED), and the runtime stamps the descriptors
// into the shadow only if the epoch goes on past the run.  Otherwise the
// checked body runs as before and finds and reports what it finds.
#ifndef ARC_RTC_SIMT_UBAFFINE_H_
#define ARC_RTC_SIMT_UBAFFINE_H_

#include <llvm/IR/PassManager.h>

namespace arc_rtc {
namespace simt_detail {

// Adds the entry test to F when F is a checked run function whose every
// shared-UB access qualifies; true when it changed F.
bool simt_ub_affine(llvm::Function &F, llvm::FunctionAnalysisManager &AM);

// Whether F's shared-UB accesses are the shared-UB race check's: a checked
// run function, or an unchecked one of a kernel launched as a grid (not a
// hybrid kernel's VF, whose UB accesses are PIPE_V's for the pipe race
// check), where the runtime ignores a raw UB access.
bool simt_ub_watched(const llvm::Function &F);

} // namespace simt_detail
} // namespace arc_rtc

#endif
