// pch.h - the device API precompiled once per compile configuration and
// kept in memory, so each kernel compile parses only the user's own code.
// Internal to the clang bridge (C++).
#ifndef ARC_RTC_PCH_H_
#define ARC_RTC_PCH_H_

#include <llvm/ADT/SmallVector.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace clang {
class CompilerInvocation;
}

#include <memory>
#include <string>
#include <vector>

namespace arc_rtc {

using PchBytes = std::shared_ptr<const llvm::SmallVector<char, 0>>;

// The in-memory prefixes a PCH is built from (config.cpp puts them in the
// device file system): the device API (kernel_operator.h + entry.h) for
// programs that include it, the SIMT API (simt_api/asc_simt.h + entry.h)
// for SIMT programs that do not.
enum class PchKind { None, DeviceApi, Simt };
struct PchPrefix {
    const char *path, *text;
};
extern const PchPrefix kPchPrefixes[2]; // DeviceApi, Simt

// The PCH of prefix `kind` for a compile with these cc1 arguments (without
// -main-file-name and the input), built on first use with the file system `fs` (or read
// from the store the compile cache lends, ascendrtc_rtc_set_pch_store).  Returns
// null, with the reason in *why, when it cannot be built; the caller then
// compiles without it.  Thread-safe; one build per configuration.
PchBytes pch_get(PchKind kind, const std::vector<std::string> &args,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::string *why);

// Precompiles the invocation's input (a header) into memory with the file
// system `fs`; `deps` (where given) receives the files it read.  Null,
// with the reason in *why, when it does not precompile.
PchBytes pch_build(std::shared_ptr<clang::CompilerInvocation> inv, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                   std::string *why, std::vector<std::string> *deps = nullptr);

// The store the compile cache lends (ascendrtc_rtc_set_pch_store), for
// other compiled artifacts kept between processes (op host code:
// host_cache.cpp): the bytes kept under `key` into *out (false: none, or
// no store), and keeping them.  `key` names the artifact's kind on its
// first line (the cache labels entries by it).
bool store_load(const std::string &key, std::string *out);
void store_save(const std::string &key, const std::string &data);

} // namespace arc_rtc

#endif
