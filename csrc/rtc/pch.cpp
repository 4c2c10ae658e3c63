// pch.cpp - build and keep precompiled device headers (see pch.h).
#include "pch.h"

#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Serialization/ASTWriter.h>
#include <clang/Serialization/PCHContainerOperations.h>
#include <llvm/Support/raw_ostream.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "common/exports.h"
#include "common/fnv.h"

namespace arc_rtc {

const char *const kPchPrefixPath = "/arc/include/arc/pch_prefix.hpp";
const char *const kPchPrefixText = "#include \"kernel_operator.h\"\n#include \"arc/entry.h\"\n";

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

PchBytes build(const std::vector<std::string> &args, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
               std::string &why)
{
    std::vector<const char *> argv;
    for (auto &a : args)
        argv.push_back(a.c_str());
    argv.push_back("-x");
    argv.push_back("c++-header");
    argv.push_back(kPchPrefixPath);
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
    inv->getFrontendOpts().DisableFree = false;
    clang::CompilerInstance ci;
    ci.setInvocation(inv);
    ci.createDiagnostics(new clang::TextDiagnosticPrinter(los, &ci.getDiagnosticOpts()), true);
    ci.setVerboseOutputStream(los);
    ci.createFileManager(fs);
    auto buf = std::make_shared<clang::PCHBuffer>();
    MemoryPCHAction action(buf);
    if (!ci.ExecuteAction(action) || ci.getDiagnostics().hasErrorOccurred() || !buf->IsComplete) {
        why = "device headers did not precompile: " + log;
        return nullptr;
    }
    return std::make_shared<const llvm::SmallVector<char, 0>>(std::move(buf->Data));
}

// ---- the on-disk copy, so a new process skips the ~100 ms build ----
// <cache root>/pch/<fnv64 of configuration + fingerprint>.pch holds
// "ARCPCH1" NUL, u64 payload size, u64 FNV-1a of the payload, the payload.
// The cache root is the jit cache's ($ASCENDRTC_CACHE_DIR, else
// $XDG_CACHE_HOME/ascendrtc, else ~/.cache/ascendrtc); like it, a directory
// another user could write is not used.  Any problem means: build in memory.

uint64_t fnv64(const char *p, size_t n, uint64_t h = ARC_FNV1A64_INIT)
{
    return arc_fnv1a64(p, n, h);
}

bool private_dir(const std::string &d)
{
    if (mkdir(d.c_str(), 0700) != 0 && errno != EEXIST)
        return false;
    struct stat st;
    return stat(d.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && (st.st_uid == geteuid() || st.st_uid == 0) &&
           !(st.st_mode & (S_IWGRP | S_IWOTH));
}

std::string disk_path(const std::string &key)
{
    const char *mode = std::getenv("ASCENDRTC_CACHE");
    if (mode && std::strcmp(mode, "off") == 0)
        return "";
    std::string root;
    if (const char *d = std::getenv("ASCENDRTC_CACHE_DIR"); d && *d) {
        root = d;
    } else if (const char *x = std::getenv("XDG_CACHE_HOME"); x && *x == '/') {
        root = std::string(x) + "/ascendrtc";
    } else if (const char *h = std::getenv("HOME"); h && *h) {
        std::string cache = std::string(h) + "/.cache";
        mkdir(cache.c_str(), 0700);
        root = cache + "/ascendrtc";
    } else {
        return "";
    }
    if (!private_dir(root) || !private_dir(root + "/pch"))
        return "";
    std::string fp = ascendrtc_rtc_fingerprint();
    char name[32];
    std::snprintf(name, sizeof name, "%016llx.pch",
                  static_cast<unsigned long long>(fnv64(fp.data(), fp.size(), fnv64(key.data(), key.size()))));
    return root + "/pch/" + name;
}

const char kMagic[8] = {'A', 'R', 'C', 'P', 'C', 'H', '1', '\0'};

PchBytes disk_load(const std::string &path)
{
    auto buf = llvm::MemoryBuffer::getFile(path, false, false);
    if (!buf)
        return nullptr;
    llvm::StringRef d = (*buf)->getBuffer();
    uint64_t size, sum;
    if (d.size() < 24 || std::memcmp(d.data(), kMagic, 8) != 0)
        return nullptr;
    std::memcpy(&size, d.data() + 8, 8);
    std::memcpy(&sum, d.data() + 16, 8);
    if (size != d.size() - 24 || fnv64(d.data() + 24, size) != sum) {
        unlink(path.c_str()); // torn or corrupt: rebuilt and rewritten below
        return nullptr;
    }
    auto v = std::make_shared<llvm::SmallVector<char, 0>>(d.begin() + 24, d.end());
    return v;
}

void disk_save(const std::string &path, const llvm::SmallVector<char, 0> &data)
{
    std::string tmp = path + ".tmpXXXXXX";
    int fd = mkstemp(tmp.data());
    if (fd < 0)
        return;
    uint64_t size = data.size(), sum = fnv64(data.data(), data.size());
    bool ok = write(fd, kMagic, 8) == 8 && write(fd, &size, 8) == 8 && write(fd, &sum, 8) == 8;
    for (size_t off = 0; ok && off < data.size();) {
        ssize_t n = write(fd, data.data() + off, data.size() - off);
        ok = n > 0;
        off += ok ? static_cast<size_t>(n) : 0;
    }
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp.c_str(), path.c_str()) != 0)
        unlink(tmp.c_str());
}

} // namespace

PchBytes pch_get(const std::vector<std::string> &args, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs,
                 std::string *why)
{
    std::string key;
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
        std::string w, path = disk_path(key);
        PchBytes b = path.empty() ? nullptr : disk_load(path);
        if (!b) {
            b = build(args, fs, w);
            if (b && !path.empty())
                disk_save(path, *b);
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

} // namespace arc_rtc
