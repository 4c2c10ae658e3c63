// host_pch.h - the headers most op host files include (libstdc++'s and the
// host API's registration, tiling and platform headers), precompiled once
// per host compile configuration and included before each op host file
// and library unit (-include-pch), so each compile parses only its own
// code.  Kept between processes in the store the compile cache lends (pch.h).
#ifndef ARC_RTC_HOST_PCH_H_
#define ARC_RTC_HOST_PCH_H_

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pch.h"

namespace arc_host_jit {

// The prefix the PCH is built from, served under kHostRoot.
extern const char *const kHostPchPrefix;      // its path relative to kHostRoot
extern const char *const kHostPchPrefixText;

struct HostPch {
    arc_rtc::PchBytes bytes;
    std::set<std::string> headers;  // the host API headers it holds, relative to kHostRoot
};

// The PCH for host compiles with these driver arguments (the compile's,
// without its input and without the op's own -I directories, which the
// prefix does not read); built on first use with the file system `fs`, or
// read from the store.  Null when it does not build (the compile then goes
// without).  `fresh`: the one kept is stale (a system header changed
// since): build it again.  Thread-safe.
std::shared_ptr<const HostPch> host_pch(const std::vector<std::string> &args,
                                        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, bool fresh = false);

// Whether a project file would shadow a header the PCH holds (a project
// directory is searched before the host API): such a project compiles
// without it.
bool pch_shadowed(const HostPch &pch, int nfiles, const char **paths);

} // namespace arc_host_jit

#endif
