// rdc.h - relocatable device code (-dc, `ascendrtc cc`): a file's
// __aicore__ functions with external linkage stay in its device binary for
// the kernels of other files, which the runtime links against them at load
// (rt/acl/rdc.c).  config.cpp marks such functions with an annotation in
// -dc compiles only.  Internal to the clang bridge (C++).
#ifndef ARC_RTC_RDC_H_
#define ARC_RTC_RDC_H_

#include <string>
#include <vector>

namespace llvm {
class Function;
class Module;
}

namespace arc_rtc {

// The -dc device functions of m: __aicore__ definitions other files can
// call (external, not discardable), kernels (llvm.used) left out.  Empty
// unless m was compiled with -dc.
std::vector<llvm::Function *> rdc_functions(llvm::Module &m);

// With --enable-simt: false, with "file:line: error: ..." lines in *log,
// when a -dc device function reaches a SIMT builtin (thread indices,
// barriers, warp functions, shared UB).  The simulated NPU runs a block's
// threads as loops inside its kernel, so such a function must be compiled
// with the kernel that calls it.
bool rdc_check_simt(llvm::Module &m, const char *file, std::string *log);

} // namespace arc_rtc

#endif
