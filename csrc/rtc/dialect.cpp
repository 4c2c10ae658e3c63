// dialect.cpp - see dialect.h.
#include "dialect.h"

#include <cctype>
#include <cstring>

#include "core_pass.h"
#include "launch_lower.h"
#include "lenient.h"

namespace arc_rtc {
namespace {

bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// A rewritten file: its text lives in the DialectFS's cache.
class MemFile : public llvm::vfs::File {
public:
    MemFile(llvm::vfs::Status st, const std::string *text) : st_(std::move(st)), text_(text) {}
    llvm::ErrorOr<llvm::vfs::Status> status() override { return st_; }
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> getBuffer(const llvm::Twine &name, int64_t, bool nul,
                                                                 bool) override
    {
        return llvm::MemoryBuffer::getMemBuffer(*text_, name.str(), nul);
    }
    std::error_code close() override { return {}; }

private:
    llvm::vfs::Status st_;
    const std::string *text_;
};

// Whether text[i..] is `[` target-list `]`; its end (one past `]`) in *end.
bool target_list(const std::string &t, size_t i, size_t *end)
{
    size_t k = i + 1;
    int names = 0;
    for (;;) {
        while (k < t.size() && (t[k] == ' ' || t[k] == '\t'))
            k++;
        size_t s = k;
        while (k < t.size() && ident_char(t[k]))
            k++;
        std::string w = t.substr(s, k - s);
        if (w != "host" && w != "aicore")
            return false;
        names++;
        while (k < t.size() && (t[k] == ' ' || t[k] == '\t'))
            k++;
        if (k < t.size() && t[k] == ']') {
            *end = k + 1;
            return names <= 2;
        }
        if (k >= t.size() || t[k] != ',')
            return false;
        k++;
    }
}

// The identifier that ends right before i (blanks skipped), or "" (and
// *start_of_line when only blanks precede i on its line).
std::string word_before(const std::string &t, size_t i, bool *line_start)
{
    size_t k = i;
    while (k > 0 && (t[k - 1] == ' ' || t[k - 1] == '\t'))
        k--;
    *line_start = k == 0 || t[k - 1] == '\n';
    size_t e = k;
    while (k > 0 && ident_char(t[k - 1]))
        k--;
    return t.substr(k, e - k);
}

} // namespace

int blank_target_attributes(std::string &t)
{
    static const char *const kSpecifiers[] = {"__forceinline__", "inline", "static", "constexpr", "__aicore__",
                                              "__global__", "__host__"};
    int n = 0;
    for (size_t i = t.find('['); i != std::string::npos; i = t.find('[', i + 1)) {
        size_t end;
        if (!target_list(t, i, &end))
            continue;
        bool line_start;
        std::string w = word_before(t, i, &line_start);
        bool ok = line_start && w.empty();
        for (const char *s : kSpecifiers)
            ok = ok || w == s;
        if (!ok)
            continue;
        for (size_t k = i; k < end; k++)
            t[k] = ' ';
        n++;
    }
    return n;
}

const std::string *DialectFS::rewritten(const std::string &path)
{
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(path);
    if (it != cache_.end())
        return it->second.get();
    std::unique_ptr<std::string> text;
    auto buf = getUnderlyingFS().getBufferForFile(path, -1, false);
    if (buf) {
        llvm::StringRef s = (*buf)->getBuffer();
        core_pass_ = core_pass_ || arc_rtc::names_core_pass(s);
        bool attr = s.contains("[host") || s.contains("[aicore");
        if (attr || s.contains("<<<")) {
            auto t = std::make_unique<std::string>(s.str());
            int changed = attr ? blank_target_attributes(*t) : 0;
            if (s.contains("<<<")) { /* lowered for ascendrtc cc, else blanked as in the main text */
                std::string log;
                int m = lower_ ? lower_host_launches(path.c_str(), *t, &log)
                               : blank_host_launches(path.c_str(), *t, &log);
                if (m > 0 && lower_) /* the launch helpers, then the header's own line numbers */
                    *t = "#include \"arc/launch.h\"\n#line 1\n" + *t;
                changed += m > 0 ? m : 0;
            }
            if (changed)
                text = std::move(t);
        }
    }
    return cache_.emplace(path, std::move(text)).first->second.get();
}

llvm::ErrorOr<llvm::vfs::Status> DialectFS::status(const llvm::Twine &path)
{
    /* clang opens what it includes and takes the size from the open file;
     * a file already rewritten answers with its new size here too */
    auto st = ProxyFileSystem::status(path);
    if (!st || !st->isRegularFile())
        return st;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = cache_.find(path.str());
    if (it == cache_.end() || !it->second)
        return st;
    return llvm::vfs::Status::copyWithNewSize(*st, it->second->size());
}

llvm::ErrorOr<std::unique_ptr<llvm::vfs::File>> DialectFS::openFileForRead(const llvm::Twine &path)
{
    auto f = ProxyFileSystem::openFileForRead(path);
    if (!f)
        return f;
    std::string p = path.str();
    const std::string *t = rewritten(p);
    if (!t)
        return f;
    auto st = (*f)->status();
    if (!st)
        return f;
    return std::unique_ptr<llvm::vfs::File>(
        std::make_unique<MemFile>(llvm::vfs::Status::copyWithNewSize(*st, t->size()), t));
}

} // namespace arc_rtc
