// config.cpp - a compile's configuration: the virtual roots (/arc/...), the
// headers mounted there once per process (device API, host-code mode's
// ACL headers and host tiling API), the target CPU, and cc1's arguments.
#include "config.h"

#include <cstdlib>
#include <cstring>
#include <mutex>

#include <clang/Basic/Version.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>

#include "device_headers.h"
#include "limits.h"
#include "pch.h"
#include "resource_dir.h"

namespace arc_rtc {

const char *const kDeviceRoot = "/arc/include";
const char *const kUserRoot = "/arc/user";
const char *const kSrcRoot = "/arc/src";

namespace {

std::once_flag g_once;
std::string g_cpu;
std::string g_version;
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> g_device_fs;
const char *kAclRoot = "/arc/acl/include";
const char *kHostApiRoot = "/arc/host/include";
// For kernel files with host code (program_host.h): the device headers (the
// system's C and C++ libraries serve the standard headers, as host code
// needs all of them), plus ascendrtc's ACL headers and the host tiling API
// (tiling/tiling_api.h, platform_ascendc...), which the host part of such a
// file calls as CANN's host pass sees it.
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> g_host_code_fs;

// LLVM targets once per process; the device headers are mounted once into an
// in-memory file system that later compiles only read.
void init_once()
{
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    // A microarchitecture level rather than the host's own CPU name: codegen
    // for AVX-512 parts costs ~50 ms more per compile, kernels gain little
    // from 512-bit vectors, and binaries move between machines of a level.
    llvm::StringMap<bool> f = llvm::sys::getHostCPUFeatures();
    bool v3 = f.lookup("avx2") && f.lookup("fma") && f.lookup("bmi2") && f.lookup("f16c") && f.lookup("movbe");
    g_cpu = v3 ? "x86-64-v3" : "x86-64-v2";
    g_version = "clang " CLANG_VERSION_STRING;
    g_device_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const arc_vfile *f = arc_device_headers; f->path; f++) {
        std::string path = std::string(kDeviceRoot) + "/" + f->path;
        g_device_fs->addFile(path, 0,
                             llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    g_host_code_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    for (const arc_rtc::PchPrefix &p : arc_rtc::kPchPrefixes) {
        g_device_fs->addFile(p.path, 0, llvm::MemoryBuffer::getMemBuffer(p.text));
        g_host_code_fs->addFile(p.path, 0, llvm::MemoryBuffer::getMemBuffer(p.text));
    }
    for (const arc_vfile *f = arc_device_headers; f->path; f++) {
        std::string path = std::string(kDeviceRoot) + "/" + f->path;
        g_host_code_fs->addFile(path, 0,
                                llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    for (const arc_vfile *f = arc_acl_headers; f->path; f++) {
        std::string path = std::string(kAclRoot) + "/" + f->path;
        g_host_code_fs->addFile(path, 0,
                                llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    for (const arc_vfile *f = arc_host_headers; f->path; f++) {
        std::string path = std::string(kHostApiRoot) + "/" + f->path;
        g_host_code_fs->addFile(path, 0,
                                llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    }
    install_error_handlers();
}


} // namespace

std::vector<std::string> cc1_config(const rtc_request *req, const std::vector<std::string> *sys)
{
    const rtc_opts *o = req->opts;
    std::vector<std::string> a = {
        "-triple", llvm::sys::getProcessTriple(),
        "-mrelocation-model", "pic", "-pic-level", "2", "-target-cpu", g_cpu,
        "-O" + std::to_string(o->opt_level), std::string("-std=") + o->std,
        "-fno-rtti", "-fno-threadsafe-statics", "-ffp-contract=off", "-fgnuc-version=4.2.1",
        "-fmessage-length=0", "-ferror-limit", "20", "-fno-use-cxa-atexit",
        /* as clang's driver passes them to a release cc1: no IR value names,
         * no verifier run inside the optimiser (~4% of its time) */
        "-discard-value-names", "-disable-llvm-verifier",
        "-nostdsysteminc", "-nobuiltininc", "-nostdinc++",
        "-resource-dir", arc_resource_dir()};
    if (sys) {
        a.insert(a.end(), sys->begin(), sys->end());
    } else {
        /* The C++ standard library is libc++, over the device's few C
         * headers (csrc/device/libc/README.md) and clang's; configured for a
         * core with no threads, locale, wide characters, files or clock,
         * and without the transitive includes that would reach for them. */
        const char *cxx = arc_libcxx_dir();
        if (*cxx) {
            a.insert(a.end(), {"-internal-isystem", cxx, "-internal-isystem", std::string(kDeviceRoot) + "/libc",
                               "-D_LIBCPP_HAS_NO_THREADS", "-D_LIBCPP_HAS_NO_LOCALIZATION",
                               "-D_LIBCPP_HAS_NO_WIDE_CHARACTERS", "-D_LIBCPP_HAS_NO_FILESYSTEM",
                               "-D_LIBCPP_HAS_NO_RANDOM_DEVICE", "-D_LIBCPP_HAS_NO_MONOTONIC_CLOCK",
                               "-D_LIBCPP_REMOVE_TRANSITIVE_INCLUDES"});
        }
        a.push_back("-internal-isystem");
        a.push_back(std::string(arc_resource_dir()) + "/include");
    }
    a.push_back("-I");
    a.push_back(kUserRoot);
    for (int i = 0; i < o->nincludes; i++) {
        a.push_back("-I");
        a.push_back(o->includes[i]);
    }
    if (sys) {  /* the host tiling API's headers before the kernel side's of the same names */
        a.push_back("-I");
        a.push_back(kHostApiRoot);
    }
    a.push_back("-I");
    a.push_back(kDeviceRoot);
    if (sys) {
        a.push_back("-I");
        a.push_back(kAclRoot);
        a.push_back("-D__ASCENDRTC_HOST_CODE__=1");
        if (o->host_object)
            a.push_back("-D__ASCENDRTC_HOST_OBJECT__=1");
        /* -dc: a device function other files' kernels call is one the
         * source marks __aicore__ (program_host.h's rdc roots) */
        if (o->rdc)
            a.push_back("-D__aicore__=__attribute__((annotate(\"arc.aicore\")))");
    }
    a.push_back("-D__NPU_ARCH__=" + std::to_string(o->arch_num));
    a.push_back("-D__ASCENDRTC__=1");
    /* bisheng's mark of an Ascend C compile, which CANN's own headers and
     * CATLASS test before including kernel_operator.h */
    a.push_back("-D__CCE__=1");
    /* clang 19 made `x.template f` without an argument list an error; CANN's
     * compiler accepts it (opbase's atvoss broadcast schedules): a warning */
    a.push_back("-Wno-error=missing-template-arg-list-after-template-kw");
    /* a bisheng keyword, as CUDA's (CATLASS_DEVICE is __forceinline__ __aicore__) */
    a.push_back("-D__forceinline__=__inline__ __attribute__((always_inline))");
    /* __CCE_AICORE__ as CANN's compiler sets it: 220 on dav-2201; 310 on
     * dav-3510, which is what CANN's arch35 sources test for it (ops-nn's
     * `#if __CCE_AICORE__ == 310` around the Reg API's VECTOR_REG_WIDTH,
     * `__CCE_AICORE__ > 300` for arch35 conv).  Undefined, a kernel body
     * under `#if __CCE_AICORE__ >= 220` compiled to nothing there. */
    if (o->arch_num == 2201)
        a.push_back("-D__CCE_AICORE__=220");
    else if (o->arch_num == 3510)
        a.push_back("-D__CCE_AICORE__=310");
    /* The asc-devkit version whose APIs ascendrtc follows (9.1.0): CANN's
     * device build force-includes its version header, which defines
     * ASC_DEVKIT_VERSION_NUM as major*10^7 + minor*10^5 + patch*10^3; ops-nn's
     * arch35 conv3d backprop kernels take their >= 9.0 branch on it. */
    a.insert(a.end(), {"-DASC_DEVKIT_MAJOR=9", "-DASC_DEVKIT_MINOR=1", "-DASC_DEVKIT_PATCH=0",
                       "-DASC_DEVKIT_VERSION_NUM=90100000", "-DASC_DEVKIT_VERSION_STR=\"9.1.0\""});
    /* dav-3510 (SIMT): a float -> integer conversion saturates and takes NaN
     * to 0 (API SIMT-API/数学函数/数据类型转换/概述), which is LLVM's fpto[su]i.sat */
    if (o->arch_num == 3510)
        a.push_back("-fno-strict-float-cast-overflow");
    if (o->sanitizer)
        a.push_back("-DASCENDRTC_SANITIZER=1");
    /* __ubuf__ in casts is an annotation clang ignores there; the SIMT API
     * comes with --enable-simt as with bisheng, whose SIMT examples use
     * threadIdx, __global__ and dim3 without an #include */
    a.push_back("-Wno-ignored-attributes");
    if (o->simt)
        a.insert(a.end(), {"-D__ASCENDRTC_SIMT__=1", "-include", "simt_api/asc_simt.h"});
    for (int i = 0; i < o->nmacros; i++)
        a.push_back(o->macros[i]);
    for (int i = 0; i < o->nwarnings; i++)
        a.push_back(o->warnings[i]);
    if (o->opt_level > 0) {
        a.push_back("-vectorize-loops");
        a.push_back("-vectorize-slp");
    }
    if (o->debug) {
        a.push_back("-debug-info-kind=constructor");
        a.push_back("-dwarf-version=5");
        a.push_back("-mframe-pointer=all");
    } else {
        /* line tables name the kernel source line of runtime errors
         * (sites.cpp); they are dropped before codegen */
        a.push_back("-debug-info-kind=line-tables-only");
        a.push_back("-dwarf-version=5");
    }
    return a;
}

// Whether the precompiled device API may stand in for the user's
// #include "kernel_operator.h": only when nothing the user supplies could
// shadow the device headers.
PchKind pch_applies(const rtc_request *req)
{
    const char *off = std::getenv("ASCENDRTC_NO_PCH");
    if (off && *off && std::strcmp(off, "0") != 0)
        return PchKind::None;
    PchKind kind = llvm::StringRef(req->text, req->len).contains("kernel_operator.h") ? PchKind::DeviceApi
                   : req->opts->simt                                                  ? PchKind::Simt
                                                                                      : PchKind::None;
    if (kind == PchKind::None)
        return kind;
    /* what the prefix includes, which a file of the user's could shadow */
    const char *own = kind == PchKind::Simt ? "simt_api" : "kernel_operator.h";
    for (int i = 0; i < req->nheaders; i++) {
        llvm::StringRef n(req->header_names[i]);
        if (n == own || n.starts_with(std::string(own) + "/") || n.starts_with("arc/"))
            return PchKind::None;
    }
    for (int i = 0; i < req->opts->nincludes; i++) {
        std::string d = req->opts->includes[i];
        if (llvm::sys::fs::exists(d + "/" + own) || llvm::sys::fs::exists(d + "/arc"))
            return PchKind::None;
    }
    return kind;
}

void ensure_init() { std::call_once(g_once, init_once); }
const std::string &target_cpu() { return g_cpu; }
const std::string &compiler_version() { return g_version; }
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> device_fs() { return g_device_fs; }
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> host_code_fs() { return g_host_code_fs; }

} // namespace arc_rtc
