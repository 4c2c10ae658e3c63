// pch.cpp - build and keep precompiled device headers (see pch.h).
#include "pch.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Frontend/Utils.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/Support/raw_ostream.h>

#include <condition_variable>
#include <map>
#include <mutex>

#include "common/exports.h"

namespace arc_rtc {

// arc/pch_warm.h: the most used device-API instances, instantiated in the
// PCH (-fpch-instantiate-templates below) rather than in every compile.
// The SIMT API alone is ~100 ms of parsing per compile of a SIMT program.
const PchPrefix kPchPrefixes[2] = {
    {"/arc/include/arc/pch_prefix.hpp",
     "#include \"kernel_operator.h\"\n#include \"arc/entry.h\"\n#include \"arc/pch_warm.h\"\n"},
    {"/arc/include/arc/pch_prefix_simt.hpp", "#include \"simt_api/asc_simt.h\"\n#include \"arc/entry.h\"\n"},
};

namespace {

// GeneratePCHAction writes through a file; this one keeps the bytes.
class MemoryPCHAction : public clang::GeneratePCHAction {
public:
    explicit MemoryPCHAction(std::shared_ptr<clang::PCHBuffer> buf) : buf_(std::move(buf)) {}

protected:
    std::unique_ptr<clang::ASTConsumer> CreateASTConsumer(clang::CompilerInstance &ci, llvm::StringRef) override
    {
        std::string sysroot;
        if (!ComputeASTConsumerArguments(ci, sysroot))
            return nullptr;
        return std::make_unique<clang::PCHGenerator>(
            ci.getPreprocessor(), ci.getModuleCache(), "", "", buf_,
            llvm::ArrayRef<std::shared_ptr<clang::ModuleFileExtension>>(), false, false);
    }

private:
    std::shared_ptr<clang::PCHBuffer> buf_;
};

struct Entry {
    bool done = false;
    PchBytes bytes;
    std::string why;
};

std::mutex g_lock;
std::condition_variable g_cv;
std::map<std::string, std::shared_ptr<Entry>> g_pchs;

PchBytes build(const char *prefix, const std::vector<std::string> &args,
               llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::string &why)
{
    std::vector<const char *> argv;
    for (auto &a : args)
        argv.push_back(a.c_str());
    argv.push_back("-fpch-instantiate-templates");
    argv.push_back("-x");
    argv.push_back("c++-header");
    argv.push_back(prefix);
    std::string log;
    llvm::raw_string_ostream los(log);
    auto diag_opts = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    clang::DiagnosticsEngine arg_diags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), diag_opts,
                                       new clang::TextDiagnosticPrinter(los, diag_opts.get()), true);
    auto inv = std::make_shared<clang::CompilerInvocation>();
    if (!clang::CompilerInvocation::CreateFromArgs(*inv, argv, arg_diags)) {
        why = "invalid PCH arguments: " + log;
        return nullptr;
    }
    PchBytes b = pch_build(inv, fs, &why);
    if (!b)
        why = "device headers did not precompile: " + why;
    return b;
}

} // namespace

PchBytes pch_build(std::shared_ptr<clang::CompilerInvocation> inv, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                   std::string *why, std::vector<std::string> *deps)
{
    std::string log;
    llvm::raw_string_ostream los(log);
    inv->getFrontendOpts().DisableFree = false;
    clang::CompilerInstance ci;
    ci.setInvocation(inv);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(los, &ci.getDiagnosticOpts()), true);
    ci.setVerboseOutputStream(los);
    ci.createFileManager(fs);
    auto collector = std::make_shared<clang::DependencyCollector>();
    if (deps)
        ci.addDependencyCollector(collector);
    auto buf = std::make_shared<clang::PCHBuffer>();
    MemoryPCHAction action(buf);
    if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred() || !buf->IsComplete) {
        *why = log;
        return nullptr;
    }
    if (deps)
        *deps = collector->getDependencies();
    return std::make_shared<const llvm::SmallVector<char, 0>>(std::move(buf->Data));
}

namespace {

// ---- the copy kept between processes, so a new one skips the ~100 ms build ----
// The compile cache owns it (see ascendrtc_rtc_set_pch_store in
// common/exports.h); without a store the PCH lives in memory only.

std::mutex g_store_lock;
ascendrtc_pch_store g_store;

ascendrtc_pch_store store()
{
    std::lock_guard<std::mutex> lk(g_store_lock);
    return g_store;
}

void put_bytes(void *ctx, const void *data, size_t len)
{
    auto *out = static_cast<PchBytes *>(ctx);
    const char *p = static_cast<const char *>(data);
    *out = std::make_shared<const llvm::SmallVector<char, 0>>(p, p + len);
}

} // namespace

PchBytes pch_get(PchKind kind, const std::vector<std::string> &args,
                 llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::string *why)
{
    const char *prefix = kPchPrefixes[kind == PchKind::Simt].path;
    std::string key = std::string(prefix) + '\n';
    for (auto &a : args)
        key += a + '\n';
    std::shared_ptr<Entry> e;
    bool builder = false;
    {
        std::unique_lock<std::mutex> lk(g_lock);
        auto it = g_pchs.find(key);
        if (it == g_pchs.end()) {
            e = std::make_shared<Entry>();
            g_pchs.emplace(key, e);
            builder = true;
        } else {
            e = it->second;
            g_cv.wait(lk, [&] { return e->done; });
        }
    }
    if (builder) {
        std::string w, stored_key = std::string(ascendrtc_rtc_fingerprint()) + '\n' + key;
        ascendrtc_pch_store st = store();
        PchBytes b;
        if (!st.load || !st.load(stored_key.c_str(), put_bytes, &b) || !b) {
            b = build(prefix, args, fs, w);
            if (b && st.save)
                st.save(stored_key.c_str(), b->data(), b->size());
        }
        std::lock_guard<std::mutex> lk(g_lock);
        e->bytes = b;
        e->why = w;
        e->done = true;
        g_cv.notify_all();
    }
    if (!e->bytes && why)
        *why = e->why;
    return e->bytes;
}

bool store_load(const std::string &key, std::string *out)
{
    ascendrtc_pch_store st = store();
    if (!st.load)
        return false;
    auto put = [](void *ctx, const void *data, size_t len) {
        static_cast<std::string *>(ctx)->assign(static_cast<const char *>(data), len);
    };
    out->clear();
    return st.load(key.c_str(), put, out) != 0;
}

void store_save(const std::string &key, const std::string &data)
{
    ascendrtc_pch_store st = store();
    if (st.save)
        st.save(key.c_str(), data.data(), data.size());
}

} // namespace arc_rtc

void ascendrtc_rtc_set_pch_store(const ascendrtc_pch_store *s)
{
    std::lock_guard<std::mutex> lk(arc_rtc::g_store_lock);
    arc_rtc::g_store = s ? *s : ascendrtc_pch_store{};
}
