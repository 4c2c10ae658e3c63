// program_host.h - CANN's single-source flow for kernel files with host code
// (a main, ACL calls, the C++ library): such a file compiles as one
// translation unit with this machine's system headers and ascendrtc's ACL
// headers; the host functions are type-checked and then dropped from the
// kernel object (the simulated NPU runs kernels only; Python launches them).
// Internal to the clang bridge (C++).
#ifndef ARC_RTC_HOST_CODE_H_
#define ARC_RTC_HOST_CODE_H_

#include <cstddef>
#include <string>
#include <vector>

namespace llvm {
class Module;
class GlobalValue;
}

namespace arc_rtc {

// Whether a kernel source includes a host-side header: ACL's (acl/...),
// a C++ library header the device API does not provide (<iostream>,
// <vector>...), a C/POSIX one (<stdio.h>, <fcntl.h>, <sys/...>...), or
// pybind11/torch.  Such a file compiles in host-code mode.
bool has_host_code(const char *text, size_t len);

// An AI CPU kernel's declaration or definition in the source
// (`__global__ __aicpu__ T name(`): the first one's line and name, line 0
// when none.  The AI CPU is not simulated: such a file is refused naming it.
struct AicpuKernel {
    int line = 0;
    std::string name;
};
AicpuKernel aicpu_kernel(const char *text, size_t len);

// The cc1 arguments that put this machine's system headers (libstdc++,
// libc, clang's own) on the search path in the clang driver's order, found
// once per process.  Empty when the driver finds none (*why says so).
const std::vector<std::string> &system_include_args(std::string *why);

// Drops from a host-code-mode module everything the kernels do not reach:
// host functions (main included), the variables only they use, and static
// constructors (kernel objects never run them).  Roots: the __arc_*
// symbols the runtime and metadata use, llvm.used and, with -dc, the
// device functions other files may call (rdc.h).  Returns how many
// functions it dropped.
int strip_host_code(llvm::Module &m);

// Whether g is a launch site's record, __arc::site<F>::rec (arc/launch.h).
bool is_site_rec(const llvm::GlobalValue &g);

// Drops from m every global value the roots do not reach (through
// function bodies, initializers, aliasees): bodies first, then what
// nothing uses.  Returns how many function bodies it dropped.
int keep_reachable(llvm::Module &m, std::vector<const llvm::GlobalValue *> roots);

} // namespace arc_rtc

#endif
