// driver.h - clang's driver, turning a command line into a cc1 invocation.
#ifndef ARC_RTC_DRIVER_H_
#define ARC_RTC_DRIVER_H_

#include <memory>

#include <llvm/ADT/ArrayRef.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>

namespace clang {
class CompilerInvocation;
}

namespace arc_rtc {
// The invocation clang's driver makes of argv (argv[0] the clang binary)
// over the file system fs, the driver's own search for the system's headers
// included; its diagnostics go to log.  nullptr when it rejects argv.
std::shared_ptr<clang::CompilerInvocation> driver_invocation(llvm::ArrayRef<const char *> argv,
                                                             llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                                                             llvm::raw_ostream &log);
} // namespace arc_rtc

#endif
