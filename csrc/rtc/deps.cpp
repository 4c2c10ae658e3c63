// deps.cpp - the real files a compile reads, with the sha256 of the bytes
// it read: every file entered or skipped by #include (however the directive
// was spelled: macros, comments, %:, continuations, ../), every #embed and
// every file a __has_include/__has_embed found.  Caches record this list
// with the binary and re-check it on each hit (ascendrtc/_cache_key.py).
// Files under the virtual roots (/arc/...: device headers, in-memory
// headers, the source) are not on disk and are keyed by other means.
// Paths the compile looked for on disk and did not find (a false
// __has_include, the -I directories an #include searched before the one
// that held the file) are listed as "absent": creating one would change
// what the compile reads, so a cache hit needs them still absent.
#include "deps.h"

#include <optional>

#include <clang/Basic/FileEntry.h>
#include <clang/Lex/Token.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/SHA256.h>

#include "compile_result.h"

namespace arc_rtc {
namespace {

const char *const kAbsent = "absent";

// The real file system, noting every path a lookup did not find.
class ProbeFS : public llvm::vfs::ProxyFileSystem {
public:
    ProbeFS(llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> fs, std::set<std::string> &absent)
        : ProxyFileSystem(std::move(fs)), absent_(absent) {}
    llvm::ErrorOr<llvm::vfs::Status> status(const llvm::Twine &path) override
    {
        auto r = ProxyFileSystem::status(path);
        if (!r)
            note(path, r.getError());
        return r;
    }
    llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> openFileForRead(const llvm::Twine &path) override
    {
        auto r = ProxyFileSystem::openFileForRead(path);
        if (!r)
            note(path, r.getError());
        return r;
    }

private:
    void note(const llvm::Twine &path, std::error_code ec)
    {
        if (ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
            return;
        llvm::SmallString<256> p;
        path.toVector(p);
        if (p.starts_with("/arc/"))
            return; // the virtual roots: not on disk
        llvm::sys::fs::make_absolute(p);
        absent_.insert(std::string(p.str()));
    }

    std::set<std::string> &absent_;
};

class DepRecorder : public clang::PPCallbacks {
public:
    DepRecorder(clang::SourceManager &sm, DepMap &deps) : sm_(sm), deps_(deps) {}
    void InclusionDirective(clang::SourceLocation, const clang::Token &, llvm::StringRef, bool,
                            clang::CharSourceRange, clang::OptionalFileEntryRef file, llvm::StringRef,
                            llvm::StringRef, const clang::Module *, bool, clang::SrcMgr::CharacteristicKind) override
    {
        add(file);
    }
    void FileSkipped(const clang::FileEntryRef &file, const clang::Token &, clang::SrcMgr::CharacteristicKind) override
    {
        add(file);
    }
    void EmbedDirective(clang::SourceLocation, llvm::StringRef, bool, clang::OptionalFileEntryRef file,
                        const clang::LexEmbedParametersResult &) override
    {
        add(file);
    }
    void HasEmbed(clang::SourceLocation, llvm::StringRef, bool, clang::OptionalFileEntryRef file) override
    {
        add(file);
    }
    void HasInclude(clang::SourceLocation, llvm::StringRef, bool, clang::OptionalFileEntryRef file,
                    clang::SrcMgr::CharacteristicKind) override
    {
        add(file);
    }

private:
    void add(clang::OptionalFileEntryRef file)
    {
        if (!file)
            return;
        llvm::SmallString<256> path(file->getName());
        if (path.starts_with("/arc/"))
            return;
        llvm::sys::fs::make_absolute(path);
        std::string key(path.str());
        if (deps_.count(key))
            return;
        // The bytes the source manager holds are the bytes compiled.
        std::optional<llvm::MemoryBufferRef> buf = sm_.getMemoryBufferForFileOrNone(*file);
        if (!buf) {
            deps_[key] = "unreadable";
            return;
        }
        llvm::StringRef d = buf->getBuffer();
        auto h = llvm::SHA256::hash(llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(d.data()), d.size()));
        deps_[key] = llvm::toHex(h, true);
    }

    clang::SourceManager &sm_;
    DepMap &deps_;
};

} // namespace

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> make_probe_fs(std::set<std::string> &absent)
{
    return llvm::makeIntrusiveRefCnt<ProbeFS>(llvm::vfs::getRealFileSystem(), absent);
}

std::unique_ptr<clang::PPCallbacks> make_dep_recorder(clang::SourceManager &sm, DepMap &deps)
{
    return std::make_unique<DepRecorder>(sm, deps);
}

// A path with a newline cannot be listed, so the list then says "!" (no
// cache may keep the result).
char *format_deps(DepMap &deps, const std::set<std::string> &absent)
{
    for (const std::string &a : absent)
        deps.emplace(a, kAbsent); // a file found later keeps its hash
    std::string out;
    for (auto &d : deps) {
        if (d.first.find('\n') != std::string::npos)
            return dup("!\tan included file's path holds a newline\n");
        out += d.second + "\t" + d.first + "\n";
    }
    return dup(out);
}

} // namespace arc_rtc
