// host_pch.cpp - the precompiled host headers (see host_pch.h).
#include "host_pch.h"

#include <map>
#include <mutex>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <clang/Frontend/CompilerInvocation.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop

#include "common/exports.h"
#include "driver.h"
#include "host_compile.h"

namespace arc_host_jit {

const char *const kHostPchPrefix = "arc/host_pch_prefix.hpp";
const char *const kHostPchPrefixText =
    "#include <algorithm>\n#include <cmath>\n#include <cstdint>\n#include <cstring>\n#include <functional>\n"
    "#include <iostream>\n#include <map>\n#include <memory>\n#include <set>\n#include <sstream>\n#include <string>\n"
    "#include <unordered_map>\n#include <vector>\n"
    "#include \"register/op_def_registry.h\"\n#include \"register/tilingdata_base.h\"\n"
    "#include \"register/op_impl_registry.h\"\n#include \"tiling/platform/platform_ascendc.h\"\n";

namespace {

std::mutex g_mu;  // held while one is built: compiles of its configuration wait for it
std::map<std::string, std::shared_ptr<const HostPch>> g_pchs;  // by configuration; null: it does not build

// The kept form: the headers it holds, one a line, an empty line, the PCH.
std::string encode(const HostPch &p)
{
    std::string out;
    for (const std::string &h : p.headers)
        out += h + "\n";
    return out + "\n" + std::string(p.bytes->data(), p.bytes->size());
}

std::shared_ptr<const HostPch> decode(const std::string &blob)
{
    auto p = std::make_shared<HostPch>();
    size_t at = 0;
    for (;;) {
        size_t nl = blob.find('\n', at);
        if (nl == std::string::npos)
            return nullptr;
        std::string line = blob.substr(at, nl - at);
        at = nl + 1;
        if (line.empty())
            break;
        p->headers.insert(line);
    }
    if (at >= blob.size())
        return nullptr;
    p->bytes = std::make_shared<const llvm::SmallVector<char, 0>>(blob.data() + at, blob.data() + blob.size());
    return p;
}

std::shared_ptr<const HostPch> build(const std::vector<std::string> &args, llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs)
{
    std::vector<const char *> argv;
    for (const std::string &a : args)
        argv.push_back(a.c_str());
    std::string prefix = std::string(kHostRoot) + "/" + kHostPchPrefix, log;
    for (const char *a : {"-fpch-instantiate-templates", "-x", "c++-header"})
        argv.push_back(a);
    argv.push_back(prefix.c_str());
    llvm::raw_string_ostream los(log);
    std::shared_ptr<clang::CompilerInvocation> inv = arc_rtc::driver_invocation(argv, fs, los);
    if (!inv)
        return nullptr;
    std::vector<std::string> deps;
    auto p = std::make_shared<HostPch>();
    p->bytes = arc_rtc::pch_build(inv, fs, &log, &deps);
    if (!p->bytes)
        return nullptr;
    std::string root = std::string(kHostRoot) + "/";
    for (const std::string &d : deps)
        if (d.compare(0, root.size(), root) == 0)
            p->headers.insert(d.substr(root.size()));
    return p;
}

} // namespace

std::shared_ptr<const HostPch> host_pch(const std::vector<std::string> &args,
                                        llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, bool fresh)
{
    std::string config;
    for (const std::string &a : args)
        config += a + "\n";
    std::lock_guard<std::mutex> g(g_mu);
    auto it = g_pchs.find(config);
    if (it != g_pchs.end() && !fresh)
        return it->second;
    // The first line names the kind: the compile cache labels entries by it.
    const std::string key = std::string("ascendrtc op host code (pch)\n") + ascendrtc_rtc_fingerprint() + "\n" + config;
    std::string blob;
    std::shared_ptr<const HostPch> p;
    if (!fresh && arc_rtc::store_load(key, &blob))
        p = decode(blob);
    if (!p && (p = build(args, fs)))
        arc_rtc::store_save(key, encode(*p));
    g_pchs[config] = p;
    return p;
}

bool pch_shadowed(const HostPch &pch, int nfiles, const char **paths)
{
    for (int i = 0; i < nfiles; i++) {
        std::string p = paths[i];
        for (const char *root : {"op_host/", "op_kernel/", ""}) {
            size_t n = std::char_traits<char>::length(root);
            if (p.compare(0, n, root) == 0 && pch.headers.count(p.substr(n)))
                return true;
        }
    }
    return false;
}

} // namespace arc_host_jit
