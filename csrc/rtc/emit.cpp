// emit.cpp - see emit.h.
#include "emit.h"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Pass.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>

#include <cstdlib>
#include <cstring>

#include "acl/acl_rt_compile.h"
#include "common/checksum.h"
#include "compile_result.h"
#include "emit_split.h"
#include "timing.h"

namespace arc_rtc {
namespace {

// After the optimiser, a function without a loop is straight-line device-API
// bookkeeping (queue state, checks, calls into the runtime): run once per
// API call, it gains little from the full instruction selector and register
// allocator, which cost most of codegen.  optnone gives it the fast ones
// (FastISel); functions with loops, where kernels spend their time, keep
// the optimising back end.  The generated code computes the same values
// (no fast-math, no FP contraction either way).
void fast_isel_for_straight_code(llvm::Module &m)
{
    for (llvm::Function &f : m) {
        if (f.isDeclaration() || f.hasFnAttribute(llvm::Attribute::OptimizeNone))
            continue;
        bool loop = false;
        for (auto scc = llvm::scc_begin(&f); !scc.isAtEnd() && !loop; ++scc)
            loop = scc.hasCycle();
        if (loop)
            continue;
        f.removeFnAttr(llvm::Attribute::AlwaysInline); /* the verifier refuses it beside noinline */
        f.addFnAttr(llvm::Attribute::NoInline);       /* optnone requires it */
        f.addFnAttr(llvm::Attribute::OptimizeNone);
    }
}

} // namespace

std::unique_ptr<llvm::TargetMachine> target_machine(const std::string &triple, const std::string &cpu, int opt_level,
                                                    std::string *err)
{
    const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, *err);
    if (!target) {
        *err = "no LLVM target for " + triple + ": " + *err;
        return nullptr;
    }
    llvm::TargetOptions to;
    auto level = opt_level == 0 ? llvm::CodeGenOptLevel::None
                 : opt_level == 3 ? llvm::CodeGenOptLevel::Aggressive
                                  : llvm::CodeGenOptLevel::Default;
    std::unique_ptr<llvm::TargetMachine> tm(
        target->createTargetMachine(triple, cpu, "", to, llvm::Reloc::PIC_, std::nullopt, level));
    if (!tm)
        *err = "cannot create a target machine for " + cpu;
    return tm;
}

int generate_code(llvm::Module &m, llvm::TargetMachine &tm, llvm::SmallVectorImpl<char> &obj, std::string &log,
                  bool timed)
{
    llvm::raw_svector_ostream os(obj);
    llvm::legacy::PassManager pm;
    if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::ObjectFile)) {
        log += "the target cannot emit object files\n";
        return ACL_ERROR_RTC_FAILURE;
    }
    // Back-end diagnostics (invalid inline asm, ...) go to the log: without
    // a handler LLVM prints them and exits.
    struct Diags {
        std::string *log;
        bool error = false;
    } diags{&log};
    m.getContext().setDiagnosticHandlerCallBack(
        [](const llvm::DiagnosticInfo *di, void *arg) {
            auto *d = static_cast<Diags *>(arg);
            if (di->getSeverity() != llvm::DS_Error && di->getSeverity() != llvm::DS_Warning)
                return;
            llvm::raw_string_ostream os(*d->log);
            llvm::DiagnosticPrinterRawOStream dp(os);
            os << (di->getSeverity() == llvm::DS_Error ? "error: " : "warning: ");
            di->print(dp);
            os << "\n";
            d->error |= di->getSeverity() == llvm::DS_Error;
        },
        &diags);
    if (timed)
        llvm::TimePassesIsEnabled = true;
    pm.run(m);
    if (timed) {
        llvm::raw_string_ostream los(log);
        llvm::reportAndResetTimings(&los);
        llvm::TimePassesIsEnabled = false;
    }
    return diags.error ? ACL_ERROR_RTC_COMPILATION : ACL_SUCCESS;
}

int emit_object(llvm::Module &m, int opt_level, const std::string &cpu, bool timed, rtc_result *res, std::string &log,
                bool device)
{
    std::string err;
    std::unique_ptr<llvm::TargetMachine> tm = target_machine(m.getTargetTriple(), cpu, opt_level, &err);
    if (!tm)
        return fail(res, log, ACL_ERROR_RTC_FAILURE, err);
    if (opt_level > 0 && device)
        fast_isel_for_straight_code(m);
    if (device)
        dump_ir(m, ".ll");
    std::vector<char> joined;
    int rc = device && !timed ? emit_split(m, opt_level, cpu, joined, log) : kNotSplit;
    llvm::SmallVector<char, 0> whole;
    if (rc == kNotSplit)
        rc = generate_code(m, *tm, whole, log, timed);
    if (rc != ACL_SUCCESS)
        return fail(res, log, rc, "");
    const char *data = joined.empty() ? whole.data() : joined.data();
    const size_t size = joined.empty() ? whole.size() : joined.size();
    const size_t sum = device ? ARC_SUM_BYTES : 0;
    std::free(res->bin);
    res->bin = static_cast<unsigned char *>(std::malloc(size + sum));
    if (!res->bin)
        return fail(res, log, ACL_ERROR_RTC_OUT_OF_MEMORY, "out of memory");
    std::memcpy(res->bin, data, size);
    if (device)
        arc_sum_seal(res->bin, size); /* the checksum every load checks */
    res->bin_size = size + sum;
    return ACL_SUCCESS;
}

} // namespace arc_rtc
