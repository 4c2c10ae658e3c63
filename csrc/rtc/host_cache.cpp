// host_cache.cpp - op host code kept between processes (see host_cache.h).
#include "host_cache.h"

#include <sys/stat.h>

#include <cstring>
#include <memory>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <llvm/ADT/StringExtras.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/SHA256.h>
#include <llvm/Target/TargetMachine.h>
#pragma GCC diagnostic pop

#include "common/exports.h"
#include "pch.h"

namespace arc_host_cache {
namespace {

// The entry's layout: this line, then one line per file read ("path\tsize
// \tmtime_ns\tsha256", or "path" alone for one in the compile's memory),
// an empty line, then the object bytes.
const char *kMagic = "arc-host-object 1\n";

std::string hex_sha256(llvm::StringRef data)
{
    llvm::SHA256 h;
    h.update(data);
    auto r = h.final();
    return llvm::toHex(llvm::ArrayRef<uint8_t>(r.data(), r.size()), true);
}

bool stat_of(const std::string &path, long long *size, long long *mtime)
{
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        return false;
    *size = (long long)st.st_size;
    *mtime = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    return true;
}

bool file_sha256(const std::string &path, std::string *out)
{
    auto buf = llvm::MemoryBuffer::getFile(path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
    if (!buf)
        return false;
    *out = hex_sha256((*buf)->getBuffer());
    return true;
}

// Whether the file recorded by one entry line is as it was.
bool unchanged(llvm::StringRef line)
{
    llvm::SmallVector<llvm::StringRef, 4> f;
    line.split(f, '\t');
    if (f.size() == 1)
        return true;  // in the compile's memory: its text is in the key
    if (f.size() != 4)
        return false;
    long long size = 0, mtime = 0, want_size = 0, want_mtime = 0;
    std::string path = f[0].str(), sha;
    if (!stat_of(path, &size, &mtime) || f[1].getAsInteger(10, want_size) || f[2].getAsInteger(10, want_mtime))
        return false;
    if (size == want_size && mtime == want_mtime)
        return true;
    return size == want_size && file_sha256(path, &sha) && sha == f[3];  // touched, same bytes
}

} // namespace

std::string key_of(const char *kind, const std::vector<std::string> &parts, int nfiles, const char **paths,
                   const char **texts)
{
    llvm::SHA256 h;
    auto add = [&h](llvm::StringRef s) {
        uint64_t n = s.size();
        h.update(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&n), sizeof n));
        h.update(s);
    };
    for (const std::string &p : parts)
        add(p);
    for (int i = 0; i < nfiles; i++) {
        add(paths[i]);
        add(texts[i]);
    }
    auto r = h.final();
    // The first line names the kind: the compile cache labels entries by it.
    return std::string("ascendrtc op host code (") + kind + ")\n" + ascendrtc_rtc_fingerprint() + "\n" +
           llvm::toHex(llvm::ArrayRef<uint8_t>(r.data(), r.size()), true);
}

bool load(const std::string &key, Entry *e)
{
    std::string blob;
    if (!arc_rtc::store_load(key, &blob) || blob.compare(0, std::strlen(kMagic), kMagic) != 0)
        return false;
    size_t at = std::strlen(kMagic);
    e->deps.clear();
    for (;;) {
        size_t nl = blob.find('\n', at);
        if (nl == std::string::npos)
            return false;
        llvm::StringRef line(blob.data() + at, nl - at);
        at = nl + 1;
        if (line.empty())
            break;
        if (!unchanged(line))
            return false;
        e->deps.push_back(line.split('\t').first.str());
    }
    e->object = blob.substr(at);
    return !e->object.empty();
}

void save(const std::string &key, const Entry &e, const char *virtual_root)
{
    std::string blob = kMagic;
    for (const std::string &d : e.deps) {
        if (d.empty() || d.find_first_of("\t\n") != std::string::npos)
            return;  // a name the layout cannot hold: not kept
        blob += d;
        if (d.compare(0, std::strlen(virtual_root), virtual_root) != 0) {
            long long size = 0, mtime = 0;
            std::string sha;
            if (!stat_of(d, &size, &mtime) || !file_sha256(d, &sha))
                return;  // gone already: not kept
            blob += "\t" + std::to_string(size) + "\t" + std::to_string(mtime) + "\t" + sha;
        }
        blob += "\n";
    }
    blob += "\n" + e.object;
    arc_rtc::store_save(key, blob);
}

bool emit_object(llvm::Module &m, std::string *out, std::string *log)
{
    auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!jtmb) {
        *log += "error: no target for the host code: " + llvm::toString(jtmb.takeError()) + "\n";
        return false;
    }
    jtmb->setRelocationModel(llvm::Reloc::PIC_);
    jtmb->setCodeModel(llvm::CodeModel::Small);
    auto tm = jtmb->createTargetMachine();
    if (!tm) {
        *log += "error: no target for the host code: " + llvm::toString(tm.takeError()) + "\n";
        return false;
    }
    m.setDataLayout((*tm)->createDataLayout());
    llvm::orc::SimpleCompiler compile(**tm);
    auto obj = compile(m);
    if (!obj) {
        *log += "error: the host code did not compile to an object: " + llvm::toString(obj.takeError()) + "\n";
        return false;
    }
    out->assign((*obj)->getBufferStart(), (*obj)->getBufferSize());
    return true;
}

} // namespace arc_host_cache
