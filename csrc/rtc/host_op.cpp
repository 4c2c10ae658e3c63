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
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendAction.h>
#include <clang/Frontend/MultiplexConsumer.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
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
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop

#include "device_headers.h"
#include "driver.h"
#include "host_ctors.h"
#include "resource_dir.h"
#include "tiling_layout.h"

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

const char *kHostRoot = "/arc/host/include";
const char *kProjRoot = "/arc/op";

std::once_flag g_once;
std::mutex g_mu;  // serialises every use of the host ORC loader
std::unique_ptr<llvm::orc::LLJIT> g_jit;
std::string g_init_error;
llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> g_host_fs;
unsigned long long g_counter;

char *dup(const std::string &s)
{
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

// The tiling DSL (arc/tiling_dsl.h), the template-tiling header and the
// library tiling structs are shared with the kernel side: these device
// headers are served to host compiles too, so both sides read the same
// definition of a tiling struct.
bool shared_with_host(const char *path)
{
    static const char *prefixes[] = {"arc/tiling_dsl.h", "kernel_tiling/", "ascendc/host_api/", "lib/tiling/",
                                     "lib/matmul/matmul_tilingdata.h", nullptr};
    for (const char **p = prefixes; *p; p++)
        if (std::strncmp(path, *p, std::strlen(*p)) == 0)
            return true;
    return false;
}

void init()
{
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    g_host_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    auto add = [](const arc_vfile *f) {
        std::string path = std::string(kHostRoot) + "/" + f->path;
        g_host_fs->addFile(path, 0, llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(f->data, f->size), path, true));
    };
    // Host API files first: InMemoryFileSystem keeps the first of a path.
    for (const arc_vfile *f = arc_host_headers; f->path; f++)
        add(f);
    for (const arc_vfile *f = arc_device_headers; f->path; f++)
        if (shared_with_host(f->path))
            add(f);
    auto j = llvm::orc::LLJITBuilder().create();
    if (!j) {
        g_init_error = "cannot create the host JIT: " + llvm::toString(j.takeError());
        return;
    }
    g_jit = std::move(*j);
}

// "/arc/op/op_host/x.cpp:3:1: error" -> "op_host/x.cpp:3:1: error".
std::string strip_roots(std::string log)
{
    for (const char *root : {kProjRoot, kHostRoot}) {
        std::string r = std::string(root) + "/";
        size_t at;
        while ((at = log.find(r)) != std::string::npos)
            log.erase(at, r.size());
    }
    return log;
}

// Ctrl-C: a consumer that stops the parse (HandleTopLevelDecl returning
// false) once *cancel is set; the action then fails.
class CancelCheck : public clang::ASTConsumer {
public:
    explicit CancelCheck(const int *cancel) : cancel_(cancel) {}
    bool HandleTopLevelDecl(clang::DeclGroupRef) override
    {
        return !(cancel_ && __atomic_load_n(cancel_, __ATOMIC_RELAXED));
    }

private:
    const int *cancel_;
};

class CancellableAction : public clang::WrapperFrontendAction {
public:
    CancellableAction(std::unique_ptr<clang::FrontendAction> inner, const int *cancel,
                      arc_rtc::TilingLayouts *layouts)
        : clang::WrapperFrontendAction(std::move(inner)), cancel_(cancel), layouts_(layouts)
    {
    }

protected:
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef file) override
    {
        std::vector<std::unique_ptr<clang::ASTConsumer>> v;
        v.push_back(std::make_unique<CancelCheck>(cancel_));
        if (layouts_)
            v.push_back(arc_rtc::tiling_layout_consumer(layouts_));
        auto inner = clang::WrapperFrontendAction::CreateASTConsumer(ci, file);
        if (!inner)
            return nullptr;
        v.push_back(std::move(inner));
        return std::make_unique<clang::MultiplexConsumer>(std::move(v));
    }

private:
    const int *cancel_;
    arc_rtc::TilingLayouts *layouts_;
};

// One translation unit; with `layouts`, the plain tiling structs it
// instantiates GetTilingData<T>() for are described there (tiling_layout.h).
std::unique_ptr<llvm::Module> compile(const std::string &main_text, int nfiles, const char **paths,
                                      const char **texts, const std::vector<std::string> &opts,
                                      llvm::LLVMContext &ctx, std::string &log, const int *cancel,
                                      std::vector<std::string> *deps = nullptr,
                                      const std::string &main_name = "__arc_host_main.cpp",
                                      arc_rtc::TilingLayouts *layouts = nullptr)
{
    llvm::raw_string_ostream los(log);
    auto proj_fs = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
    std::string main_path = std::string(kProjRoot) + "/" + main_name;
    proj_fs->addFile(main_path, 0, llvm::MemoryBuffer::getMemBufferCopy(main_text, main_path));
    for (int i = 0; i < nfiles; i++) {
        std::string p = std::string(kProjRoot) + "/" + paths[i];
        proj_fs->addFile(p, 0, llvm::MemoryBuffer::getMemBufferCopy(texts[i], p));
    }
    auto overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
    overlay->pushOverlay(g_host_fs);
    overlay->pushOverlay(proj_fs);

    std::vector<std::string> args = {ARC_LLVM_PREFIX "/bin/clang++", "-std=c++17", "-O1", "-fPIC",
                                     "-fmessage-length=0", "-ferror-limit=20", "-w",
                                     "-resource-dir", arc_resource_dir(),
                                     "-I", std::string(kProjRoot) + "/op_host",
                                     "-I", std::string(kProjRoot) + "/op_kernel",
                                     "-I", kProjRoot, "-I", kHostRoot,
                                     // "runtime/x.h": CANN's SDK also serves exe_graph/ as an include root
                                     "-I", std::string(kHostRoot) + "/exe_graph",
                                     "-D__ASCENDRTC_HOST__=1", "-c", "-x", "c++", main_path};
    args.insert(args.end() - 4, opts.begin(), opts.end());
    std::vector<const char *> argv;
    for (auto &s : args)
        argv.push_back(s.c_str());

    std::shared_ptr<clang::CompilerInvocation> inv = arc_rtc::driver_invocation(argv, overlay, los);
    if (!inv) {
        log += "error: the clang driver rejected the host compile's options\n";
        return nullptr;
    }
    inv->getFrontendOpts().DisableFree = false;
    inv->getCodeGenOpts().DisableFree = false;
    clang::CompilerInstance ci;
    ci.setInvocation(inv);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(los, &ci.getDiagnosticOpts()), true);
    ci.createFileManager(overlay);
    auto collector = std::make_shared<clang::DependencyCollector>();
    if (deps)
        ci.addDependencyCollector(collector);
    auto emit = std::make_unique<clang::EmitLLVMOnlyAction>(&ctx);
    clang::EmitLLVMOnlyAction *inner = emit.get();
    CancellableAction action(std::move(emit), cancel, layouts);
    bool ok = ci.ExecuteAction(action);
    if (cancel && __atomic_load_n(cancel, __ATOMIC_RELAXED)) {
        log += "error: the host compile was cancelled (KeyboardInterrupt)\n";
        return nullptr;
    }
    std::unique_ptr<llvm::Module> mod = ok ? inner->takeModule() : nullptr;
    if (!ok || !mod || ci.getDiagnostics().hasErrorOccurred())
        return nullptr;
    if (deps)
        for (const std::string &d : collector->getDependencies())
            deps->push_back(d);
    return mod;
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

struct Library {
    llvm::orc::JITDylib *jd = nullptr;
    arc_host_op holder;                      // its static objects' destructors (never run: it lives as long as the process)
    std::map<std::string, unsigned> units;   // path + '\0' + text -> its number
};
std::map<std::string, Library> g_libs;  // by library options
unsigned g_units;

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

// Compiles the units the dependencies need (and theirs) that the library
// lacks, adds them to it and lists in `used` every unit the op links;
// false with the log on an error.  Under g_mu.
bool add_units(const std::vector<std::string> &deps0, int nfiles, const char **paths, const char **texts,
               const std::vector<int> &unit_idx, const std::vector<std::string> &opts, Library *&lib,
               std::vector<UnitRef> &used, std::string &log, const int *cancel)
{
    std::string key;
    for (const std::string &o : opts)
        key += o + '\n';
    lib = &g_libs[key];
    std::vector<std::string> todo(deps0);
    std::set<int> done;
    while (!todo.empty()) {
        std::string st = stem(todo.back());
        todo.pop_back();
        for (int i : unit_idx) {
            if (done.count(i) || !implements(paths[i], texts[i], st))
                continue;
            done.insert(i);
            std::string id = std::string(paths[i]) + '\0' + texts[i], shown = paths[i] + std::strlen(kLibPrefix);
            auto have = lib->units.find(id);
            std::vector<std::string> deps;
            if (have != lib->units.end()) {
                used.push_back({have->second, shown});
                continue;  // its own dependencies were added with it
            }
            unsigned n = ++g_units;
            auto ctx = std::make_unique<llvm::LLVMContext>();
            std::string text, main_text = std::string("#include \"") + kProjRoot + "/" + paths[i] + "\"\n";
            // a main file of its own: module-level names (its initialisers) are named after it
            auto mod = compile(main_text, nfiles, paths, texts, opts, *ctx, text, cancel, &deps,
                               "__arc_unit_" + std::to_string(n) + ".cpp");
            if (!mod || !move_ctors(*mod, "__arc_unit_" + std::to_string(n) + "_ctors", {}, text) ||
                !move_dtors(*mod, true, text)) {
                log += strip_roots(text) + "error: the library source " + shown + " did not compile\n";
                return false;
            }
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
            if (auto e = g_jit->addIRModule(*lib->jd, llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)))) {
                log += "error: cannot load the library code: " + llvm::toString(std::move(e)) + "\n";
                return false;
            }
            lib->units[id] = n;
            used.push_back({n, shown});
            todo.insert(todo.end(), deps.begin(), deps.end());
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

    std::string text;
    std::vector<std::string> deps;
    auto ctx = std::make_unique<llvm::LLVMContext>();
    std::unique_ptr<llvm::Module> mod;
    arc_rtc::TilingLayouts layouts;
    for (size_t k = 0; k < main_texts.size(); k++) {
        std::unique_ptr<llvm::Module> m = compile(main_texts[k], nfiles, paths, texts, op_opts, *ctx, text, cancel,
                                                  unit_idx.empty() ? nullptr : &deps,
                                                  "__arc_host_main_" + std::to_string(k) + ".cpp", &layouts);
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
    std::lock_guard<std::mutex> g(g_mu);
    Library *lib = nullptr;
    std::vector<UnitRef> used;
    if (!unit_idx.empty() && !add_units(deps, nfiles, paths, texts, unit_idx, lib_opts, lib, used, text, cancel)) {
        *log = dup(text);
        return -1;
    }
    if (!move_ctors(*mod, "__arc_host_ctors", used, text) || !move_dtors(*mod, false, text)) {
        *log = dup(text);
        return -1;
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
        e = g_jit->addIRModule(jd, llvm::orc::ThreadSafeModule(std::move(mod), std::move(ctx)));
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
    auto a = g_jit->lookup(*op->jd, name);
    if (!a) {
        *err = dup(llvm::toString(a.takeError()));
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
