// host_cache.h - op host code kept between processes.  A compile of op
// host code (host_op.cpp: an op's files, or one library unit) keeps the
// object it made, after host_ctors' moves, under a key of everything it
// was compiled from (the compiler's fingerprint, its options, every input
// text), with the files outside the compile's memory that it read (path,
// size, mtime, sha256), re-checked on every hit: a changed header is a
// miss.  Kept in the store the compile cache lends (pch.h store_load and
// store_save), so its modes, directory, size cap and CLI apply.
#ifndef ARC_RTC_HOST_CACHE_H_
#define ARC_RTC_HOST_CACHE_H_

#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wredundant-move"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <clang/Frontend/Utils.h>
#include <llvm/IR/Module.h>
#pragma GCC diagnostic pop

namespace arc_host_cache {

// One kept compile: every file it read (the library units an op needs are
// found from them) and its object code.
struct Entry {
    std::vector<std::string> deps;
    std::string object;
};

// The key of a compile: its kind ("op", "unit"), the compiler's
// fingerprint, `parts` (options, main files, ...) and every input file.
std::string key_of(const char *kind, const std::vector<std::string> &parts, int nfiles, const char **paths,
                   const char **texts);

// The kept entry for `key` whose files are unchanged into *e; false on a
// miss, a changed or vanished file, no store, or an entry it cannot read.
bool load(const std::string &key, Entry *e);

// Keeps `e` under `key` (its files' size, mtime and hash taken now); files
// under `virtual_root` are in the compile's memory (their text is in the
// key) and recorded by name only.  Does nothing where no store is lent.
void save(const std::string &key, const Entry &e, const char *virtual_root);

// The object code of `m` for this host, as the JIT makes it; false with
// the reason in *log.
bool emit_object(llvm::Module &m, std::string *out, std::string *log);

// Every file a compile reads, the system headers (libstdc++) included.
class AllDeps : public clang::DependencyCollector {
public:
    bool needSystemDependencies() override { return true; }
};

} // namespace arc_host_cache

#endif
