// compile.cpp - the clang bridge: one in-process clang 19 compile of a
// prepared translation unit into an x86-64 ELF object with .arc_meta.
// C++ only because clang's and LLVM's APIs are; everything it returns is C.
// No llvm::Error is ever dropped or turned into exit(): all failures end
// up in the log with an ACL error code.
//
// Containment: a compile runs under an escape hatch (Escape).  An LLVM
// fatal error (report_fatal_error: invalid inline asm, "ran out of source
// locations"), an allocation failure inside LLVM, a crash of the compiler
// (SIGSEGV/SIGBUS/SIGILL/SIGFPE/SIGABRT/SIGTRAP on this thread, caught by
// the runtime's fault handlers, see ascendrtc_fault_recovery) and the
// limits checked while preprocessing (time: ASCENDRTC_COMPILE_TIMEOUT;
// memory: the source-location space a macro expansion may use; a cancel
// from ascendrtc_compile_cancel, i.e. Ctrl-C, also checked between
// declarations and optimiser passes) all siglongjmp back to
// rtc_compile, which fails with ACL_ERROR_RTC_COMPILATION and the
// compiler's message.  What the abandoned compile had allocated is lost
// (bounded by those limits); the next compile starts afresh.

#include "compile.h"
#include "core_pass.h"
#include "dialect.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/Preprocessor.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "acl/acl_rt_compile.h"
#include "compile_result.h"
#include "crash_where.h"
#include "config.h"
#include "deps.h"
#include "emit.h"
#include "program_host.h"
#include "rdc.h"
#include "infer_types.h"
#include "kernel_uses.h"
#include "simd_ub.h"
#include "addr_reg.h"
#include "lenient.h"
#include "host_split.h"
#include "launch_lower.h"
#include "limits.h"
#include "metadata.h"
#include "pch.h"
#include "param_bounds.h"
#include "raw_access.h"
#include "simt_pass.h"
#include "int_div.h"
#include "sites.h"
#include "timing.h"
#include "unknown_names.h"

// libascendcl (fault.c): while jb is set, a fault on this thread
// siglongjmps to it with the signal number instead of ending the process.
extern "C" void ascendrtc_fault_recovery(sigjmp_buf *jb);
extern "C" void ascendrtc_fault_recovery_note(void (*note)(void));

using namespace arc_rtc;

namespace {

// EmitLLVMOnlyAction with the limits attached to its preprocessor.
class LimitedAction : public clang::EmitLLVMOnlyAction {
public:
    LimitedAction(llvm::LLVMContext *ctx, double timeout_s) : clang::EmitLLVMOnlyAction(ctx), timeout_s_(timeout_s) {}
    // The optimiser's per-pass times (time_passes()), printed into os.
    void report_pass_times(llvm::raw_ostream &os)
    {
        if (!pass_times_)
            return;
        pass_times_->setOutStream(os);
        pass_times_->print();
    }

protected:
    bool BeginSourceFileAction(clang::CompilerInstance &ci) override
    {
        ci.getPreprocessor().addPPCallbacks(make_limits(ci.getSourceManager(), timeout_s_));
        if (time_passes())
            pass_times_ = std::make_unique<llvm::TimePassesHandler>(true);
        ci.getCodeGenOpts().PassBuilderCallbacks.push_back([this](llvm::PassBuilder &pb) {
            pb.registerPipelineStartEPCallback([](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
                mpm.addPass(arc_rtc::KernelUsesPass());
                mpm.addPass(arc_rtc::SimdStaticUb());
                mpm.addPass(arc_rtc::AddrRegPass());
            });
            if (auto *pic = pb.getPassInstrumentationCallbacks()) {
                pic->registerBeforeNonSkippedPassCallback([](llvm::StringRef, llvm::Any) {
                    check_cancel();
                    if (t_timer && !t_timer->optimising) {
                        t_timer->lap("irgen");
                        t_timer->optimising = true;
                    }
                });
                if (pass_times_)
                    pass_times_->registerCallbacks(*pic);
            }
        });
        return clang::EmitLLVMOnlyAction::BeginSourceFileAction(ci);
    }
    void ExecuteAction() override
    {
        if (t_timer)
            t_timer->lap("begin");
        clang::EmitLLVMOnlyAction::ExecuteAction();
    }

private:
    double timeout_s_;
    std::unique_ptr<llvm::TimePassesHandler> pass_times_;
};

// First of the consumers: the parse is over when the translation unit is
// handed on (IR for the deferred inline functions is generated after).
class ParseLap : public clang::ASTConsumer {
public:
    void HandleTranslationUnit(clang::ASTContext &) override
    {
        if (t_timer)
            t_timer->lap("parse");
    }
};

// Code generation plus one more consumer of the parsed declarations: the
// element types of byte-pointer parameters (infer_types.cpp).
class CompileAction : public LimitedAction {
public:
    CompileAction(llvm::LLVMContext *ctx, double timeout_s, arc_rtc::InferredTypes &types, DepMap &deps)
        : LimitedAction(ctx, timeout_s), types_(types), deps_(deps) {}

protected:
    bool BeginSourceFileAction(clang::CompilerInstance &ci) override
    {
        ci.getPreprocessor().addPPCallbacks(make_dep_recorder(ci.getSourceManager(), deps_));
        return LimitedAction::BeginSourceFileAction(ci);
    }

    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef in) override
    {
        std::vector<std::unique_ptr<clang::ASTConsumer>> cs;
        cs.push_back(std::make_unique<ParseLap>());
        cs.push_back(LimitedAction::CreateASTConsumer(ci, in));
        if (!cs.back())
            return nullptr;
        cs.push_back(arc_rtc::make_type_inference(types_));
        cs.push_back(make_cancel_check());
        return std::make_unique<clang::MultiplexConsumer>(std::move(cs));
    }

private:
    arc_rtc::InferredTypes &types_;
    DepMap &deps_;
};

} // namespace

static int compile_impl(const rtc_request *req, rtc_result *res, std::string &log, Escape *esc)
{
    PhaseTimer timer;
    t_timer = &timer;
    struct Unset {
        ~Unset() { t_timer = nullptr; }
    } unset;
    llvm::raw_string_ostream los(log);

    auto user_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    std::string main_path = std::string(kSrcRoot) + "/" + req->file_name;
    std::string main_text(req->text, req->len);
    const bool host_obj = req->opts->host_object;
    if (arc_rtc::AicpuKernel k = arc_rtc::aicpu_kernel(req->text, req->len); k.line) {
        log += std::string(req->file_name) + ":" + std::to_string(k.line) + ":1: error: '" + k.name +
               "' is an AI CPU kernel (__global__ __aicpu__): it runs on the AI CPU, which the simulated NPU "
               "does not model\n";
        return fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
    }
    // Host code (program_host.h): one translation unit with the system headers,
    // as CANN's single-source flow compiles it; the host part is dropped
    // after the frontend.  Without system headers the device-only compile
    // names the host headers it cannot find.
    bool host = host_obj || arc_rtc::has_host_code(req->text, req->len);
    for (int i = 0; !host && i < req->nheaders; i++)
        host = arc_rtc::has_host_code(req->header_texts[i], std::strlen(req->header_texts[i]));
    bool rewrote = arc_rtc::blank_target_attributes(main_text) > 0;
    if (!host) { /* the device's libc++ has no shared library: what it would define (arc/libcxx_inst.h) */
        main_text += "\n#ifdef _LIBCPP___ALGORITHM_SORT_H\n#include \"arc/libcxx_inst.h\"\n#endif\n";
        rewrote = true;
    }
    if (host_obj) { /* ascendrtc cc: launches lowered to ACL calls (launch_lower.h) */
        std::set<std::string> deduced = arc_rtc::add_deduction_twins(main_text, req->opts);
        if (arc_rtc::lower_host_launches(req->file_name, main_text, &log, &deduced) < 0)
            return fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
        main_text = "#include \"arc/launch.h\"\n" + main_text;
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(main_text, main_path));
    } else if (main_text.find("<<<") != std::string::npos &&
               arc_rtc::blank_host_launches(req->file_name, main_text, &log))
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(main_text, main_path));
    else if (rewrote)
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(main_text, main_path));
    else
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(req->text, req->len),
                                                                       main_path, true));
    for (int i = 0; i < req->nheaders; i++) {
        std::string p = std::string(kUserRoot) + "/" + req->header_names[i];
        user_fs->addFile(p, 0, llvm::MemoryBuffer::getMemBuffer(req->header_texts[i], p, true));
    }
    const std::vector<std::string> *sys = nullptr;
    if (host) {
        sys = &arc_rtc::system_include_args(nullptr);
        if (sys->empty())
            host = false, sys = nullptr;
    }
    std::set<std::string> absent;
    auto dialect = llvm::makeIntrusiveRefCnt<arc_rtc::DialectFS>(make_probe_fs(absent), host_obj);
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(dialect);
    overlay->pushOverlay(host ? host_code_fs() : device_fs());
    overlay->pushOverlay(user_fs);

    const char *strip[] = {kSrcRoot, kUserRoot};
    arc_rtc::SimtResult simt;
    llvm::LLVMContext ctx;
    arc_rtc::InferredTypes inferred;
    DepMap deps;
    // One frontend and optimiser run: pass 0 (the file once), 1 (AIC) or 2
    // (AIV) of a file compiled per side (core_pass.h).  Null on failure,
    // with *rc and the log set.
    auto frontend = [&](int pass, int *rc) -> std::unique_ptr<llvm::Module> {
        std::vector<std::string> args = cc1_config(req, sys);
        if (pass)
            arc_rtc::core_pass_args(pass, req->opts->arch_num, args);
        if (!arc_rtc::lenient_assert(req->file_name, req->text, req->len, args, &log))
            for (int i = 0; i < req->nheaders; i++)
                if (arc_rtc::lenient_assert(req->header_names[i], req->header_texts[i],
                                            std::strlen(req->header_texts[i]), args, &log))
                    break;
        arc_rtc::PchBytes pch;
        arc_rtc::PchKind pch_kind = pass ? arc_rtc::PchKind::None : pch_applies(req);
        if (pch_kind != arc_rtc::PchKind::None) { /* the PCH is one side's: none per side */
            auto pch_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
            pch_fs->pushOverlay(host ? host_code_fs() : device_fs());
            std::string why;
            t_escape = nullptr; /* the shared PCH build must finish (others wait for it) */
            pch = arc_rtc::pch_get(pch_kind, args, pch_fs, &why);
            t_escape = esc;
            timer.lap(pch ? "pch" : "pch failed"); /* the tests tell them apart */
            if (pch) {
                const char *pch_path = "/arc/pch/device_api.pch";
                user_fs->addFile(pch_path, 0,
                                 llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(pch->data(), pch->size()),
                                                                  pch_path, false));
                args.push_back("-include-pch");
                args.push_back(pch_path);
            }
        }
        for (const char *a : {"-main-file-name", req->file_name, "-x", "c++"})
            args.push_back(a);
        args.push_back(main_path);
        std::vector<const char *> argv;
        for (auto &s : args)
            argv.push_back(s.c_str());

        clang::CompilerInstance ci;
        auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
        auto *printer = new clang::TextDiagnosticPrinter(los, diag_opts.get());
        clang::DiagnosticsEngine arg_diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diag_opts, printer,
                                           true);
        auto inv = std::make_shared<clang::CompilerInvocation>();
        if (!clang::CompilerInvocation::CreateFromArgs(*inv, argv, arg_diags)) {
            *rc = fail(res, log, ACL_ERROR_RTC_INVALID_OPTION, "invalid compiler options");
            return nullptr;
        }
        inv->getFrontendOpts().DisableFree = false;
        inv->getCodeGenOpts().DisableFree = false;
        ci.setInvocation(inv);
        ci.createDiagnostics(new clang::TextDiagnosticPrinter(los, &ci.getDiagnosticOpts()), true);
        ci.setVerboseOutputStream(los);
        ci.createFileManager(overlay);
        if (req->opts->simt)
            inv->getCodeGenOpts().PassBuilderCallbacks.push_back(
                [&](llvm::PassBuilder &pb) { arc_rtc::simt_register(pb, &simt, kDeviceRoot, strip, 2); });
        CompileAction action(&ctx, compile_timeout_s(), inferred, deps);
        bool ok = ci.ExecuteAction(action);
        timer.lap("optimise");
        if (timer.on) {
            llvm::raw_string_ostream pos(timer.passes);
            action.report_pass_times(pos);
        }
        std::unique_ptr<llvm::Module> m = ok ? action.takeModule() : nullptr;
        if (!ok || !m || ci.getDiagnostics().hasErrorOccurred()) {
            log = arc_rtc::explain_unknown_names(log, host);
            *rc = fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
            return nullptr;
        }
        if (llvm::Function *f = m->getFunction("__arc_uses"); f && !f->use_empty()) { // no optimiser ran
            llvm::ModuleAnalysisManager mam;
            arc_rtc::KernelUsesPass().run(*m, mam);
            arc_rtc::SimdStaticUb().run(*m, mam);
            arc_rtc::AddrRegPass().run(*m, mam);
        }
        return m;
    };
    // A file that can tell the sides apart is compiled per side; one that
    // only shows it in a header on disk is found by the first compile.
    bool per_side = !req->opts->simt && arc_rtc::names_core_pass(main_text);
    for (int i = 0; !per_side && !req->opts->simt && i < req->nheaders; i++)
        per_side = arc_rtc::names_core_pass(req->header_texts[i]);
    int frc = ACL_SUCCESS;
    std::unique_ptr<llvm::Module> mod = frontend(per_side ? 1 : 0, &frc);
    if (!per_side && !req->opts->simt && dialect->names_core_pass()) {
        per_side = true;
        std::free(res->log); /* the first compile's errors (g_coreType unknown) */
        res->log = nullptr;
        los.flush();
        log.clear();
        mod = frontend(1, &frc);
    }
    if (!mod)
        return frc;
    if (per_side) {
        std::unique_ptr<llvm::Module> aiv = frontend(2, &frc);
        if (!aiv)
            return frc;
        if (!arc_rtc::merge_core_passes(*mod, std::move(aiv), &log))
            return fail(res, log, ACL_ERROR_RTC_FAILURE, "");
    }
    if (req->opts->rdc && req->opts->simt && !arc_rtc::rdc_check_simt(*mod, req->file_name, &log))
        return fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
    std::unique_ptr<llvm::Module> host_mod;
    if (host_obj && !(host_mod = arc_rtc::split_host(*mod, req->file_name, &log)))
        return fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
    if (host && !host_obj && arc_rtc::strip_host_code(*mod) > 0)
        log += std::string(req->file_name) + ":1:1: note: host code (functions the kernels do not call, main "
               "included) compiled with the system headers as CANN's single-source flow does, and left out of "
               "the kernel object: launch the kernels from Python\n";
    else if (host_obj)
        arc_rtc::strip_host_code(*mod);
    if (!simt.errors.empty())
        return fail(res, log, ACL_ERROR_RTC_COMPILATION, simt.errors);
    arc_rtc::guard_int_divisions(*mod);
    arc_rtc::mark_sites(*mod, kDeviceRoot, strip, 2);
    arc_rtc::instrument_raw_accesses(*mod, kDeviceRoot, strip, 2);
    arc_rtc::check_param_bounds(*mod, kDeviceRoot, strip, 2); /* after: its reports would split the race check's runs */
    if (!req->opts->debug)
        llvm::StripDebugInfo(*mod);
    int rc = arc_rtc::add_metadata(*mod, req, inferred, simt, target_cpu(), res, log);
    if (rc != ACL_SUCCESS)
        return rc;
    if (timer.on)
        timer.count_ir(*mod);
    rc = arc_rtc::emit_object(*mod, req->opts->opt_level, target_cpu(), time_passes(), res, log);
    if (rc != ACL_SUCCESS)
        return rc;
    timer.lap("codegen");
    if (host_obj) { /* the result is the host object, the device binary inside it */
        arc_rtc::embed_device_binary(*host_mod, res->bin, res->bin_size,
                                     req->opts->soc ? req->opts->soc : req->opts->arch, req->opts->rdc);
        if (!req->opts->debug)
            llvm::StripDebugInfo(*host_mod);
        rc = arc_rtc::emit_object(*host_mod, req->opts->opt_level, target_cpu(), false, res, log, false);
        if (rc != ACL_SUCCESS)
            return rc;
        timer.lap("host codegen");
    }
    if (!(res->deps = format_deps(deps, absent)))
        return fail(res, log, ACL_ERROR_RTC_OUT_OF_MEMORY, "out of memory");
    if (timer.on)
        log += timer.report + "\n" + timer.passes;
    res->log = dup(log);
    return res->log ? ACL_SUCCESS : ACL_ERROR_RTC_OUT_OF_MEMORY;
}

extern "C" int rtc_compile(const rtc_request *req, rtc_result *res)
{
    ensure_init();
    std::memset(res, 0, sizeof *res);
    // On the heap and never freed after an escape: the compile may have
    // been appending to it.
    std::string *log = new std::string;
    Escape *esc = new Escape;
    Escape *outer = t_escape;
    const int *outer_cancel = t_cancel;
    int sig = sigsetjmp(esc->jb, 1);
    if (sig) {
        t_timer = nullptr; /* it lived on the abandoned compile's stack */
        t_escape = outer;
        t_cancel = outer_cancel;
        ascendrtc_fault_recovery(nullptr);
        ascendrtc_fault_recovery_note(nullptr);
        std::string msg = *log;
        if (sig > 1)
            std::snprintf(esc->why, sizeof esc->why, "the compiler crashed (%s) compiling this source%s%s; this is a "
                          "bug in clang or in ascendrtc", strsignal(sig), *crash_where() ? ", at: " : "",
                          crash_where());
        msg += std::string(msg.empty() || msg.back() == '\n' ? "" : "\n") + "error: " + esc->why + "\n";
        std::free(res->log);
        res->log = dup(msg);
        res->bin = nullptr; /* whatever the compile had built is abandoned */
        res->bin_size = 0;
        res->lowered = nullptr;
        res->deps = nullptr;
        return ACL_ERROR_RTC_COMPILATION;
    }
    t_escape = esc;
    t_cancel = req->cancel;
    ascendrtc_fault_recovery(&esc->jb);
    crash_where_arm();
    int rc = compile_impl(req, res, *log, esc);
    ascendrtc_fault_recovery(nullptr);
    ascendrtc_fault_recovery_note(nullptr);
    t_escape = outer;
    t_cancel = outer_cancel;
    delete esc;
    delete log;
    return rc;
}

extern "C" void rtc_result_free(rtc_result *res, int nentries)
{
    std::free(res->log);
    std::free(res->bin);
    if (res->lowered)
        for (int i = 0; i < nentries; i++)
            std::free(res->lowered[i]);
    std::free(res->lowered);
    std::free(res->deps);
    std::memset(res, 0, sizeof *res);
}

extern "C" const char *rtc_target_cpu(void)
{
    ensure_init();
    return target_cpu().c_str();
}

extern "C" const char *rtc_compiler_version(void)
{
    ensure_init();
    return compiler_version().c_str();
}
