// simd_ub.h - a SIMD kernel's static `__ubuf__` arrays live in the UB, its
// `__cbuf__`, `__ca__`, `__cb__`, `__cc__`, `__biasbuf__`, `__fbuf__` arrays
// in L1, L0A, L0B, L0C, the BiasTable and the Fixpipe buffer.
#ifndef ARC_RTC_SIMD_UB_H_
#define ARC_RTC_SIMD_UB_H_

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace arc_rtc {
// Pipeline start, every compile (SIMT code is the SIMT passes'): each
// `__ubuf__ T a[N]` local of SIMD code (found by its "arc.ubuf"
// annotation) becomes bytes of this core's UB from offset 0, 32-byte
// aligned, as CANN's compiler lays static UB out (the other memories'
// arrays likewise, each from its own offset 0 at its alignment); the arrays of functions a
// kernel can reach get disjoint bytes.  A kernel's `extern __ubuf__ T d[]`
// (the launch's dynamic UB) follows its static arrays.  The annotations of
// `__ubuf__ T *p` pointers are dropped, so they stay registers.
struct SimdStaticUb : llvm::PassInfoMixin<SimdStaticUb> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};
} // namespace arc_rtc

#endif
