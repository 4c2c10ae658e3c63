// driver.cpp - see driver.h.  Used by the host-code compiles (op host code,
// single-source programs' system include probe); kernels get their cc1
// arguments from config.cpp directly.
#include "driver.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#pragma GCC diagnostic pop

namespace arc_rtc {
std::shared_ptr<clang::CompilerInvocation> driver_invocation(llvm::ArrayRef<const char *> argv,
                                                             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                                                             llvm::raw_ostream &log)
{
    auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    clang::CreateInvocationOptions cio;
    cio.Diags = clang::CompilerInstance::createDiagnostics(diag_opts.get(),
                                                           new clang::TextDiagnosticPrinter(log, diag_opts.get()));
    cio.VFS = fs;
    cio.ProbePrecompiled = false;
    return clang::createInvocation(argv, cio);
}
} // namespace arc_rtc
