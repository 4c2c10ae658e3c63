// config.h - a compile's configuration: the virtual roots, the headers
// mounted there once per process, and cc1's arguments.
#ifndef ARC_RTC_CONFIG_H_
#define ARC_RTC_CONFIG_H_

#include <string>
#include <vector>

#include <llvm/Support/VirtualFileSystem.h>

#include "compile.h"

#include "pch.h"

namespace arc_rtc {

// Where the device headers, in-memory headers and the source are mounted.
extern const char *const kDeviceRoot, *const kUserRoot, *const kSrcRoot;

// LLVM's targets, the mounted headers, the error handlers: once per process.
void ensure_init();
// The CPU kernels are built for, and "clang <version>" (after ensure_init).
const std::string &target_cpu();
const std::string &compiler_version();
// The device headers; for kernel files with host code (program_host.h), the
// device headers less the C++ library stand-ins, the ACL headers and the
// host tiling API (after ensure_init).
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> device_fs();
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> host_code_fs();

// The compile configuration: everything but the input.  It is also the key
// of the precompiled device headers.  `sys` (host-code mode): the system
// include arguments, and the ACL headers after the device API's.
std::vector<std::string> cc1_config(const rtc_request *req, const std::vector<std::string> *sys = nullptr);
// Which precompiled prefix may stand in for the user's #include
// "kernel_operator.h" (or a SIMT program's implicit simt_api/asc_simt.h):
// none when a file the user supplies could shadow what it includes.
PchKind pch_applies(const rtc_request *req);

} // namespace arc_rtc

#endif
