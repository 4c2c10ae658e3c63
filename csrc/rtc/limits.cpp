// limits.cpp - what stops a compile that cannot go on: an LLVM fatal error,
// an allocation failure inside LLVM, the time limit, the source-location
// budget of macro expansion and a cancel (Ctrl-C) all siglongjmp to the
// running compile's Escape (rtc_compile, compile.cpp).
#include "limits.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include <clang/AST/DeclGroup.h>
#include <clang/Lex/Token.h>
#include <llvm/Support/ErrorHandling.h>

namespace arc_rtc {

thread_local Escape *t_escape;
thread_local const int *t_cancel;

namespace {

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

} // namespace

void install_error_handlers()
{
    llvm::install_fatal_error_handler(on_fatal);
    llvm::install_bad_alloc_error_handler(on_bad_alloc);
}

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

std::unique_ptr<clang::ASTConsumer> make_cancel_check() { return std::make_unique<CancelCheck>(); }

std::unique_ptr<clang::PPCallbacks> make_limits(clang::SourceManager &sm, double timeout_s)
{
    return std::make_unique<Limits>(sm, timeout_s);
}

} // namespace arc_rtc
