// host_op.cpp - an op project's host code compiled with the in-process
// clang and loaded with a host LLJIT of its own.  Unlike kernels, host
// code uses the C++ standard library and may have static objects: it is
// compiled with the clang driver's defaults for this machine (system
// libstdc++ headers) and links against libstdc++/libgcc_s/libm loaded by
// name (a library Python loaded RTLD_LOCAL is invisible to a process-wide
// lookup).  Its static initialisers are foreign code like its tiling
// function: they are moved out of llvm.global_ctors into one function that
// ascendrtc_host_op_init runs (contained by the caller, csrc/ext/host_run.c)
// with no lock of the loader held, never by the JIT's initialize().
// Compiles are host_compile.cpp's; what the JIT loads is the object code
// they made, kept between processes (host_cache.cpp), so a new process
// loads an op compiled before without compiling it.
#include "host_op.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/Linker/Linker.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop

#include "host_cache.h"
#include "host_compile.h"
#include "host_ctors.h"

// One loaded op's host code.  The destructors its static objects register
// with __cxa_atexit (keyed by the image's __dso_handle) are kept here and
// run when the image is unloaded -- never by the process's exit handlers,
// which would call into freed ORC memory.
struct arc_host_op {
    llvm::orc::JITDylib *jd = nullptr;
    std::mutex mu;
    std::vector<std::pair<void (*)(void *), void *>> dtors;
    void *dso = nullptr;
    bool inited = false; // its static initialisers all returned: its destructors may run
};

namespace {
using arc_host_jit::UnitRef;
using arc_host_jit::move_ctors;
using arc_host_jit::move_dtors;
using arc_host_jit::compile;
using arc_host_jit::init_host_headers;
using arc_host_jit::kHostRoot;
using arc_host_jit::kProjRoot;
using arc_host_jit::strip_roots;

std::once_flag g_once;
std::mutex g_mu;  // serialises every use of the host ORC loader
std::unique_ptr<llvm::orc::LLJIT> g_jit;
std::string g_init_error;
std::mutex g_reported_mu;
std::string g_reported;  // the JIT's reports since the last lookup (under g_reported_mu)
unsigned long long g_counter;

char *dup(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

void init()
{
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    init_host_headers();
    auto j = llvm::orc::LLJITBuilder().create();
    if (!j) {
        g_init_error = "cannot create the host JIT: " + llvm::toString(j.takeError());
        return;
    }
    g_jit = std::move(*j);
    // What the JIT reports besides a lookup's own error (the symbols a
    // loaded object needs that nothing defines): kept for that lookup's
    // message (ascendrtc_host_op_symbol), not printed.
    g_jit->getExecutionSession().setErrorReporter([](llvm::Error e) {
        std::lock_guard<std::mutex> g(g_reported_mu);
        g_reported += llvm::toString(std::move(e)) + "\n";
    });
}

std::mutex g_dso_mu;
std::map<void *, arc_host_op *> g_by_dso;  // each image's __dso_handle -> the image

extern "C" int host_cxa_atexit(void (*fn)(void *), void *arg, void *dso)
{
    std::lock_guard<std::mutex> g(g_dso_mu);
    auto it = g_by_dso.find(dso);
    if (it != g_by_dso.end())
        it->second->dtors.emplace_back(fn, arg);
    return 0;  // unknown dso: not run (never at process exit)
}

llvm::Error add_libraries(llvm::orc::JITDylib &jd, arc_host_op *op)
{
    llvm::orc::SymbolMap m;
    auto flags = llvm::JITSymbolFlags::Exported | llvm::JITSymbolFlags::Callable;
    m[g_jit->mangleAndIntern("__cxa_atexit")] = {llvm::orc::ExecutorAddr::fromPtr(&host_cxa_atexit), flags};
    if (auto e = jd.define(llvm::orc::absoluteSymbols(std::move(m))))
        return e;
    auto dso = g_jit->lookup(jd, "__dso_handle");  // the platform's, one per JITDylib
    if (!dso)
        return dso.takeError();
    {
        std::lock_guard<std::mutex> g(g_dso_mu);
        g_by_dso[dso->toPtr<void *>()] = op;
        op->dso = dso->toPtr<void *>();
    }
    const char prefix = g_jit->getDataLayout().getGlobalPrefix();
    for (const char *lib : {"libstdc++.so.6", "libgcc_s.so.1", "libm.so.6"}) {
        auto g = llvm::orc::DynamicLibrarySearchGenerator::Load(lib, prefix);
        if (!g)
            return g.takeError();
        jd.addGenerator(std::move(*g));
    }
    return llvm::Error::success();
}

// Links one op_host file's module into the others' (internal names that
// meet are renamed, as separate objects keep them apart); false with the
// linker's message (e.g. a symbol two files define) in the log.
bool link_into(llvm::Module &dst, std::unique_ptr<llvm::Module> src, llvm::LLVMContext &ctx, std::string &log)
{
    std::string msg;
    ctx.setDiagnosticHandlerCallBack(
        [](const llvm::DiagnosticInfo *di, void *p) {
            llvm::raw_string_ostream os(*static_cast<std::string *>(p));
            llvm::DiagnosticPrinterRawOStream dp(os);
            di->print(dp);
            os << "\n";
        },
        &msg);
    bool failed = llvm::Linker::linkModules(dst, std::move(src));
    ctx.setDiagnosticHandlerCallBack(nullptr, nullptr);
    if (failed)
        log += "error: the op_host files do not link: " + (msg.empty() ? std::string("(no reason given)\n") : msg);
    return !failed;
}

// Library sources: project files under "__lib__/" (opbase's op_common
// .cpp files, which an op library's build links into every op's host
// library).  Each is a translation unit of its own, compiled only when the
// op (or another unit) includes its header (x.cpp for x.h), once per
// process and options, into a JITDylib shared by the ops compiled with the
// same options; an op's JITDylib links against it.  Options after
// "--arc-op-only" (the op library's own include directories, different for
// each op) are not library options.
const char *kLibPrefix = "__lib__/";
const char *kOpOnly = "--arc-op-only";

struct Unit {
    std::string id;                 // names its __arc_unit_<id>_ctors (host_ctors.h)
    std::vector<std::string> deps;  // the files its compile read: the units it needs in turn
};
struct Library {
    llvm::orc::JITDylib *jd = nullptr;
    arc_host_op holder;                  // its static objects' destructors (never run: it lives as long as the process)
    std::map<std::string, Unit> units;   // path + '\0' + text -> the unit
};
std::map<std::string, Library> g_libs;  // by library options

std::string stem(const std::string &path)
{
    size_t slash = path.find_last_of('/');
    std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
    size_t dot = b.find_last_of('.');
    return dot == std::string::npos ? b : b.substr(0, dot);
}

// Whether a library source implements the header of stem `st`: x.cpp for
// x.h, or a source whose first quoted #include is that header and whose
// name has the header name's first and last words (opbase's tiling_util.cpp
// implements op_host/tiling_base_util.h; shape_util.cpp, which includes
// log.h first, does not implement it).
bool implements(const char *path, const char *text, const std::string &st)
{
    std::string own = stem(path);
    if (own == st)
        return true;
    const char *p = std::strstr(text, "#include \"");
    const char *e = p ? std::strchr(p + 10, '"') : nullptr;
    if (!e || stem(std::string(p + 10, e)) != st)
        return false;
    auto first = [](const std::string &s) { return s.substr(0, s.find('_')); };
    auto last = [](const std::string &s) { return s.substr(s.rfind('_') + 1); };
    return first(own) == first(st) && last(own) == last(st);
}

// Adds the object of one library unit to the library (made now, or kept
// from an earlier process: host_cache.h); false with the log on an error.
bool load_unit(Library *lib, int i, int nfiles, const char **paths, const char **texts,
               const std::vector<std::string> &opts, const std::string &okey, Unit &u, std::string &log,
               const int *cancel)
{
    std::string shown = paths[i] + std::strlen(kLibPrefix);
    u.id = arc_host_cache::key_of("unit", {okey, paths[i]}, 1, &paths[i], &texts[i]);
    u.id = u.id.substr(u.id.size() - 16);
    const std::string key = arc_host_cache::key_of("unit", {okey}, 1, &paths[i], &texts[i]);
    arc_host_cache::Entry kept;
    if (!arc_host_cache::load(key, &kept)) {
        auto ctx = std::make_unique<llvm::LLVMContext>();
        std::string text, main_text = std::string("#include \"") + kProjRoot + "/" + paths[i] + "\"\n";
        // a main file of its own: module-level names (its initialisers) are named after it
        auto mod = compile(main_text, nfiles, paths, texts, opts, *ctx, text, cancel, &kept.deps,
                           "__arc_unit_" + u.id + ".cpp");
        if (!mod || !move_ctors(*mod, "__arc_unit_" + u.id + "_ctors", {}, text) || !move_dtors(*mod, true, text) ||
            !arc_host_cache::emit_object(*mod, &kept.object, &text)) {
            log += strip_roots(text) + "error: the library source " + shown + " did not compile\n";
            return false;
        }
        arc_host_cache::save(key, kept, "/arc/");
    }
    u.deps = kept.deps;
    if (!lib->jd) {
        auto jde = g_jit->createJITDylib("op_lib#" + std::to_string(g_libs.size()));
        if (!jde) {
            log += "error: cannot load the library code: " + llvm::toString(jde.takeError()) + "\n";
            return false;
        }
        lib->jd = &*jde;
        if (auto e = add_libraries(*lib->jd, &lib->holder)) {
            log += "error: cannot load the library code: " + llvm::toString(std::move(e)) + "\n";
            return false;
        }
    }
    auto obj = llvm::MemoryBuffer::getMemBufferCopy(kept.object, "__arc_unit_" + u.id + ".o");
    if (auto e = g_jit->addObjectFile(*lib->jd, std::move(obj))) {
        log += "error: cannot load the library code: " + llvm::toString(std::move(e)) + "\n";
        return false;
    }
    return true;
}

// Lists in `used` every unit the dependencies need (and theirs, in the
// same order in every process: an op's kept object runs their
// initialisers), adding those the library lacks; false with the log on
// an error.  Under g_mu.
bool add_units(const std::vector<std::string> &deps0, int nfiles, const char **paths, const char **texts,
               const std::vector<int> &unit_idx, const std::vector<std::string> &opts, Library *&lib,
               std::vector<UnitRef> &used, std::string &log, const int *cancel)
{
    std::string okey;
    for (const std::string &o : opts)
        okey += o + '\n';
    lib = &g_libs[okey];
    std::vector<std::string> todo(deps0.rbegin(), deps0.rend());
    std::set<int> done;
    while (!todo.empty()) {
        std::string st = stem(todo.back());
        todo.pop_back();
        for (int i : unit_idx) {
            if (done.count(i) || !implements(paths[i], texts[i], st))
                continue;
            done.insert(i);
            std::string id = std::string(paths[i]) + '\0' + texts[i];
            auto have = lib->units.find(id);
            if (have == lib->units.end()) {
                Unit u;
                if (!load_unit(lib, i, nfiles, paths, texts, opts, okey, u, log, cancel))
                    return false;
                have = lib->units.emplace(id, std::move(u)).first;
            }
            used.push_back({have->second.id, paths[i] + std::strlen(kLibPrefix)});
            todo.insert(todo.end(), have->second.deps.rbegin(), have->second.deps.rend());
        }
    }
    if (lib->jd)
        if (auto e = g_jit->initialize(*lib->jd)) {  // the platform's; the units' own run from the op's
            log += "error: cannot load the library code: " + llvm::toString(std::move(e)) + "\n";
            return false;
        }
    return true;
}

} // namespace

extern "C" int ascendrtc_host_op_compile(int nfiles, const char **paths, const char **texts, int nmains, const char **mains,
                                int nopts, const char **opts, arc_host_op **out, char **log,
                                const int *cancel)
{
    *out = nullptr;
    *log = nullptr;
    std::call_once(g_once, init);
    if (!g_jit) {
        *log = dup("error: " + g_init_error + "\n");
        return -1;
    }
    std::vector<std::string> op_opts, lib_opts;
    for (int i = 0; i < nopts; i++)
        if (std::strcmp(opts[i], kOpOnly) == 0) {
            if (i + 1 < nopts)
                op_opts.push_back(opts[++i]);
        } else {
            op_opts.push_back(opts[i]);
            lib_opts.push_back(opts[i]);
        }
    std::vector<int> unit_idx;  // library sources among the files
    for (int i = 0; i < nfiles; i++)
        if (std::strncmp(paths[i], kLibPrefix, std::strlen(kLibPrefix)) == 0 && stem(paths[i]) != "" &&
            (llvm::StringRef(paths[i]).ends_with(".cpp") || llvm::StringRef(paths[i]).ends_with(".cc")))
            unit_idx.push_back(i);
    // Each op_host file is a translation unit of its own, as CANN's build
    // compiles them (their static and anonymous-namespace names, and their
    // macros, do not meet); the last one also holds the host driver.  The
    // units are linked into one module.  Before each file, a dynamic
    // initialiser that names it: linked units' initialisers run in order,
    // so after a fault arc_host_init_file names the file whose was running.
    const std::string decl = "extern \"C\" const char *volatile arc_host_init_file;\n";
    std::vector<std::string> main_texts;
    for (int i = 0; i < nmains; i++) {
        if (std::strncmp(mains[i], kLibPrefix, std::strlen(kLibPrefix)) == 0)
            continue;
        std::string lit;
        for (const char *c = mains[i]; *c; c++)
            lit += (*c == '"' || *c == '\\') ? std::string("\\") + *c : std::string(1, *c);
        main_texts.push_back(decl + "static const int __arc_host_at = (arc_host_init_file = \"" + lit + "\", 0);\n" +
                             "#include \"" + kProjRoot + "/" + mains[i] + "\"\n");
    }
    if (main_texts.empty())
        main_texts.push_back(decl);
    main_texts.back() += "static const int __arc_host_at_driver = (arc_host_init_file = nullptr, 0);\n"
                         "#include \"arc/host_driver.h\"\n";

    // Compiled before, in this process or another, from the same inputs
    // and unchanged files: its kept object (host_cache.h).
    std::vector<std::string> parts(op_opts);
    parts.push_back("--arc-library-options");
    parts.insert(parts.end(), lib_opts.begin(), lib_opts.end());
    parts.insert(parts.end(), main_texts.begin(), main_texts.end());
    const std::string key = arc_host_cache::key_of("op", parts, nfiles, paths, texts);
    arc_host_cache::Entry kept;
    std::string text;
    std::unique_ptr<llvm::LLVMContext> ctx;  // before the module: it outlives it
    std::unique_ptr<llvm::Module> mod;
    if (!arc_host_cache::load(key, &kept)) {
        ctx = std::make_unique<llvm::LLVMContext>();
        arc_rtc::TilingLayouts layouts;
        for (size_t k = 0; k < main_texts.size(); k++) {
            std::unique_ptr<llvm::Module> m = compile(main_texts[k], nfiles, paths, texts, op_opts, *ctx, text, cancel,
                                                      &kept.deps, "__arc_host_main_" + std::to_string(k) + ".cpp",
                                                      &layouts);
            if (!m) {
                mod = nullptr;
                break;
            }
            if (!mod)
                mod = std::move(m);
            else if (!link_into(*mod, std::move(m), *ctx, text)) {
                *log = dup(strip_roots(text));
                return -1;
            }
        }
        text = strip_roots(text);
        if (!mod) {
            *log = dup(text.empty() ? "error: the host code did not compile\n" : text);
            return -1;
        }
        arc_rtc::define_tiling_layouts(*mod, layouts);
    }
    std::lock_guard<std::mutex> g(g_mu);
    Library *lib = nullptr;
    std::vector<UnitRef> used;
    if (!unit_idx.empty() &&
        !add_units(kept.deps, nfiles, paths, texts, unit_idx, lib_opts, lib, used, text, cancel)) {
        *log = dup(text);
        return -1;
    }
    if (mod) {
        if (!move_ctors(*mod, "__arc_host_ctors", used, text) || !move_dtors(*mod, false, text) ||
            !arc_host_cache::emit_object(*mod, &kept.object, &text)) {
            *log = dup(text);
            return -1;
        }
        arc_host_cache::save(key, kept, "/arc/");
    }
    auto jde = g_jit->createJITDylib("op_host#" + std::to_string(++g_counter));
    if (!jde) {
        *log = dup(text + "error: cannot load the host code: " + llvm::toString(jde.takeError()) + "\n");
        return -1;
    }
    llvm::orc::JITDylib &jd = *jde;
    auto op = std::make_unique<arc_host_op>();
    op->jd = &jd;
    llvm::Error e = add_libraries(jd, op.get());
    if (!e && lib && lib->jd)
        jd.addToLinkOrder(*lib->jd);
    if (!e)
        e = g_jit->addObjectFile(jd, llvm::MemoryBuffer::getMemBufferCopy(kept.object, "__arc_host.o"));
    if (!e)
        e = g_jit->initialize(jd);  // the platform's; the op's own run in ascendrtc_host_op_init
    if (e) {
        text += "error: cannot load the host code: " + llvm::toString(std::move(e)) + "\n";
        llvm::consumeError(g_jit->getExecutionSession().removeJITDylib(jd));
        std::lock_guard<std::mutex> g2(g_dso_mu);
        g_by_dso.erase(op->dso);
        *log = dup(text);
        return -1;
    }
    *out = op.release();
    *log = dup(text);
    return 0;
}

extern "C" void *ascendrtc_host_op_symbol(arc_host_op *op, const char *name, char **err)
{
    *err = nullptr;
    std::lock_guard<std::mutex> g(g_mu);
    {
        std::lock_guard<std::mutex> r(g_reported_mu);
        g_reported.clear();
    }
    auto a = g_jit->lookup(*op->jd, name);
    if (!a) {
        std::string why = llvm::toString(a.takeError());
        std::lock_guard<std::mutex> r(g_reported_mu);
        // the report names what is missing; the error lists all it could not load
        if (!g_reported.empty())
            why = g_reported.substr(0, g_reported.size() - 1) + "; " + why.substr(0, 200) + (why.size() > 200 ? "..." : "");
        *err = dup(why);
        return nullptr;
    }
    return a->toPtr<void *>();
}

extern "C" int ascendrtc_host_op_init(arc_host_op *op, char **what)
{
    *what = nullptr;
    auto init = reinterpret_cast<char *(*)(void)>(ascendrtc_host_op_symbol(op, "arc_host_init", what));
    if (!init)
        return -1;
    // No lock held from here: a fault, a timeout or Ctrl-C leaves the
    // loader usable, and op->inited false (no destructor of it ever runs).
    if ((*what = init()))
        return 1;
    op->inited = true;
    return 0;
}

extern "C" int ascendrtc_host_op_fini(arc_host_op *op, char **what)
{
    *what = nullptr;
    if (!op->inited) {
        op->dtors.clear(); // its initialisers failed: run none of its code again
        return 0;
    }
    auto fini = reinterpret_cast<char *(*)(void)>(ascendrtc_host_op_symbol(op, "arc_host_fini", what));
    if (!fini)
        return -1;
    // Whatever happens below, none of its destructors runs again.
    op->inited = false;
    std::vector<std::pair<void (*)(void *), void *>> dtors;
    dtors.swap(op->dtors);
    // No lock held from here (as in init): static objects' destructors in
    // reverse order of registration, then the files' destructor functions.
    for (auto it = dtors.rbegin(); it != dtors.rend(); ++it)
        it->first(it->second);
    if ((*what = fini()))
        return 1;
    return 0;
}

extern "C" void ascendrtc_host_op_free(arc_host_op *op)
{
    if (!op)
        return;
    // Runs none of the op's code (ascendrtc_host_op_fini does, contained).
    {
        std::lock_guard<std::mutex> g(g_dso_mu);
        g_by_dso.erase(op->dso);
    }
    {
        std::lock_guard<std::mutex> g(g_mu);
        llvm::consumeError(g_jit->getExecutionSession().removeJITDylib(*op->jd));
    }
    delete op;
}

extern "C" void ascendrtc_host_free_string(char *s) { std::free(s); }
