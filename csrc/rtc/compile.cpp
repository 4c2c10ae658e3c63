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
#include "resource_dir.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/Version.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PPCallbacks.h>
#include <clang/Lex/Preprocessor.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Support/ErrorHandling.h>
#include <llvm/ADT/SCCIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DebugInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassTimingInfo.h>
#include <llvm/Pass.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/Transforms/Utils/ModuleUtils.h>

#include <atomic>
#include <set>
#include <chrono>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl_rt_compile.h"
#include "common/checksum.h"
#include "common/meta.h"
#include "device/arc/core_abi.h"
#include "device_headers.h"
#include "infer_types.h"
#include "kernel_uses.h"
#include "pch.h"
#include "lenient.h"
#include "host_code.h"
#include "host_split.h"
#include "launch_lower.h"
#include "raw_access.h"
#include "sites.h"
#include "simt_pass.h"
#include "compile_result.h"
#include "emit.h"
#include "metadata.h"
#include "unknown_names.h"

// libascendcl (fault.c): while jb is set, a fault on this thread
// siglongjmps to it with the signal number instead of ending the process.
extern "C" void ascendrtc_fault_recovery(sigjmp_buf *jb);

namespace {

using arc_rtc::dup;
using arc_rtc::fail;

// Where a compile that cannot go on leaves to (see the file comment).
struct Escape {
    sigjmp_buf jb;
    char why[1024];
};
thread_local Escape *t_escape;
thread_local const int *t_cancel; // the compile's cancel flag (rtc_request::cancel)

[[noreturn]] void escape_now(const char *fmt, const char *arg)
{
    Escape *e = t_escape;
    std::snprintf(e->why, sizeof e->why, fmt, arg);
    siglongjmp(e->jb, 1);
}

// LLVM's fatal errors: inside a compile, leave it; elsewhere return, and
// LLVM ends the process as it always did.
void on_fatal(void *, const char *reason, bool)
{
    if (t_escape)
        escape_now("LLVM fatal error: %s", reason);
}

void on_bad_alloc(void *, const char *reason, bool)
{
    if (t_escape)
        escape_now("the compiler ran out of memory: %s", reason);
}

// Bytes of source-location space a translation unit may use: a macro
// expansion "bomb" grows it (and the compiler's memory) without end.
constexpr unsigned kMaxSlocBytes = 128u << 20;

double compile_timeout_s()
{
    const char *e = std::getenv("ASCENDRTC_COMPILE_TIMEOUT");
    if (!e || !*e)
        return 600;
    char *end;
    double v = std::strtod(e, &end);
    if (end == e || *end || !(v >= 0)) {
        std::fprintf(stderr, "ascendrtc: warning: ASCENDRTC_COMPILE_TIMEOUT=%s is not a number of seconds "
                             "(>= 0; 0 = no limit); using the default, 600\n", e);
        return 600;
    }
    return v;
}

// Ctrl-C (ascendrtc_compile_cancel): checked as the preprocessor, the
// parser and the optimiser work, so a cancel stops a compile within moments.
void check_cancel()
{
    if (t_escape && t_cancel && __atomic_load_n(t_cancel, __ATOMIC_RELAXED))
        escape_now("the compile was cancelled (KeyboardInterrupt)%s", "");
}

// Between top-level declarations.
class CancelCheck : public clang::ASTConsumer {
public:
    bool HandleTopLevelDecl(clang::DeclGroupRef) override
    {
        check_cancel();
        return true;
    }
    void HandleTranslationUnit(clang::ASTContext &) override { check_cancel(); }
};

// Checked as the preprocessor works (every macro expansion is where a
// runaway compile spends its time): the time limit, the cancel flag and
// the source-location budget.
class Limits : public clang::PPCallbacks {
public:
    Limits(clang::SourceManager &sm, double timeout_s)
        : sm_(sm),
          deadline_(timeout_s > 0 ? std::chrono::steady_clock::now() +
                                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                            std::chrono::duration<double>(timeout_s))
                                  : std::chrono::steady_clock::time_point::max()),
          timeout_s_(timeout_s)
    {
    }
    void MacroExpands(const clang::Token &, const clang::MacroDefinition &, clang::SourceRange,
                      const clang::MacroArgs *) override
    {
        if ((++n_ & 255) == 0)
            check();
    }
    void FileChanged(clang::SourceLocation, FileChangeReason, clang::SrcMgr::CharacteristicKind,
                     clang::FileID) override
    {
        check();
    }
    void check()
    {
        check_cancel();
        if (sm_.getNextLocalOffset() > kMaxSlocBytes)
            escape_now("the translation unit is too large after macro expansion (more than 128 MiB of expanded "
                       "source: a runaway or recursive macro expansion?)%s", "");
        if (std::chrono::steady_clock::now() > deadline_) {
            char t[64];
            std::snprintf(t, sizeof t, "%g", timeout_s_);
            escape_now("the compile took longer than ASCENDRTC_COMPILE_TIMEOUT (%s s)", t);
        }
    }

private:
    clang::SourceManager &sm_;
    unsigned n_ = 0;
    std::chrono::steady_clock::time_point deadline_;
    double timeout_s_;
};

// ASCENDRTC_RTC_TIMING=passes: the phase times plus LLVM's time per pass
// (optimiser and code generator) in the log.  For measuring only: the code
// generator's pass timers are process-wide, so concurrent compiles mix.
bool time_passes()
{
    const char *e = std::getenv("ASCENDRTC_RTC_TIMING");
    return e && std::strcmp(e, "passes") == 0;
}

// ASCENDRTC_RTC_TIMING=1 appends where the compile spent its time to the log:
// per phase the wall time and, in brackets, this thread's CPU time (the
// figure that holds when other processes load the machine).
struct PhaseTimer {
    bool on;
    std::string report, passes;
    std::chrono::steady_clock::time_point t = std::chrono::steady_clock::now();
    double cpu = cpu_ms();
    bool optimising = false; // the optimiser's first pass has run
    PhaseTimer() : on(std::getenv("ASCENDRTC_RTC_TIMING") != nullptr) {}
    static double cpu_ms()
    {
        timespec ts;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
    }
    void lap(const char *what)
    {
        if (!on)
            return;
        auto now = std::chrono::steady_clock::now();
        double c = cpu_ms();
        char buf[128];
        std::snprintf(buf, sizeof buf, "%s %s %.1f ms (cpu %.1f)", report.empty() ? "timing:" : ",", what,
                      std::chrono::duration<double, std::milli>(now - t).count(), c - cpu);
        report += buf;
        t = now;
        cpu = c;
    }
    // The optimised module's size, what the code generator gets.
    void count_ir(const llvm::Module &m)
    {
        size_t n = 0, fns = 0;
        for (const llvm::Function &f : m)
            if (!f.isDeclaration()) {
                fns++;
                n += f.getInstructionCount();
            }
        report += std::string(report.empty() ? "timing:" : ",") + " ir " + std::to_string(n) + " instructions in " +
                  std::to_string(fns) + " functions";
    }
};
// The running compile's timer, for the laps taken inside clang's action.
thread_local PhaseTimer *t_timer;

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
        ci.getPreprocessor().addPPCallbacks(std::make_unique<Limits>(ci.getSourceManager(), timeout_s_));
        if (time_passes())
            pass_times_ = std::make_unique<llvm::TimePassesHandler>(true);
        ci.getCodeGenOpts().PassBuilderCallbacks.push_back([this](llvm::PassBuilder &pb) {
            pb.registerPipelineStartEPCallback([](llvm::ModulePassManager &mpm, llvm::OptimizationLevel) {
                mpm.addPass(arc_rtc::KernelUsesPass());
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

// The real files a compile reads, with the sha256 of the bytes it read:
// every file entered or skipped by #include (however the directive was
// spelled: macros, comments, %:, continuations, ../), every #embed and
// every file a __has_include/__has_embed found.  Caches record this list
// with the binary and re-check it on each hit (ascendrtc/_cache_key.py).
// Files under the virtual roots (/arc/...: device headers, in-memory
// headers, the source) are not on disk and are keyed by other means.
// Paths the compile looked for on disk and did not find (a false
// __has_include, the -I directories an #include searched before the one
// that held the file) are listed as "absent": creating one would change
// what the compile reads, so a cache hit needs them still absent.
using DepMap = std::map<std::string, std::string>;
const char *const kAbsent = "absent";

// The real file system, noting every path a lookup did not find.
class ProbeFS : public llvm::vfs::ProxyFileSystem {
public:
    ProbeFS(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::set<std::string> &absent)
        : ProxyFileSystem(std::move(fs)), absent_(absent) {}
    llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override
    {
        auto r = ProxyFileSystem::status(path);
        if (!r)
            note(path, r.getError());
        return r;
    }
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override
    {
        auto r = ProxyFileSystem::openFileForRead(path);
        if (!r)
            note(path, r.getError());
        return r;
    }

private:
    void note(const llvm::Twine &path, std::error_code ec)
    {
        if (ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
            return;
        llvm::SmallString<256> p;
        path.toVector(p);
        if (p.starts_with("/arc/"))
            return; // the virtual roots: not on disk
        llvm::sys::fs::make_absolute(p);
        absent_.insert(std::string(p.str()));
    }

    std::set<std::string> &absent_;
};

class DepRecorder : public clang::PPCallbacks {
public:
    DepRecorder(clang::SourceManager &sm, DepMap &deps) : sm_(sm), deps_(deps) {}
    void InclusionDirective(clang::SourceLocation, const clang::Token &, llvm::StringRef, bool,
                            clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef,
                            llvm::StringRef, const clang::Module *, bool, clang::SrcMgr::CharacteristicKind) override
    {
        add(file);
    }
    void FileSkipped(const clang::FileEntryRef &file, const clang::Token &, clang::SrcMgr::CharacteristicKind) override
    {
        add(file);
    }
    void EmbedDirective(clang::SourceLocation, llvm::StringRef, bool, clang::OptionalFileEntryRef file,
                        const clang::LexEmbedParametersResult &) override
    {
        add(file);
    }
    void HasEmbed(clang::SourceLocation, llvm::StringRef, bool, clang::OptionalFileEntryRef file) override
    {
        add(file);
    }
    void HasInclude(clang::SourceLocation, llvm::StringRef, bool, clang::OptionalFileEntryRef file,
                    clang::SrcMgr::CharacteristicKind) override
    {
        add(file);
    }

private:
    void add(clang::OptionalFileEntryRef file)
    {
        if (!file)
            return;
        llvm::SmallString<256> path(file->getName());
        if (path.starts_with("/arc/"))
            return;
        llvm::sys::fs::make_absolute(path);
        std::string key(path.str());
        if (deps_.count(key))
            return;
        // The bytes the source manager holds are the bytes compiled.
        std::optional<llvm::MemoryBufferRef> buf = sm_.getMemoryBufferForFileOrNone(*file);
        if (!buf) {
            deps_[key] = "unreadable";
            return;
        }
        llvm::StringRef d = buf->getBuffer();
        auto h = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(d.data()), d.size()));
        deps_[key] = llvm::toHex(h, true);
    }

    clang::SourceManager &sm_;
    DepMap &deps_;
};

const char *kDeviceRoot = "/arc/include";
const char *kUserRoot = "/arc/user";
const char *kSrcRoot = "/arc/src";

std::once_flag g_once;
std::string g_cpu;
std::string g_version;
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> g_device_fs;
const char *kAclRoot = "/arc/acl/include";
const char *kHostApiRoot = "/arc/host/include";
// For kernel files with host code (host_code.h): the device headers less
// the minimal C++ library stand-ins (the system's libstdc++ serves those,
// as host code needs all of it), plus ascendrtc's ACL headers and the host
// tiling API (tiling/tiling_api.h, platform_ascendc...), which the host
// part of such a file calls as CANN's host pass sees it.
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> g_host_code_fs;

// A device header that stands in for a C++ library header (<cstdint>,
// <type_traits>, <cmath>...: top-level and without an extension).  The
// kernel assert (assert.h, cassert) stays in host-code mode.
bool std_stand_in(const char *path)
{
    return !std::strchr(path, '/') && !std::strchr(path, '.') && std::strcmp(path, "cassert") != 0;
}

// LLVM targets once per process; the device headers are mounted once into an
// in-memory file system that later compiles only read.
void init_once()
{
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    // A microarchitecture level rather than the host's own CPU name: codegen
    // for AVX-512 parts costs ~50 ms more per compile, kernels gain little
    // from 512-bit vectors, and binaries move between machines of a level.
    llvm::StringMap<bool> f = llvm::sys::getHostCPUFeatures();
    bool v3 = f.lookup("avx2") && f.lookup("fma") && f.lookup("bmi2") && f.lookup("f16c") && f.lookup("movbe");
    g_cpu = v3 ? "x86-64-v3" : "x86-64-v2";
    g_version = "clang " CLANG_VERSION_STRING;
    g_device_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const arc_vfile *f = arc_device_headers; f->path; f++) {
        std::string path = std::string(kDeviceRoot) + "/" + f->path;
        g_device_fs->addFile(path, 0,
                             llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    g_device_fs->addFile(arc_rtc::kPchPrefixPath, 0, llvm::MemoryBuffer::getMemBuffer(arc_rtc::kPchPrefixText));
    g_host_code_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const arc_vfile *f = arc_device_headers; f->path; f++)
        if (!std_stand_in(f->path)) {
            std::string path = std::string(kDeviceRoot) + "/" + f->path;
            g_host_code_fs->addFile(path, 0,
                                    llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
        }
    for (const arc_vfile *f = arc_acl_headers; f->path; f++) {
        std::string path = std::string(kAclRoot) + "/" + f->path;
        g_host_code_fs->addFile(path, 0,
                                llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    for (const arc_vfile *f = arc_host_headers; f->path; f++) {
        std::string path = std::string(kHostApiRoot) + "/" + f->path;
        g_host_code_fs->addFile(path, 0,
                                llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    llvm::install_fatal_error_handler(on_fatal);
    llvm::install_bad_alloc_error_handler(on_bad_alloc);
}


// The compile configuration: everything but the input.  It is also the key
// of the precompiled device headers.  `sys` (host-code mode): the system
// include arguments, and the ACL headers after the device API's.
std::vector<std::string> cc1_config(const rtc_request *req, const std::vector<std::string> *sys = nullptr)
{
    const rtc_opts *o = req->opts;
    std::vector<std::string> a = {
        "-triple", llvm::sys::getProcessTriple(),
        "-mrelocation-model", "pic", "-pic-level", "2", "-target-cpu", g_cpu,
        "-O" + std::to_string(o->opt_level), std::string("-std=") + o->std,
        "-fno-rtti", "-fno-threadsafe-statics", "-ffp-contract=off", "-fgnuc-version=4.2.1",
        "-fmessage-length=0", "-ferror-limit", "20", "-fno-use-cxa-atexit",
        /* as clang's driver passes them to a release cc1: no IR value names,
         * no verifier run inside the optimiser (~4% of its time) */
        "-discard-value-names", "-disable-llvm-verifier",
        "-nostdsysteminc", "-nobuiltininc", "-nostdinc++",
        "-resource-dir", arc_resource_dir()};
    if (sys) {
        a.insert(a.end(), sys->begin(), sys->end());
    } else {
        a.push_back("-internal-isystem");
        a.push_back(std::string(arc_resource_dir()) + "/include");
    }
    a.push_back("-I");
    a.push_back(kUserRoot);
    for (int i = 0; i < o->nincludes; i++) {
        a.push_back("-I");
        a.push_back(o->includes[i]);
    }
    if (sys) {  /* the host tiling API's headers before the kernel side's of the same names */
        a.push_back("-I");
        a.push_back(kHostApiRoot);
    }
    a.push_back("-I");
    a.push_back(kDeviceRoot);
    if (sys) {
        a.push_back("-I");
        a.push_back(kAclRoot);
        a.push_back("-D__ASCENDRTC_HOST_CODE__=1");
        if (o->host_object)
            a.push_back("-D__ASCENDRTC_HOST_OBJECT__=1");
    }
    a.push_back("-D__NPU_ARCH__=" + std::to_string(o->arch_num));
    a.push_back("-D__ASCENDRTC__=1");
    if (o->arch_num == 2201)
        a.push_back("-D__CCE_AICORE__=220");
    /* dav-3510 (SIMT): a float -> integer conversion saturates and takes NaN
     * to 0 (API SIMT-API/数学函数/数据类型转换/概述), which is LLVM's fpto[su]i.sat */
    if (o->arch_num == 3510)
        a.push_back("-fno-strict-float-cast-overflow");
    if (o->sanitizer)
        a.push_back("-DASCENDRTC_SANITIZER=1");
    if (o->simt) /* __ubuf__ in casts is an annotation clang ignores there */
        a.insert(a.end(), {"-D__ASCENDRTC_SIMT__=1", "-Wno-ignored-attributes"});
    for (int i = 0; i < o->nmacros; i++)
        a.push_back(o->macros[i]);
    for (int i = 0; i < o->nwarnings; i++)
        a.push_back(o->warnings[i]);
    if (o->opt_level > 0) {
        a.push_back("-vectorize-loops");
        a.push_back("-vectorize-slp");
    }
    if (o->debug) {
        a.push_back("-debug-info-kind=constructor");
        a.push_back("-dwarf-version=5");
        a.push_back("-mframe-pointer=all");
    } else {
        /* line tables name the kernel source line of runtime errors
         * (sites.cpp); they are dropped before codegen */
        a.push_back("-debug-info-kind=line-tables-only");
        a.push_back("-dwarf-version=5");
    }
    return a;
}

// Whether the precompiled device API may stand in for the user's
// #include "kernel_operator.h": only when nothing the user supplies could
// shadow the device headers.
bool pch_applies(const rtc_request *req)
{
    const char *off = std::getenv("ASCENDRTC_NO_PCH");
    if (off && *off && std::strcmp(off, "0") != 0)
        return false;
    if (!llvm::StringRef(req->text, req->len).contains("kernel_operator.h"))
        return false;
    for (int i = 0; i < req->nheaders; i++) {
        llvm::StringRef n(req->header_names[i]);
        if (n == "kernel_operator.h" || n.starts_with("arc/"))
            return false;
    }
    for (int i = 0; i < req->opts->nincludes; i++) {
        std::string d = req->opts->includes[i];
        if (llvm::sys::fs::exists(d + "/kernel_operator.h") || llvm::sys::fs::exists(d + "/arc"))
            return false;
    }
    return true;
}



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
        ci.getPreprocessor().addPPCallbacks(std::make_unique<DepRecorder>(ci.getSourceManager(), deps_));
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
        cs.push_back(std::make_unique<CancelCheck>());
        return std::make_unique<clang::MultiplexConsumer>(std::move(cs));
    }

private:
    arc_rtc::InferredTypes &types_;
    DepMap &deps_;
};

// "sha256<TAB>path\n" lines; a path with a newline cannot be listed, so
// the list then says "!" (no cache may keep the result).
char *format_deps(const DepMap &deps)
{
    std::string out;
    for (auto &d : deps) {
        if (d.first.find('\n') != std::string::npos)
            return dup("!\tan included file's path holds a newline\n");
        out += d.second + "\t" + d.first + "\n";
    }
    return dup(out);
}



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
    if (host_obj) { /* ascendrtc cc: launches lowered to ACL calls (launch_lower.h) */
        if (arc_rtc::lower_host_launches(req->file_name, main_text, &log) < 0)
            return fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
        main_text = "#include \"arc/launch.h\"\n" + main_text;
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(main_text, main_path));
    } else if (main_text.find("<<<") != std::string::npos &&
               arc_rtc::blank_host_launches(req->file_name, main_text, &log))
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(main_text, main_path));
    else
        user_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(req->text, req->len),
                                                                       main_path, true));
    for (int i = 0; i < req->nheaders; i++) {
        std::string p = std::string(kUserRoot) + "/" + req->header_names[i];
        user_fs->addFile(p, 0, llvm::MemoryBuffer::getMemBuffer(req->header_texts[i], p, true));
    }
    // Host code (host_code.h): one translation unit with the system headers,
    // as CANN's single-source flow compiles it; the host part is dropped
    // after the frontend.  Without system headers the device-only compile
    // names the host headers it cannot find.
    bool host = host_obj || arc_rtc::has_host_code(req->text, req->len);
    for (int i = 0; !host && i < req->nheaders; i++)
        host = arc_rtc::has_host_code(req->header_texts[i], std::strlen(req->header_texts[i]));
    const std::vector<std::string> *sys = nullptr;
    if (host) {
        sys = &arc_rtc::system_include_args(nullptr);
        if (sys->empty())
            host = false, sys = nullptr;
    }
    std::set<std::string> absent;
    auto probe = llvm::makeIntrusiveRefCnt<ProbeFS>(llvm::vfs::getRealFileSystem(), absent);
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(probe);
    overlay->pushOverlay(host ? g_host_code_fs : g_device_fs);
    overlay->pushOverlay(user_fs);

    std::vector<std::string> args = cc1_config(req, sys);
    if (!arc_rtc::lenient_assert(req->file_name, req->text, req->len, args, &log))
        for (int i = 0; i < req->nheaders; i++)
            if (arc_rtc::lenient_assert(req->header_names[i], req->header_texts[i],
                                        std::strlen(req->header_texts[i]), args, &log))
                break;
    arc_rtc::PchBytes pch;
    if (!host && pch_applies(req)) {
        auto pch_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
        pch_fs->pushOverlay(g_device_fs);
        std::string why;
        t_escape = nullptr; /* the shared PCH build must finish (others wait for it) */
        pch = arc_rtc::pch_get(args, pch_fs, &why);
        t_escape = esc;
        timer.lap("pch");
        if (pch) {
            const char *pch_path = "/arc/pch/device_api.pch";
            user_fs->addFile(pch_path, 0,
                             llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(pch->data(), pch->size()), pch_path,
                                                              false));
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
    if (!clang::CompilerInvocation::CreateFromArgs(*inv, argv, arg_diags))
        return fail(res, log, ACL_ERROR_RTC_INVALID_OPTION, "invalid compiler options");
    inv->getFrontendOpts().DisableFree = false;
    inv->getCodeGenOpts().DisableFree = false;
    ci.setInvocation(inv);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(los, &ci.getDiagnosticOpts()), true);
    ci.setVerboseOutputStream(los);
    ci.createFileManager(overlay);

    const char *strip[] = {kSrcRoot, kUserRoot};
    arc_rtc::SimtResult simt;
    if (req->opts->simt)
        inv->getCodeGenOpts().PassBuilderCallbacks.push_back(
            [&](llvm::PassBuilder &pb) { arc_rtc::simt_register(pb, &simt, kDeviceRoot, strip, 2); });
    llvm::LLVMContext ctx;
    arc_rtc::InferredTypes inferred;
    DepMap deps;
    CompileAction action(&ctx, compile_timeout_s(), inferred, deps);
    bool ok = ci.ExecuteAction(action);
    timer.lap("optimise");
    if (timer.on) {
        llvm::raw_string_ostream pos(timer.passes);
        action.report_pass_times(pos);
    }
    std::unique_ptr<llvm::Module> mod = ok ? action.takeModule() : nullptr;
    if (!ok || !mod || ci.getDiagnostics().hasErrorOccurred()) {
        log = arc_rtc::explain_unknown_names(log, host);
        return fail(res, log, ACL_ERROR_RTC_COMPILATION, "");
    }
    if (llvm::Function *f = mod->getFunction("__arc_uses"); f && !f->use_empty()) { // no optimiser ran
        llvm::ModuleAnalysisManager mam;
        arc_rtc::KernelUsesPass().run(*mod, mam);
    }
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
    arc_rtc::mark_sites(*mod, kDeviceRoot, strip, 2);
    arc_rtc::instrument_raw_accesses(*mod, kDeviceRoot, strip, 2);
    if (!req->opts->debug)
        llvm::StripDebugInfo(*mod);
    int rc = arc_rtc::add_metadata(*mod, req, inferred, simt, g_cpu, res, log);
    if (rc != ACL_SUCCESS)
        return rc;
    if (timer.on)
        timer.count_ir(*mod);
    rc = arc_rtc::emit_object(*mod, req->opts->opt_level, g_cpu, time_passes(), res, log);
    if (rc != ACL_SUCCESS)
        return rc;
    timer.lap("codegen");
    if (host_obj) { /* the result is the host object, the device binary inside it */
        arc_rtc::embed_device_binary(*host_mod, res->bin, res->bin_size);
        if (!req->opts->debug)
            llvm::StripDebugInfo(*host_mod);
        rc = arc_rtc::emit_object(*host_mod, req->opts->opt_level, g_cpu, false, res, log, false);
        if (rc != ACL_SUCCESS)
            return rc;
        timer.lap("host codegen");
    }
    for (const std::string &a : absent)
        deps.emplace(a, kAbsent); // a file found later keeps its hash
    if (!(res->deps = format_deps(deps)))
        return fail(res, log, ACL_ERROR_RTC_OUT_OF_MEMORY, "out of memory");
    if (timer.on)
        log += timer.report + "\n" + timer.passes;
    res->log = dup(log);
    return res->log ? ACL_SUCCESS : ACL_ERROR_RTC_OUT_OF_MEMORY;
}

extern "C" int rtc_compile(const rtc_request *req, rtc_result *res)
{
    std::call_once(g_once, init_once);
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
        std::string msg = *log;
        if (sig > 1)
            std::snprintf(esc->why, sizeof esc->why, "the compiler crashed (%s) compiling this source; this is a bug "
                          "in clang or in ascendrtc", strsignal(sig));
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
    int rc = compile_impl(req, res, *log, esc);
    ascendrtc_fault_recovery(nullptr);
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
    std::call_once(g_once, init_once);
    return g_cpu.c_str();
}

extern "C" const char *rtc_compiler_version(void)
{
    std::call_once(g_once, init_once);
    return g_version.c_str();
}
