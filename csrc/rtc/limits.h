// limits.h - what stops a compile that cannot go on (see compile.cpp's
// file comment): LLVM's fatal errors, allocation failures, the time limit,
// the source-location budget and a cancel all leave through the running
// compile's Escape.
#ifndef ARC_RTC_LIMITS_H_
#define ARC_RTC_LIMITS_H_

#include <csetjmp>
#include <memory>

#include <clang/AST/ASTConsumer.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>

namespace arc_rtc {

// Where a compile that cannot go on leaves to.
struct Escape {
    sigjmp_buf jb;
    char why[1024];
};
extern thread_local Escape *t_escape;
extern thread_local const int *t_cancel; // the compile's cancel flag (rtc_request::cancel)

// LLVM's fatal-error and bad-alloc handlers: inside a compile they leave it.
void install_error_handlers();
// ASCENDRTC_COMPILE_TIMEOUT in seconds (600 unset, 0 = no limit).
double compile_timeout_s();
// Leaves the compile when it was cancelled (Ctrl-C).
void check_cancel();
// Checks the cancel flag between top-level declarations.
std::unique_ptr<clang::ASTConsumer> make_cancel_check();
// Checks time, cancel and source-location budget as the preprocessor works.
std::unique_ptr<clang::PPCallbacks> make_limits(clang::SourceManager &sm, double timeout_s);

} // namespace arc_rtc

#endif
