// program_host.cpp - see program_host.h.
#include "program_host.h"
#include "src_line.h"
#include "driver.h"
#include "annotations.h"
#include "rdc.h"
#include "resource_dir.h"

#include <cstring>
#include <mutex>
#include <set>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Lex/HeaderSearchOptions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#pragma GCC diagnostic pop

namespace arc_rtc {
namespace {

// C++ library headers of the host's kind (I/O, containers that allocate,
// threads, time...) and C/POSIX headers: a kernel file including one has
// host code.  The rest (<tuple>, <utility>, <array>, <limits>, <type_traits>,
// <cmath>, <algorithm>...) are the device's own libc++ (csrc/device/libc).
const char *const kHostStd[] = {
    "iostream", "ostream", "istream", "fstream", "sstream", "iomanip", "ios", "iosfwd", "streambuf", "vector",
    "string", "string_view", "map", "unordered_map", "set", "unordered_set", "list", "forward_list", "deque",
    "queue", "stack", "memory", "functional", "iterator", "chrono", "thread", "mutex", "shared_mutex",
    "condition_variable", "future", "atomic", "random", "exception", "stdexcept", "new", "bitset", "any",
    "regex", "filesystem", "complex", "valarray", "typeinfo", "cstdio", "cstdlib", "cerrno", "ctime", "csignal",
    "cinttypes", "cctype", "cwchar", "clocale", "stdio.h", "stdlib.h", "string.h", "errno.h", "time.h",
    "signal.h", "unistd.h", "fcntl.h", "dlfcn.h", "pthread.h", "libgen.h", "dirent.h", "getopt.h", "inttypes.h",
};
const char *const kHostPrefixes[] = {"acl/", "sys/", "pybind11/", "torch/", "torch_npu/", "ATen/", "c10/"};

bool host_header(const std::string &h)
{
    static const std::set<std::string> std_set(std::begin(kHostStd), std::end(kHostStd));
    if (std_set.count(h))
        return true;
    for (const char *p : kHostPrefixes)
        if (h.compare(0, std::strlen(p), p) == 0)
            return true;
    return false;
}

} // namespace

bool is_site_rec(const llvm::GlobalValue &g);

namespace {

bool is_root(const llvm::GlobalValue &g)
{
    return (g.getName().starts_with("__arc") || is_site_rec(g)) && !g.isDeclaration();
}

// Every global value a constant refers to, through expressions and aggregates.
void refs_of(const llvm::Constant *c, std::vector<const llvm::GlobalValue *> &out,
             std::set<const llvm::Constant *> &seen)
{
    if (!seen.insert(c).second)
        return;
    if (auto *g = llvm::dyn_cast<llvm::GlobalValue>(c)) {
        out.push_back(g);
        return;
    }
    for (const llvm::Use &u : c->operands())
        if (auto *oc = llvm::dyn_cast<llvm::Constant>(u.get()))
            refs_of(oc, out, seen);
}

} // namespace

AicpuKernel aicpu_kernel(const char *text, size_t len)
{
    llvm::StringRef t(text, len);
    for (size_t at = t.find("__aicpu__"); at != llvm::StringRef::npos; at = t.find("__aicpu__", at + 1)) {
        size_t bol = t.rfind('\n', at) + 1; /* npos + 1 == 0 */
        llvm::StringRef before = t.slice(bol, at), after = t.substr(at + 9).take_until([](char c) { return c == '('; });
        if (!before.contains("__global__") || before.contains("//") || after.contains(';') || after.contains('{'))
            continue;
        llvm::StringRef name = after.rtrim().rsplit(' ').second;
        if (name.empty())
            name = after.trim();
        return {src_line(t, at), name.str()};
    }
    return {};
}

bool has_host_code(const char *text, size_t len)
{
    const char *p = text, *end = text + len;
    while (p < end) {
        const char *eol = static_cast<const char *>(std::memchr(p, '\n', end - p));
        if (!eol)
            eol = end;
        const char *q = p;
        while (q < eol && (*q == ' ' || *q == '\t'))
            q++;
        if (q < eol && *q == '#') {
            q++;
            while (q < eol && (*q == ' ' || *q == '\t'))
                q++;
            if (eol - q > 7 && std::strncmp(q, "include", 7) == 0) {
                q += 7;
                while (q < eol && (*q == ' ' || *q == '\t'))
                    q++;
                if (q < eol && (*q == '<' || *q == '"')) {
                    char close = *q == '<' ? '>' : '"';
                    const char *s = ++q;
                    while (q < eol && *q != close)
                        q++;
                    if (q < eol && host_header(std::string(s, q - s)))
                        return true;
                }
            }
        }
        p = eol + 1;
    }
    return false;
}

const std::vector<std::string> &system_include_args(std::string *why)
{
    static std::once_flag once;
    static std::vector<std::string> args;
    static std::string err;
    std::call_once(once, [] {
        // The driver's own search for this machine's GCC installation and
        // libc, on a file that only needs to exist in a memory file system.
        auto mem = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
        mem->addFile("/arc/probe/probe.cpp", 0, llvm::MemoryBuffer::getMemBuffer(""));
        auto fs = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(llvm::vfs::getRealFileSystem());
        fs->pushOverlay(mem);
        std::string log;
        llvm::raw_string_ostream los(log);
        const char *argv[] = {ARC_LLVM_PREFIX "/bin/clang++", "-std=c++17", "-fsyntax-only",
                              "-resource-dir", arc_resource_dir(), "-x", "c++", "/arc/probe/probe.cpp"};
        std::shared_ptr<clang::CompilerInvocation> inv = driver_invocation(argv, fs, los);
        if (!inv) {
            err = "the clang driver found no system headers: " + log;
            return;
        }
        for (const auto &e : inv->getHeaderSearchOpts().UserEntries) {
            if (e.Group == clang::frontend::ExternCSystem)
                args.push_back("-internal-externc-isystem");
            else if (e.Group == clang::frontend::System || e.Group == clang::frontend::CXXSystem)
                args.push_back("-internal-isystem");
            else
                continue;
            args.push_back(e.Path);
        }
        if (args.empty())
            err = "the clang driver found no system header directories";
    });
    if (why)
        *why = err;
    return args;
}

bool is_site_rec(const llvm::GlobalValue &g)
{
    llvm::StringRef n = g.getName();
    return (n.starts_with("_ZN5__arc4siteI") || n.starts_with("_ZN5__arc9simt_siteI")) && n.ends_with("E3recE");
}

int keep_reachable(llvm::Module &m, std::vector<const llvm::GlobalValue *> work)
{
    std::set<const llvm::GlobalValue *> live;
    std::set<const llvm::Constant *> seen;
    auto mark = [&]() {
        while (!work.empty()) {
            const llvm::GlobalValue *g = work.back();
            work.pop_back();
            if (!live.insert(g).second)
                continue;
            if (auto *f = llvm::dyn_cast<llvm::Function>(g)) {
                for (const llvm::BasicBlock &bb : *f)
                    for (const llvm::Instruction &i : bb)
                        for (const llvm::Use &u : i.operands())
                            if (auto *c = llvm::dyn_cast<llvm::Constant>(u.get()))
                                refs_of(c, work, seen);
                if (f->hasPersonalityFn())
                    refs_of(f->getPersonalityFn(), work, seen);
            } else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(g)) {
                if (v->hasInitializer())
                    refs_of(v->getInitializer(), work, seen);
            } else if (auto *a = llvm::dyn_cast<llvm::GlobalAlias>(g)) {
                refs_of(a->getAliasee(), work, seen);
            }
        }
    };
    mark();
    // The annotations of what stays (the kernel qualifiers __mix__,
    // __vector__, __cube__ that metadata.cpp reads; -dc's marks) stay with
    // it; they keep nothing alive themselves.
    llvm::GlobalVariable *ga = m.getGlobalVariable("llvm.global.annotations", true);
    if (ga && !live.count(ga)) {
        std::vector<llvm::Constant *> keep;
        for (const Annotation &a : annotations(m))
            if (live.count(a.target))
                keep.push_back(a.entry);
        if (!keep.empty()) {
            auto *at = llvm::ArrayType::get(keep[0]->getType(), keep.size());
            auto *kept = new llvm::GlobalVariable(m, at, false, ga->getLinkage(), llvm::ConstantArray::get(at, keep));
            kept->setSection(ga->getSection());
            kept->takeName(ga);
            work.push_back(kept);
            mark();
        }
    }
    std::vector<llvm::GlobalValue *> dead;
    for (llvm::GlobalValue &g : m.global_values())
        if (!live.count(&g))
            dead.push_back(&g);
    int dropped = 0;
    // First cut every reference the dead hold, then erase what nothing uses.
    for (llvm::GlobalValue *g : dead) {
        if (auto *f = llvm::dyn_cast<llvm::Function>(g)) {
            dropped += !f->isDeclaration();
            f->deleteBody();
            f->setComdat(nullptr);
        } else if (auto *v = llvm::dyn_cast<llvm::GlobalVariable>(g)) {
            v->setInitializer(nullptr);
            v->setLinkage(llvm::GlobalValue::ExternalLinkage);
            v->setComdat(nullptr);
        }
    }
    // Aliases first: one may not outlive (or point at a declaration of) its aliasee.
    for (int pass = 0; pass < 2; pass++)
        for (llvm::GlobalValue *&g : dead) {
            if (!g || llvm::isa<llvm::GlobalAlias>(g) != (pass == 0))
                continue;
            g->removeDeadConstantUsers();
            if (g->use_empty()) {
                g->eraseFromParent();
                g = nullptr;
            }
        }
    return dropped;
}

int strip_host_code(llvm::Module &m)
{
    for (const char *name : {"llvm.global_ctors", "llvm.global_dtors"})
        if (llvm::GlobalVariable *gv = m.getGlobalVariable(name, true))
            gv->eraseFromParent();
    std::vector<const llvm::GlobalValue *> work;
    for (const llvm::GlobalValue &g : m.global_values())
        if (is_root(g))
            work.push_back(&g);
    for (const llvm::Function *f : rdc_functions(m))
        work.push_back(f);
    for (const char *name : {"llvm.used", "llvm.compiler.used"})
        if (llvm::GlobalVariable *gv = m.getGlobalVariable(name, true))
            work.push_back(gv);
    return keep_reachable(m, std::move(work));
}

} // namespace arc_rtc
