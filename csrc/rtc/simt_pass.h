// simt_pass.h - the SIMT kernels' passes in the in-process pipeline
// (--enable-simt): a SIMT kernel is compiled as one thread's code and
// turned into loops over the block's threads between barriers and warp
// functions (loop fission, as PoCL builds work-group functions; warp
// functions collapsed per warp as COX does).  See simt_pass.cpp.
#ifndef ARC_RTC_SIMT_PASS_H_
#define ARC_RTC_SIMT_PASS_H_

#include <llvm/IR/Instructions.h>
#include <llvm/Passes/PassBuilder.h>

#include <map>
#include <string>

namespace arc_rtc {

struct SimtKernel {
    unsigned static_ub = 0;     // bytes of static __ubuf__ arrays
    unsigned max_threads = 1024; // __launch_bounds__, else the default
    unsigned frame = 0;         // bytes each thread keeps across points
    unsigned points = 0;        // barriers and warp functions
};

struct SimtResult {
    std::string errors;                 // "file:line: error: ..." lines; empty when fine
    std::map<std::string, SimtKernel> kernels;  // by block entry: __arc_entry_<i>, or a launch site's
};

// Adds the two passes to a pipeline: at its start, static __ubuf__ arrays
// become block-shared UB slots and the functions that reach SIMT builtins
// are marked always-inline; before the optimiser's loop passes, each
// __arc_simt_thread_<i> becomes __arc_entry_<i> (the block, run by the
// runtime's driver, rt/cores/simt.c) and its run functions, and each
// <<<...>>> launch's simt_site<F>::thread becomes its block entry.
void simt_register(llvm::PassBuilder &pb, SimtResult *r, const char *device_root, const char *const *strip,
                   int nstrip);

// The offset in the block context (a run function's first argument) that
// load l reads a field from; -1 when it reads something else.
int64_t simt_ctx_field(const llvm::LoadInst *l);

// Whether obj (an underlying object) is a SIMT block's thread frames, stop
// points or UB race shadow, which the driver keeps in host memory: not UB
// or GM.
bool simt_thread_state(const llvm::Value *obj);

// Whether obj is the block's shared UB in a run function whose UB accesses
// are the shared-UB race check's (simt_ubaffine.h's simt_ub_watched), not
// the pipe race check's.
bool simt_checked_ub(const llvm::Value *obj);

} // namespace arc_rtc

#endif
