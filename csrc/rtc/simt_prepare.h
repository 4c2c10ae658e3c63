// simt_prepare.h - shared by the two SIMT passes (simt_pass.cpp): the
// builtins' names, the IR's block-shared globals, and the Prepare pass.
#ifndef ARC_RTC_SIMT_PREPARE_H_
#define ARC_RTC_SIMT_PREPARE_H_

#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalValue.h>
#include <llvm/IR/Instruction.h>
#include <llvm/IR/PassManager.h>

#include <llvm/IR/GlobalVariable.h>

#include <set>
#include <string>
#include <vector>

namespace arc_rtc {
namespace simt_detail {

inline const char *const kGet = "__arc_simt_get", *const kSync = "__arc_simt_sync", *const kWarp = "__arc_simt_warp";

// A static __ubuf__ array (after Prepare), a dynamic one (extern, protected).
bool is_ubuf_static(const llvm::GlobalValue *g);
bool is_ubuf_dynamic(const llvm::GlobalValue *g);
// Whether f is one of the three SIMT builtins.
bool is_builtin(const llvm::Function *f);
// Whether I names a SIMT builtin or a block-shared global, directly or
// through a constant expression.
bool uses_simt(const llvm::Instruction &I);
// Functions that reach a SIMT builtin, directly or through calls.
std::set<llvm::Function *> simt_functions(llvm::Module &m);

// A SIMT kernel's thread function: __arc_simt_thread_<i> (the rtc's
// entries; the block entry becomes __arc_entry_<i>) or a <<<...>>> launch's
// __arc::simt_site<F>::thread (arc/launch.h; it becomes the block entry
// itself).  kfn holds the kernel's address, kdesc its parameter descriptor.
struct SimtThread {
    llvm::Function *f;
    std::string id;  // names the pass's functions and tables
    llvm::GlobalVariable *kfn, *kdesc;
    bool site;
};
std::vector<SimtThread> simt_threads(llvm::Module &m);
// SIMT code: the thread functions and what they call or pass on (as
// __arc::call(F, args) does).
std::set<llvm::Function *> simt_code(llvm::Module &m);

// Pipeline start: each static `__ubuf__` array becomes an external global
// __arc_ubuf.<n>; every function reaching a SIMT builtin is always-inline.
struct SimtPrepare : llvm::PassInfoMixin<SimtPrepare> {
    llvm::PreservedAnalyses run(llvm::Module &m, llvm::ModuleAnalysisManager &);
};

} // namespace simt_detail
} // namespace arc_rtc

#endif
