// deps.h - the real files a compile reads, with the sha256 of the bytes it
// read, and the paths it looked for and did not find.
#ifndef ARC_RTC_DEPS_H_
#define ARC_RTC_DEPS_H_

#include <map>
#include <memory>
#include <set>
#include <string>

#include <clang/Basic/SourceManager.h>
#include <clang/Lex/PPCallbacks.h>
#include <llvm/Support/VirtualFileSystem.h>

namespace arc_rtc {

// path -> hex sha256 of the bytes compiled ("unreadable", "absent").
using DepMap = std::map<std::string, std::string>;

// The real file system, adding every path a lookup did not find to absent.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_probe_fs(std::set<std::string> &absent);
// Records every real file an #include, #embed or __has_include/__has_embed reached.
std::unique_ptr<clang::PPCallbacks> make_dep_recorder(clang::SourceManager &sm, DepMap &deps);
// "sha256<TAB>path\n" lines of deps and the absent paths (malloc'd; NULL when out of memory).
char *format_deps(DepMap &deps, const std::set<std::string> &absent);

} // namespace arc_rtc

#endif
