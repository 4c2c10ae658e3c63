// dialect.h - bisheng's source dialect where it differs from C++, rewritten
// before clang reads a file: the function target attribute
// (`__forceinline__ [host, aicore] T f()`, as CATLASS's CATLASS_HOST_DEVICE
// spells it), and <<<...>>> launches in the headers a kernel file includes
// (blanked as the main text's are, lenient.h).  Applied to every file the
// compile reads from disk (DialectFS) and to the main text.  Internal to the
// clang bridge (C++).
#ifndef ARC_RTC_DIALECT_H_
#define ARC_RTC_DIALECT_H_

#include <llvm/Support/VirtualFileSystem.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace arc_rtc {

// Blanks each `[host]`, `[aicore]`, `[host, aicore]` (either order) that
// follows a function specifier (`__forceinline__`, `inline`, `static`,
// `constexpr`, `__aicore__`, `__global__`) or starts a declaration, with
// spaces of the same length: every function is both host and device code on
// the simulated NPU.  Returns how many it blanked.
int blank_target_attributes(std::string &text);

// The real file system with the dialect rewritten in the files it serves.
// `lower` (a single-source program's host object, ascendrtc cc): the
// launches in headers become ACL launches (launch_lower.h) instead of
// being blanked.
class DialectFS : public llvm::vfs::ProxyFileSystem {
public:
    DialectFS(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, bool lower)
        : ProxyFileSystem(std::move(fs)), lower_(lower) {}
    llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override;
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override;
    // Whether a file it served names g_coreType or a side macro (core_pass.h).
    bool names_core_pass() const { return core_pass_; }

private:
    // The rewritten text of path, or null when it needs none (cached).
    const std::string *rewritten(const std::string &path);

    const bool lower_;
    bool core_pass_ = false;
    std::mutex mu_;
    std::map<std::string, std::unique_ptr<std::string>> cache_;
};

} // namespace arc_rtc

#endif
