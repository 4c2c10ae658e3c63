// host_split.h - `ascendrtc cc` (--host-object): one compile of a
// single-source program yields the device binary and a host object.  The
// host object is a copy of the module that keeps what the host part
// reaches (main, its callees, static constructors) and none of the kernel
// side; each launch site's record names its kernel's symbol, and the
// device binary is embedded as private data.  Internal to the clang
// bridge (C++).
#ifndef ARC_RTC_HOST_SPLIT_H_
#define ARC_RTC_HOST_SPLIT_H_

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Function;
class GlobalVariable;
class Module;
}

namespace arc_rtc {

// A launch site's kernel entry in the device module (arc/launch.h): the
// kernel, its descriptor, the entry's symbol and the kernel's name as the
// source spells it (ns::k<2048u>).
struct SiteEntry {
    llvm::Function *kernel;
    llvm::GlobalVariable *desc;
    std::string entry;
    std::string name;
};
std::vector<SiteEntry> site_entries(llvm::Module &m);

// The host part of m (m itself is unchanged), or null with an error in
// *log (prefixed by file): a launched kernel the file does not define.
std::unique_ptr<llvm::Module> split_host(const llvm::Module &m, const char *file, std::string *log);

// Defines the embedded device binary (__arc_embedded_bin, _size) in the
// host module, private to it, and a constructor telling the runtime the
// program's SoC (ascendrtc_program_soc: `soc` or an --npu-arch).  With
// rdc (-dc), the constructor also registers the binary as relocatable
// device code (ascendrtc_rdc_register), which the program's other device
// binaries link against at load.
void embed_device_binary(llvm::Module &host, const unsigned char *bin, size_t size, const char *soc, bool rdc);

} // namespace arc_rtc

#endif
