// launch_lower.cpp - see launch_lower.h.
#include "launch_lower.h"
#include "src_line.h"

#include <cctype>
#include <cstring>

namespace arc_rtc {
namespace {

bool ident_char(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

size_t skip_space_back(const std::string &t, size_t i)
{
    while (i > 0 && std::isspace(static_cast<unsigned char>(t[i - 1])))
        i--;
    return i;
}

// The start of the name that ends at `end` (exclusive): identifiers,
// template argument lists and `::`, as in ns::kernel<T, 4>.  `end` when
// there is none.
size_t callee_start(const std::string &t, size_t end)
{
    size_t i = skip_space_back(t, end);
    for (;;) {
        if (i > 0 && t[i - 1] == '>') { // a template argument list: back to its '<'
            int depth = 0;
            size_t j = i;
            while (j > 0) {
                char c = t[--j];
                if (c == '>')
                    depth++;
                else if (c == '<' && --depth == 0)
                    break;
                else if (c == ';' || c == '{' || c == '}')
                    return end;
            }
            if (depth != 0)
                return end;
            i = skip_space_back(t, j);
        }
        size_t k = i;
        while (k > 0 && ident_char(t[k - 1]))
            k--;
        if (k == i)
            return end;
        i = k;
        size_t q = skip_space_back(t, i);
        if (q >= 2 && t[q - 1] == ':' && t[q - 2] == ':') {
            i = skip_space_back(t, q - 2);
            if (i == 0 || !(ident_char(t[i - 1]) || t[i - 1] == '>'))
                return q - 2; // a name from the global namespace, ::k
            continue;
        }
        return i;
    }
}

// How many arguments the parenthesised list at `open` passes: its
// top-level commas (outside (), [], {} and literals) plus one, 0 if empty.
unsigned count_args(const std::string &t, size_t open)
{
    int depth = 0;
    unsigned commas = 0;
    bool any = false;
    for (size_t i = open; i < t.size(); i++) {
        char c = t[i];
        if (c == '"' || c == '\'') { // a literal
            for (i++; i < t.size() && t[i] != c; i++)
                if (t[i] == '\\')
                    i++;
            any = true;
            continue;
        }
        if (c == '(' || c == '[' || c == '{') {
            if (depth++ > 0)
                any = true;
        } else if (c == ')' || c == ']' || c == '}') {
            if (--depth == 0)
                break;
        } else if (c == ',' && depth == 1) {
            commas++;
        } else if (!std::isspace(static_cast<unsigned char>(c))) {
            any = true;
        }
    }
    return any ? commas + 1 : 0;
}

} // namespace

int lower_host_launches(const char *name, std::string &text, std::string *log, const std::set<std::string> *deduced)
{
    int n = 0;
    size_t pos = 0;
    while ((pos = text.find("<<<", pos)) != std::string::npos) {
        size_t close = text.find(">>>", pos + 3);
        size_t after = close == std::string::npos ? close : close + 3;
        while (after < text.size() && std::isspace(static_cast<unsigned char>(text[after])))
            after++;
        size_t start = callee_start(text, pos);
        if (close == std::string::npos || after >= text.size() || text[after] != '(' || start == pos) {
            // `a <<< b` elsewhere (a shift, a string) is left alone; a launch
            // shape without a name is an error
            if (close != std::string::npos && after < text.size() && text[after] == '(') {
                *log += std::string(name) + ":" + std::to_string(src_line(text, pos)) +
                        ":1: error: cannot read the kernel name of this <<<...>>> launch (ascendrtc lowers "
                        "launches of a named kernel, e.g. k<<<n, 0, stream>>>(...) or ns::k<T><<<...>>>(...))\n";
                return -1;
            }
            pos += 3;
            continue;
        }
        std::string callee = text.substr(start, pos - start);
        while (!callee.empty() && std::isspace(static_cast<unsigned char>(callee.back())))
            callee.pop_back();
        std::string cfg = text.substr(pos + 3, close - pos - 3);
        std::string kfn = deduced && callee.find('<') == std::string::npos
                              ? deduced_kernel(text, after, callee, *deduced)
                              : std::string();
        // else the kernel among its overloads by the launch's argument count
        if (kfn.empty())
            kfn = "::__arc::pick<" + std::to_string(count_args(text, after)) + ">::of(" + callee + ")";
        std::string repl = "::__arc::launch<" + kfn + " >(__FILE__, __LINE__, " + cfg + ")";
        text.replace(start, close + 3 - start, repl);
        pos = start + repl.size();
        n++;
    }
    return n;
}

} // namespace arc_rtc
