// kernel_uses.h - the kernel type CANN's compiler infers from the code.
#ifndef ARC_RTC_KERNEL_USES_H_
#define ARC_RTC_KERNEL_USES_H_

#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>

namespace arc_rtc {
// First in the optimiser, before anything is inlined: for each kernel
// (__arc_kfn_<i>) the ARC_USES_* bits of the __arc_uses(bits) calls its
// code can reach through direct calls (an indirect call reaches every
// function whose address is taken) are recorded in the module's named
// metadata; then every __arc_uses call is deleted.
struct KernelUsesPass : llvm::PassInfoMixin<KernelUsesPass> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};
// The bits KernelUsesPass recorded for the kernel whose symbol is `fn` (on
// both sides of a file compiled per side).
unsigned kernel_uses(const llvm::Module &m, llvm::StringRef fn);
// The kernel type (KERNEL_TYPE_*) a kernel that writes none gets, as CANN's
// compiler decides it from the instructions it uses: cube and vector work
// (or the Matmul API, whose AIV side is a client of the AIC) make it MIX
// with the AI core's AIC:AIV ratio of 1:2 (dav-2201 and dav-3510 alike),
// cube work alone AIC only, anything else AIV only.
unsigned inferred_kernel_type(unsigned uses);
} // namespace arc_rtc

#endif
