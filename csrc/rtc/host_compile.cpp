// host_compile.cpp - one compile of op host code with the in-process
// clang (see host_compile.h).
#include "host_compile.h"

#include <cstring>
#include <map>

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
#include <clang/Frontend/Utils.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop

#include "device_headers.h"
#include "driver.h"
#include "host_cache.h"
#include "host_pch.h"
#include "resource_dir.h"

namespace arc_host_jit {

const char *const kHostRoot = "/arc/host/include";
const char *const kProjRoot = "/arc/op";

namespace {

llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> g_host_fs;

// The tiling DSL (arc/tiling_dsl.h), the template-tiling header and the
// library tiling structs are shared with the kernel side: these device
// headers are served to host compiles too, so both sides read the same
// definition of a tiling struct.
bool shared_with_host(const char *path)
{
    static const char *prefixes[] = {"arc/tiling_dsl.h", "kernel_tiling/", "ascendc/host_api/", "lib/tiling/",
                                     "lib/matmul/matmul_tilingdata.h", "lib/sort/sort_config.h",
                                     "lib/sort/topk_config.h", nullptr};
    for (const char **p = prefixes; *p; p++)
        if (std::strncmp(path, *p, std::strlen(*p)) == 0)
            return true;
    return false;
}

} // namespace

void init_host_headers()
{
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
    std::string prefix = std::string(kHostRoot) + "/" + kHostPchPrefix;
    g_host_fs->addFile(prefix, 0, llvm::MemoryBuffer::getMemBuffer(kHostPchPrefixText, prefix, true));
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

namespace {

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


// "--arc-real=<prefix>=<dir>": the project files under <prefix> (paths
// relative to kProjRoot) are <dir>'s files, which the op's -I directories
// also reach by their real paths (ops-nn's matmul ops include their
// dependencies' headers as "mat_mul_v3/op_host/..." from the library root
// and as "../../mat_mul_v3/..." from the project's copy).  Not a clang
// argument.
const char kRealDir[] = "--arc-real=";

bool is_real_dir(const std::string &opt) { return opt.compare(0, sizeof kRealDir - 1, kRealDir) == 0; }

// Each project file that has a real counterpart (by the longest
// "--arc-real" prefix that holds it) maps from its real path to the
// project's copy, so that both paths are one file to clang (#pragma once,
// one definition).  Where several project paths are one real file (a
// dependency's op_kernel files are also at "<dep>/"), the one by the
// longest prefix is the file and the others map to it too.
llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> with_real_paths(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                                                                int nfiles, const char **paths,
                                                                const std::vector<std::string> &opts)
{
    std::vector<std::pair<std::string, std::string>> roots;  // prefix, real directory
    for (const std::string &o : opts)
        if (is_real_dir(o)) {
            std::string v = o.substr(sizeof kRealDir - 1);
            size_t eq = v.find('=');
            if (eq != std::string::npos)
                roots.emplace_back(v.substr(0, eq), v.substr(eq + 1));
        }
    if (roots.empty())
        return fs;
    // real path -> (prefix length, project path) of its file, and its other project paths
    std::map<std::string, std::pair<size_t, std::string>> file_of;
    std::vector<std::pair<std::string, std::string>> aliases;  // project path, real path
    for (int i = 0; i < nfiles; i++) {
        const std::pair<std::string, std::string> *best = nullptr;
        for (const auto &r : roots)
            if (std::strncmp(paths[i], r.first.c_str(), r.first.size()) == 0 &&
                (!best || r.first.size() > best->first.size()))
                best = &r;
        if (!best)
            continue;
        std::string real = best->second + "/" + (paths[i] + best->first.size());
        if (!llvm::sys::fs::is_regular_file(real))
            continue;
        std::string proj = std::string(kProjRoot) + "/" + paths[i];
        auto at = file_of.find(real);
        if (at == file_of.end()) {
            file_of[real] = {best->first.size(), proj};
        } else if (at->second.first < best->first.size()) {
            aliases.emplace_back(at->second.second, real);
            at->second = {best->first.size(), proj};
        } else {
            aliases.emplace_back(proj, real);
        }
    }
    std::vector<std::pair<std::string, std::string>> remap;
    for (const auto &f : file_of)
        remap.emplace_back(f.first, f.second.second);
    for (const auto &a : aliases)
        remap.emplace_back(a.first, file_of[a.second].second);
    if (remap.empty())
        return fs;
    return llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>(
        llvm::vfs::RedirectingFileSystem::create(remap, false, *fs).release());
}

// The host compile's fixed arguments before `opts`, and after them.
std::vector<std::string> fixed_args()
{
    return {ARC_LLVM_PREFIX "/bin/clang++", "-std=c++17", "-O1", "-fPIC", "-fmessage-length=0", "-ferror-limit=20",
            "-w", "-resource-dir", arc_resource_dir(),
            // g++ (CANN's host compiler) accepts a std::string passed to a
            // variadic log call; clang's call traps if it runs
            "-Wno-error=non-pod-varargs",
            "-I", std::string(kProjRoot) + "/op_host",
            "-I", std::string(kProjRoot) + "/op_kernel",
            "-I", kProjRoot, "-I", kHostRoot,
            // "runtime/x.h": CANN's SDK also serves exe_graph/ as an include root
            "-I", std::string(kHostRoot) + "/exe_graph",
            "-D__ASCENDRTC_HOST__=1"};
}

// The PCH for a compile with `opts`: built with its arguments but the
// op's -I directories (the prefix reads none of them, so ops share it).
std::shared_ptr<const HostPch> pch_for(const std::vector<std::string> &opts, bool fresh)
{
    std::vector<std::string> args = fixed_args();
    for (size_t i = 0; i < opts.size(); i++) {
        if (opts[i] == "-I")
            i++;
        else if (opts[i].compare(0, 2, "-I") != 0 && !is_real_dir(opts[i]))
            args.push_back(opts[i]);
    }
    auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
    fs->pushOverlay(g_host_fs);
    return host_pch(args, fs, fresh);
}

std::unique_ptr<llvm::Module> compile_once(const std::string &main_text, int nfiles, const char **paths,
                                           const char **texts, const std::vector<std::string> &opts,
                                           llvm::LLVMContext &ctx, std::string &log, const int *cancel,
                                           std::vector<std::string> *deps, const std::string &main_name,
                                           arc_rtc::TilingLayouts *layouts, const HostPch *pch)
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

    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs = with_real_paths(overlay, nfiles, paths, opts);

    std::vector<std::string> args = fixed_args();
    for (const std::string &o : opts)
        if (!is_real_dir(o))
            args.push_back(o);
    if (pch) {
        const char *pch_path = "/arc/pch/host_api.pch";
        proj_fs->addFile(pch_path, 0, llvm::MemoryBuffer::getMemBuffer(
                                          llvm::StringRef(pch->bytes->data(), pch->bytes->size()), pch_path, false));
        args.push_back("-include-pch");
        args.push_back(pch_path);
    }
    for (const std::string &a : {std::string("-c"), std::string("-x"), std::string("c++"), main_path})
        args.push_back(a);
    std::vector<const char *> argv;
    for (auto &s : args)
        argv.push_back(s.c_str());

    std::shared_ptr<clang::CompilerInvocation> inv = arc_rtc::driver_invocation(argv, fs, los);
    if (!inv) {
        log += "error: the clang driver rejected the host compile's options\n";
        return nullptr;
    }
    inv->getFrontendOpts().DisableFree = false;
    inv->getCodeGenOpts().DisableFree = false;
    clang::CompilerInstance ci;
    ci.setInvocation(inv);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(los, &ci.getDiagnosticOpts()), true);
    ci.createFileManager(fs);
    auto collector = std::make_shared<arc_host_cache::AllDeps>();
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

} // namespace

std::unique_ptr<llvm::Module> compile(const std::string &main_text, int nfiles, const char **paths,
                                      const char **texts, const std::vector<std::string> &opts,
                                      llvm::LLVMContext &ctx, std::string &log, const int *cancel,
                                      std::vector<std::string> *deps, const std::string &main_name,
                                      arc_rtc::TilingLayouts *layouts)
{
    std::shared_ptr<const HostPch> pch = pch_for(opts, false);
    if (pch && pch_shadowed(*pch, nfiles, paths))
        pch = nullptr;
    std::string text;
    auto m = compile_once(main_text, nfiles, paths, texts, opts, ctx, text, cancel, deps, main_name, layouts,
                          pch.get());
    if (!m && pch && text.find("precompiled header") != std::string::npos) {
        // the kept PCH is stale (a system header changed since): again, with a new one
        pch = pch_for(opts, true);
        text.clear();
        if (layouts)
            layouts->clear();
        m = compile_once(main_text, nfiles, paths, texts, opts, ctx, text, cancel, deps, main_name, layouts,
                         pch.get());
    }
    log += text;
    return m;
}

} // namespace arc_host_jit
