// orc_loader.cpp - the ORC loader behind aclrtBinaryLoad*: links a kernel's ELF
// object into this process with LLVM 19's LLJIT.  One LLJIT per process,
// created on first use; one JITDylib per loaded binary.  Kernels may call
// only what is defined for them explicitly: the runtime services passed
// by module.c (ARC_KERNEL_SYMBOLS) and an allow-list of libc/libm/compiler
// builtins defined here by address.  Nothing is found with dlsym, which
// would miss a library loaded RTLD_LOCAL (how Python loads extensions).
// Every llvm::Error becomes a message; none reaches stderr.
#include "rt/loader/orc_loader.h"
#include "rt/loader/orc_perfmap.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <memory>
#include <mutex>
#include <string>

// LLVM 19's headers trip g++ 12's -Wredundant-move and a false
// -Wmaybe-uninitialized in unique_function; they are not ours.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/Demangle/Demangle.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/TargetParser/Host.h>
#pragma GCC diagnostic pop

struct sim_orc_image {
    llvm::orc::JITDylib *jd;
    std::string name;
};

// The allow-list of libc/libm/compiler builtins kernels may call, and the
// trap the C++ stubs below use (both in C files).
extern "C" const sim_orc_symbol sim_orc_builtins[];
extern "C" void __arc_trap(const char *api, const char *fmt, ...);

namespace {

std::mutex orc_mu;  // serialises every use of LLJIT
// Never destroyed: at exit, cores abandoned in kernel code (core_hang.c) may
// still be running loaded code, which the JIT's destructor would unmap under
// them; the OS reclaims it with the process.
llvm::orc::LLJIT *the_orc;
std::string init_error;
std::once_flag init_once;
unsigned long long image_counter;

std::mutex report_mu;  // errors the session reports outside a call
std::string last_report;

char dso_handle_dummy;

// Static objects with destructors register them here; the simulated NPU
// never runs them (kernels should have none).
int arc_cxa_atexit(void (*)(void *), void *, void *) { return 0; }
void arc_pure_virtual() { __arc_trap("C++", "pure virtual function called"); }

const sim_orc_symbol cxx_stubs[] = {
    {"__cxa_atexit", reinterpret_cast<void *>(&arc_cxa_atexit)},
    {"__cxa_pure_virtual", reinterpret_cast<void *>(&arc_pure_virtual)},
    {"__dso_handle", &dso_handle_dummy},
    {nullptr, nullptr},
};

void add_symbols(llvm::orc::LLJIT &J, llvm::orc::SymbolMap &m, const sim_orc_symbol *syms)
{
    for (const sim_orc_symbol *s = syms; s && s->name; s++)
        m[J.mangleAndIntern(s->name)] = {llvm::orc::ExecutorAddr::fromPtr(s->addr),
                                         llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable};
}

void put(char *err, size_t errlen, const std::string &s)
{
    if (err && errlen)
        snprintf(err, errlen, "%s", s.c_str());
}

// "Symbols not found: [ _Z4axpbffi ]" with each name demangled: axpb(float, float, int).
std::string demangled_list(const std::string &s)
{
    size_t open = s.find('['), close = s.rfind(']');
    if (open == std::string::npos || close == std::string::npos || close < open)
        return s;
    std::string out = s.substr(0, open + 1), names = s.substr(open + 1, close - open - 1), sep = " ";
    size_t i = 0;
    while (i < names.size()) {
        size_t j = names.find(' ', i);
        std::string n = names.substr(i, j == std::string::npos ? std::string::npos : j - i);
        if (!n.empty()) {
            std::string d = llvm::demangle(n);
            out += sep + (d == n ? n : d + " (" + n + ")");
            sep = ", ";
        }
        if (j == std::string::npos)
            break;
        i = j + 1;
    }
    return out + " " + s.substr(close);
}

std::string describe_str(std::string s)
{
    if (s.find("Symbols not found") != std::string::npos)
        s = "the kernel calls functions the simulated NPU does not provide (kernels may use the device "
            "API, libm and memcpy/memset only; a __aicore__ function another file defines needs both files "
            "compiled with -dc): " + demangled_list(s);
    return s;
}

std::string describe(llvm::Error e)
{
    return describe_str(llvm::toString(std::move(e)));
}

// The session's last reported error, cleared.
std::string take_report()
{
    std::lock_guard<std::mutex> g(report_mu);
    std::string s;
    s.swap(last_report);
    return s;
}

void init_orc()
{
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    auto j = llvm::orc::LLJITBuilder()
                 .setProcessSymbolsJITDylibSetup([](llvm::orc::LLJIT &J) -> llvm::Expected<llvm::orc::JITDylibSP> {
                     auto &JD = J.getExecutionSession().createBareJITDylib("<arc-builtins>");
                     llvm::orc::SymbolMap m;
                     add_symbols(J, m, sim_orc_builtins);
                     add_symbols(J, m, cxx_stubs);
                     if (auto e = JD.define(llvm::orc::absoluteSymbols(std::move(m))))
                         return e;
                     return &JD;
                 })
                 .create();
    if (!j) {
        init_error = "cannot create the LLVM ORC JIT: " + llvm::toString(j.takeError());
        return;
    }
    the_orc = j->release();
    if (sim_orc_perfmap_wanted())
        sim_orc_perfmap_attach(the_orc->getObjLinkingLayer());
    the_orc->getExecutionSession().setErrorReporter([](llvm::Error e) {
        std::string s = llvm::toString(std::move(e));
        std::lock_guard<std::mutex> g(report_mu);
        last_report = s;
    });
}

int ensure_orc(char *err, size_t errlen)
{
    std::call_once(init_once, init_orc);
    if (!the_orc) {
        put(err, errlen, init_error);
        return -1;
    }
    return 0;
}

}  // namespace

extern "C" int sim_orc_load(const void *obj, size_t len, const char *label, const sim_orc_symbol *syms,
                            sim_orc_image **out, char *err, size_t errlen)
{
    if (ensure_orc(err, errlen))
        return -1;
    std::lock_guard<std::mutex> g(orc_mu);
    std::string name = std::string(label ? label : "binary") + "#" + std::to_string(++image_counter);
    auto jd = the_orc->createJITDylib(name);
    if (!jd) {
        put(err, errlen, "cannot create a JITDylib: " + describe(jd.takeError()));
        return -1;
    }
    auto &es = the_orc->getExecutionSession();
    llvm::orc::SymbolMap m;
    add_symbols(*the_orc, m, syms);
    llvm::Error e = m.empty() ? llvm::Error::success() : jd->define(llvm::orc::absoluteSymbols(std::move(m)));
    if (!e) {
        auto buf = llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(static_cast<const char *>(obj), len), name);
        e = the_orc->addObjectFile(*jd, std::move(buf));
    }
    if (e) {
        put(err, errlen, "cannot add the object to the JIT: " + describe(std::move(e)));
        llvm::consumeError(es.removeJITDylib(*jd));
        return -1;
    }
    *out = new sim_orc_image{&*jd, name};
    return 0;
}

extern "C" int sim_orc_link_with(sim_orc_image *img, sim_orc_image *lib, char *err, size_t errlen)
{
    if (ensure_orc(err, errlen))
        return -1;
    if (img == lib)
        return 0;
    std::lock_guard<std::mutex> g(orc_mu);
    img->jd->addToLinkOrder(*lib->jd, llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly);
    return 0;
}

extern "C" void *sim_orc_lookup(sim_orc_image *img, const char *sym, char *err, size_t errlen)
{
    if (ensure_orc(err, errlen))
        return nullptr;
    std::lock_guard<std::mutex> g(orc_mu);
    take_report();
    auto a = the_orc->lookup(*img->jd, sym);
    if (!a) {
        // The root cause (e.g. "Symbols not found") goes to the session's
        // reporter; the lookup itself only says materialization failed.
        std::string msg = describe(a.takeError()), why = take_report();
        put(err, errlen, "cannot link symbol '" + std::string(sym) + "': " + (why.empty() ? msg : describe_str(why)));
        return nullptr;
    }
    return a->toPtr<void *>();
}

extern "C" void sim_orc_unload(sim_orc_image *img)
{
    if (!img)
        return;
    if (the_orc) {
        std::lock_guard<std::mutex> g(orc_mu);
        // A failure to free ORC memory leaves it allocated; nothing to report.
        llvm::consumeError(the_orc->getExecutionSession().removeJITDylib(*img->jd));
    }
    delete img;
}

extern "C" const char *sim_orc_host_cpu(void)
{
    static const std::string cpu = llvm::sys::getHostCPUName().str();
    return cpu.c_str();
}

extern "C" int sim_orc_cpu_check(const char *cpu, char *err, size_t errlen)
{
    if (!cpu || !*cpu || strcmp(cpu, sim_orc_host_cpu()) == 0)
        return 0;
    if (ensure_orc(err, errlen))
        return -1;
    std::string triple = llvm::sys::getProcessTriple(), why;
    const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, why);
    if (!t) {
        put(err, errlen, "no LLVM target for " + triple + ": " + why);
        return -1;
    }
    // Ask a generic subtarget first: creating one for an unknown CPU name
    // prints a warning to stderr.
    std::unique_ptr<llvm::MCSubtargetInfo> generic(t->createMCSubtargetInfo(triple, "", ""));
    std::unique_ptr<llvm::MCSubtargetInfo> sti;
    if (generic && generic->isCPUStringValid(cpu))
        sti.reset(t->createMCSubtargetInfo(triple, cpu, ""));
    if (!sti) {
        put(err, errlen, "the binary was built for CPU '" + std::string(cpu) + "', which LLVM does not know on " +
                             triple + " (this host is '" + sim_orc_host_cpu() + "')");
        return -1;
    }
    auto host = llvm::sys::getHostCPUFeatures();
    std::string missing;
    for (const llvm::SubtargetFeatureKV &kv : sti->getAllProcessorFeatures()) {
        if (!sti->getFeatureBits().test(kv.Value))
            continue;
        auto it = host.find(kv.Key);  // tuning flags are not host features: skipped
        if (it != host.end() && !it->second)
            missing += (missing.empty() ? "" : ", ") + std::string(kv.Key);
    }
    if (missing.empty())
        return 0;
    put(err, errlen, "the binary was built for CPU '" + std::string(cpu) + "', whose instructions (" + missing +
                         ") this host ('" + sim_orc_host_cpu() + "') lacks; recompile it on this machine");
    return -1;
}
