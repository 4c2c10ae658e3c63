// param_bounds.h - GM bounds checks of a kernel's own accesses through its
// pointer parameters, by pointer provenance (param_bounds.cpp; SIMT
// threads: simt_gmcheck.h; the runtime's side is rt/cores/gm_bounds.c).
#ifndef ARC_RTC_PARAM_BOUNDS_H_
#define ARC_RTC_PARAM_BOUNDS_H_

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace arc_rtc {

// The bytes of a kernel's packed arguments, from its descriptor
// ({n, args_size, then offset, size, align, kind per parameter},
// arc/entry.h); 0 when kdesc is none.
unsigned kdesc_args_size(const llvm::GlobalVariable *kdesc);

// Each parameter's offset in the packed arguments when it is a pointer
// (the first ARC_GM_PARAMS), else -1, read from a kernel's descriptor
// ({n, args_size, then offset, size, align, kind per parameter},
// arc/entry.h); empty when kdesc is none.
std::vector<long long> pointer_offsets(const llvm::GlobalVariable *kdesc);

// The pointer parameter (its index) every origin of p is: a load of the
// packed arguments `args` at that parameter's offset (arc/entry.h loads a
// parameter's bytes, then casts), or argument k of the kernel function
// `kfn` itself (null: none); -1 for any other origin, or several.
int param_of(const llvm::Value *p, const llvm::Value *args, const llvm::Function *kfn,
             const std::vector<long long> &offs, const llvm::DataLayout &DL);

// One GM access of a kernel's own code through pointer parameter `param`.
struct ParamAccess {
    llvm::Instruction *in;
    llvm::Value *ptr;
    uint64_t bytes;
    unsigned param;
    bool write;
};

// The loads, stores, atomics and constant-length memory intrinsics of f
// (but those `skip` names) whose address is one pointer parameter's
// (param_of), with the bytes each reaches; a run-time length is left to
// the guard pages (rt/acl/mem.c).  Both checks' (here and SIMT threads').
std::vector<ParamAccess> param_accesses(llvm::Function &f, const llvm::Value *args, const llvm::Function *kfn,
                                        const std::vector<long long> &offs,
                                        const std::function<bool(const llvm::Instruction &)> &skip);

// The runtime's report of an access outside its parameter's allocation
// (`name` of type t), declared as it behaves: it does not return, is cold
// and throws nothing, so the check's branch stays off the hot path.  Both
// checks' (__arc_gm_oob here, __arc_simt_gm_oob for SIMT threads).
llvm::FunctionCallee oob_reporter(llvm::Module &m, const char *name, llvm::FunctionType *t);

// Whether [q, q + bytes) lies in [lo, lo + span): q - lo < span and
// q - lo + bytes <= span, unsigned (an address below lo wraps to a huge
// offset; span 0 admits nothing), computed as one compare against a limit
// the optimiser hoists out of loops.
llvm::Value *gm_inside(llvm::IRBuilder<> &b, llvm::Value *q, uint64_t bytes, llvm::Value *lo, llvm::Value *span);

// Before access a: when it leaves [lo, lo + span), a cold branch calls
// oob(before..., p, bytes, param | write << 8, "file:line", after...), which
// does not return (the line's string made once per line, in sites).
void guard_access(llvm::Module &m, const ParamAccess &a, llvm::Value *lo, llvm::Value *span, llvm::FunctionCallee oob,
                  llvm::ArrayRef<llvm::Value *> before, llvm::ArrayRef<llvm::Value *> after, const char *device_root,
                  const char *const *strip, int nstrip, std::map<std::string, llvm::Constant *> &sites);

// In each SIMD kernel's entries and in the kernel function itself: before
// each load, store, atomic or constant-length memory intrinsic of the
// user's code (after the optimiser: what remains) through a pointer
// parameter, inserts `if (address outside bounds[k]) __arc_gm_oob(p, bytes,
// k | write << 8, "file:line")` (no return), `bounds` being
// __arc_gm_bounds() asked once at the function's entry.  SIMT run
// functions are simt_gmcheck.cpp's.  Returns the accesses instrumented.
unsigned check_param_bounds(llvm::Module &m, const char *device_root, const char *const *strip, int nstrip);

} // namespace arc_rtc

#endif
