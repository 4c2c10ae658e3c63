// launch_deduce.cpp - see launch_lower.h (template kernels whose
// <<<...>>> launch leaves their arguments to deduction).
#include "launch_lower.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

extern "C" {
#include "kscan.h"
}

namespace arc_rtc {
namespace {

bool ident_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The index after the literal or comment starting at i, or i when there is
// none there.
size_t skip_lexeme(const std::string &t, size_t i)
{
    if (t.compare(i, 2, "//") == 0) {
        size_t e = t.find('\n', i);
        return e == std::string::npos ? t.size() : e;
    }
    if (t.compare(i, 2, "/*") == 0) {
        size_t e = t.find("*/", i + 2);
        return e == std::string::npos ? t.size() : e + 2;
    }
    if (t[i] == '"' || t[i] == '\'') {
        size_t j = i + 1;
        while (j < t.size() && t[j] != t[i] && t[j] != '\n')
            j += t[j] == '\\' ? 2 : 1;
        return std::min(j + 1, t.size());
    }
    return i;
}

// The index just after the bracket closing the one at i; npos when unbalanced.
size_t match(const std::string &t, size_t i)
{
    const char open = t[i], close = open == '(' ? ')' : open == '{' ? '}' : '>';
    int depth = 0;
    while (i < t.size()) {
        size_t j = skip_lexeme(t, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (t[i] == open)
            depth++;
        else if (t[i] == close && --depth == 0)
            return i + 1;
        else if (open == '<' && (t[i] == ';' || t[i] == '{'))
            return std::string::npos;
        i++;
    }
    return std::string::npos;
}

size_t line_start(const std::string &t, int line)
{
    size_t p = 0;
    for (int l = 1; l < line && p != std::string::npos; l++)
        if ((p = t.find('\n', p)) != std::string::npos)
            p++;
    return p;
}

std::string one_line(std::string s)
{
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s;
}

// A template kernel's deduction twin, placed after its declaration (on the
// same line, so no line moves): a declaration with the kernel's template
// head and parameter types whose return type is the kernel's function
// pointer type; `decltype(__arc_deduce_k(args...))` is then the type of
// the instance a call k(args...) deduces, and static_cast<that>(&k) the
// instance itself.
bool add_twin(std::string &t, const kscan_kernel &k, std::vector<std::pair<size_t, std::string>> &out)
{
    size_t ls = line_start(t, k.line);
    if (ls == std::string::npos)
        return false;
    size_t name = ls;
    const size_t blen = std::strlen(k.base);
    while ((name = t.find(k.base, name)) != std::string::npos &&
           ((name > 0 && ident_char(t[name - 1])) || ident_char(t[name + blen])))
        name += blen;
    size_t tp = name == std::string::npos ? name : t.rfind("template", name);
    if (tp == std::string::npos)
        return false;
    size_t lt = t.find('<', tp), gt = lt == std::string::npos ? lt : match(t, lt);
    size_t open = t.find('(', name + blen);
    size_t close = open == std::string::npos ? open : match(t, open);
    if (gt == std::string::npos || gt > name || close == std::string::npos)
        return false;
    size_t end = t.find_first_of(";{", close);
    if (end != std::string::npos && t[end] == '{')
        end = match(t, end);
    else if (end != std::string::npos)
        end++;
    if (end == std::string::npos)
        return false;
    std::string types;
    for (int i = 0; i < k.nparams; i++)
        types += std::string(i ? ", " : "") + k.params[i].type;
    out.push_back({end, " template " + one_line(t.substr(lt, gt - lt)) + " auto __arc_deduce_" + k.base + "(" +
                            types + ") -> void (*)(" + types + ");"});
    return true;
}

// The names launched bare, as `k<<<` (no template arguments of their own).
std::vector<std::string> bare_launches(const std::string &text)
{
    std::vector<std::string> names;
    for (size_t p = 0; (p = text.find("<<<", p)) != std::string::npos; p += 3) {
        size_t e = p;
        while (e > 0 && std::isspace(static_cast<unsigned char>(text[e - 1])))
            e--;
        size_t b = e;
        while (b > 0 && ident_char(text[b - 1]))
            b--;
        if (b < e && std::find(names.begin(), names.end(), text.substr(b, e - b)) == names.end())
            names.push_back(text.substr(b, e - b));
    }
    return names;
}

} // namespace

std::set<std::string> add_deduction_twins(std::string &text, const rtc_opts *opts)
{
    std::set<std::string> out;
    kscan_result ks;
    std::vector<std::string> launched = bare_launches(text);
    std::vector<const char *> names;
    for (const std::string &n : launched)
        names.push_back(n.c_str());
    const kscan_macros km = {opts->nmacros, opts->macros};
    if (kscan_launched(text.c_str(), &km, names.data(), (int)names.size(), &ks) != 0)
        return out;
    std::vector<std::pair<size_t, std::string>> twins;
    for (int i = 0; i < ks.nkernels; i++) {
        const kscan_kernel &k = ks.kernels[i];
        if (!k.is_template || out.count(k.base))
            continue;
        // only a kernel launched without template arguments somewhere
        bool bare = false;
        for (size_t p = 0; !bare && (p = text.find(k.base, p)) != std::string::npos; p++) {
            size_t e = p + std::strlen(k.base);
            while (e < text.size() && std::isspace(static_cast<unsigned char>(text[e])))
                e++;
            bare = (p == 0 || !ident_char(text[p - 1])) && text.compare(e, 3, "<<<") == 0;
        }
        if (bare && add_twin(text, k, twins))
            out.insert(k.base);
    }
    kscan_free(&ks);
    std::sort(twins.begin(), twins.end(), [](auto &a, auto &b) { return a.first > b.first; });
    for (auto &[at, s] : twins)
        text.insert(at, s);
    return out;
}

std::string deduced_kernel(const std::string &text, size_t args_open, const std::string &callee,
                           const std::set<std::string> &deduced)
{
    size_t q = callee.rfind("::");
    std::string base = q == std::string::npos ? callee : callee.substr(q + 2);
    if (!deduced.count(base) || args_open >= text.size() || text[args_open] != '(')
        return "";
    size_t close = match(text, args_open);
    if (close == std::string::npos)
        return "";
    std::string args = text.substr(args_open, close - args_open);
    if (args.find("//") != std::string::npos || args.find("/*") != std::string::npos ||
        args.find('#') != std::string::npos)
        return "";
    std::string twin = (q == std::string::npos ? "" : callee.substr(0, q + 2)) + "__arc_deduce_" + base;
    return "static_cast<decltype(" + twin + one_line(args) + ")>(&" + callee + ")";
}

} // namespace arc_rtc
