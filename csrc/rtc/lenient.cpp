// lenient.cpp - see lenient.h.
#include "lenient.h"
#include "src_line.h"

#include <cctype>
#include <cstring>

namespace arc_rtc {
namespace {

bool ident_char(char c) { return std::isalnum((unsigned char)c) || c == '_'; }

// Index of the last significant character before `i` (skipping blanks and
// // or /* */ comments), or -1.
long prev_sig(const char *t, long i)
{
    while (--i >= 0) {
        char c = t[i];
        if (std::isspace((unsigned char)c))
            continue;
        if (c == '/' && i > 0 && t[i - 1] == '*') {  // end of a block comment
            i -= 2;
            while (i > 0 && !(t[i - 1] == '/' && t[i] == '*'))
                i--;
            i--;
            continue;
        }
        // a line comment: find the line start; if the line holds "//" before i, skip to it
        long ls = i;
        while (ls > 0 && t[ls - 1] != '\n')
            ls--;
        const char *cm = nullptr;
        for (long k = ls; k + 1 <= i; k++)
            if (t[k] == '/' && t[k + 1] == '/') {
                cm = t + k;
                break;
            }
        if (cm) {
            i = cm - t;
            continue;
        }
        return i;
    }
    return -1;
}

// The word ending at index e (inclusive), for keywords before ASSERT.
std::string word_before(const char *t, long e)
{
    long s = e;
    while (s > 0 && ident_char(t[s - 1]))
        s--;
    return std::string(t + s, (size_t)(e - s + 1));
}

} // namespace

bool lenient_assert(const char *name, const char *text, size_t len, std::vector<std::string> &args,
                    std::string *log)
{
    const char *p = text, *end = text + len;
    while ((p = (const char *)memmem(p, (size_t)(end - p), "ASSERT", 6)) != nullptr) {
        long i = p - text;
        const char *q = p + 6;
        p = q;
        if (i > 0 && ident_char(text[i - 1]))
            continue;
        while (q < end && (*q == ' ' || *q == '\t'))
            q++;
        if (q >= end || *q != '(')
            continue;
        long b = prev_sig(text, i);
        if (b < 0)
            continue;
        char c = text[b];
        if (c == ';' || c == '{' || c == '}' || c == ')' || c == ':' || c == ',' || c == '(' || c == '\\')
            continue;
        // a preprocessor line (#define X ASSERT(...)) or a keyword is fine
        long ls = i;
        while (ls > 0 && text[ls - 1] != '\n')
            ls--;
        while (ls < i && (text[ls] == ' ' || text[ls] == '\t'))
            ls++;
        if (text[ls] == '#')
            continue;
        if (ident_char(c)) {
            std::string w = word_before(text, b);
            if (w == "else" || w == "do" || w == "return")
                continue;
        }
        int line = src_line(llvm::StringRef(text, len), (size_t)i);
        args.push_back("-DASSERT(...)=");
        *log += std::string(name) + ":" + std::to_string(line) +
                ":1: warning: ASSERT(...) follows a statement that lacks its ';'; compiled with ASSERT "
                "expanding to nothing, as CANN's device build does (ASSERT checks are off for this program)\n";
        return true;
    }
    return false;
}

int blank_host_launches(const char *name, std::string &text, std::string *log)
{
    int n = 0;
    size_t pos = 0;
    while ((pos = text.find("<<<", pos)) != std::string::npos) {
        size_t close = text.find(">>>", pos + 3);
        if (close == std::string::npos)
            break;
        size_t after = close + 3;
        while (after < text.size() && std::isspace((unsigned char)text[after]))
            after++;
        // only a launch: an identifier (or >) before, a call after
        size_t b = pos;
        while (b > 0 && std::isspace((unsigned char)text[b - 1])) /* also a launch on the line after its name */
            b--;
        if (after >= text.size() || text[after] != '(' || b == 0 || !(ident_char(text[b - 1]) || text[b - 1] == '>')) {
            pos += 3;
            continue;
        }
        if (n++ == 0) {
            int line = src_line(text, pos);
            *log += std::string(name) + ":" + std::to_string(line) +
                    ":1: warning: a <<<...>>> kernel launch in host code: compiled as CANN's single-source flow "
                    "does, the host part is not run (launch the kernel from Python)\n";
        }
        for (size_t k = pos; k < close + 3; k++)
            if (text[k] != '\n')
                text[k] = ' ';
        pos = close + 3;
    }
    return n;
}

} // namespace arc_rtc
