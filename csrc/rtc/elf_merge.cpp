// elf_merge.cpp - see elf_merge.h.  The parts come from LLVM's x86-64
// object writer; anything beyond what it writes for a device module
// (groups, SHT_REL, extended section indices, linked-order sections) is
// refused, and the caller then generates code for the module whole.
#include "elf_merge.h"

#include <elf.h>

#include <cstring>
#include <map>
#include <tuple>

namespace arc_rtc {
namespace {

const Elf64_Word kAddrsig = 0x6fff4c03; // SHT_LLVM_ADDRSIG: a hint, dropped

struct Part {
    const char *d = nullptr;
    size_t len = 0;
    Elf64_Ehdr eh{};
    std::vector<Elf64_Shdr> sh;
    std::vector<Elf64_Sym> syms;
    const char *str = nullptr, *shstr = nullptr;
    size_t strlen = 0, shstrlen = 0;
};

bool inside(uint64_t off, uint64_t size, size_t len) { return off <= len && size <= len - off; }

const char *name_at(const char *tab, size_t len, uint32_t off) { return off < len ? tab + off : ""; }

bool parse(const std::vector<char> &buf, Part &p, std::string *err)
{
    p.d = buf.data();
    p.len = buf.size();
    if (p.len < sizeof p.eh)
        return *err = "a part is shorter than an ELF header", false;
    std::memcpy(&p.eh, p.d, sizeof p.eh);
    if (std::memcmp(p.eh.e_ident, ELFMAG, SELFMAG) || p.eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        p.eh.e_type != ET_REL || p.eh.e_shentsize != sizeof(Elf64_Shdr) || p.eh.e_shnum == 0 ||
        p.eh.e_shstrndx >= p.eh.e_shnum || !inside(p.eh.e_shoff, p.eh.e_shnum * sizeof(Elf64_Shdr), p.len))
        return *err = "a part is not an ELF64 relocatable object", false;
    p.sh.resize(p.eh.e_shnum);
    std::memcpy(p.sh.data(), p.d + p.eh.e_shoff, p.sh.size() * sizeof(Elf64_Shdr));
    unsigned nsymtab = 0;
    for (const Elf64_Shdr &s : p.sh) {
        if (s.sh_type != SHT_NOBITS && s.sh_type != SHT_NULL && !inside(s.sh_offset, s.sh_size, p.len))
            return *err = "a part's section lies outside it", false;
        if (s.sh_type != SHT_SYMTAB)
            continue;
        if (nsymtab++ || s.sh_link >= p.sh.size() || s.sh_entsize != sizeof(Elf64_Sym))
            return *err = "a part's symbol table is not the one LLVM writes", false;
        p.syms.resize(s.sh_size / sizeof(Elf64_Sym));
        std::memcpy(p.syms.data(), p.d + s.sh_offset, p.syms.size() * sizeof(Elf64_Sym));
        p.str = p.d + p.sh[s.sh_link].sh_offset;
        p.strlen = p.sh[s.sh_link].sh_size;
    }
    p.shstr = p.d + p.sh[p.eh.e_shstrndx].sh_offset;
    p.shstrlen = p.sh[p.eh.e_shstrndx].sh_size;
    return nsymtab == 1 || (*err = "a part has no symbol table", false);
}

struct OutSec {
    std::string name;
    Elf64_Word type = SHT_NULL;
    Elf64_Xword flags = 0, entsize = 0, align = 1, size = 0;
    std::vector<char> data;
    std::vector<Elf64_Rela> rela;
};

struct Strtab {
    std::vector<char> b{0};
    uint32_t add(const char *s)
    {
        if (!*s)
            return 0;
        uint32_t at = (uint32_t)b.size();
        b.insert(b.end(), s, s + std::strlen(s) + 1);
        return at;
    }
};

} // namespace

bool elf_merge(const std::vector<std::vector<char>> &bufs, const std::set<std::string> &local, std::vector<char> &out,
               std::string *err)
{
    std::vector<Part> parts(bufs.size());
    for (size_t i = 0; i < bufs.size(); i++)
        if (!parse(bufs[i], parts[i], err))
            return false;

    // Content sections: one output section per (name, type, flags, entsize).
    std::vector<OutSec> secs(1);
    std::map<std::tuple<std::string, Elf64_Word, Elf64_Xword, Elf64_Xword>, unsigned> by_key;
    std::vector<std::vector<std::pair<unsigned, Elf64_Xword>>> at(parts.size()); // [part][section]: out, offset
    for (size_t pi = 0; pi < parts.size(); pi++) {
        Part &p = parts[pi];
        at[pi].assign(p.sh.size(), {0, 0});
        for (size_t i = 1; i < p.sh.size(); i++) {
            const Elf64_Shdr &s = p.sh[i];
            if (s.sh_type == SHT_SYMTAB || s.sh_type == SHT_STRTAB || s.sh_type == SHT_RELA || s.sh_type == kAddrsig)
                continue;
            if (s.sh_type == SHT_GROUP || s.sh_type == SHT_REL || s.sh_type == SHT_SYMTAB_SHNDX ||
                (s.sh_flags & (SHF_GROUP | SHF_LINK_ORDER)) || s.sh_link || s.sh_info)
                return *err = "section " + std::string(name_at(p.shstr, p.shstrlen, s.sh_name)) + " is not joined",
                       false;
            auto key = std::make_tuple(std::string(name_at(p.shstr, p.shstrlen, s.sh_name)), s.sh_type, s.sh_flags,
                                       s.sh_entsize);
            auto [it, fresh] = by_key.emplace(key, (unsigned)secs.size());
            if (fresh) {
                OutSec o;
                o.name = std::get<0>(key);
                o.type = s.sh_type;
                o.flags = s.sh_flags;
                o.entsize = s.sh_entsize;
                secs.push_back(std::move(o));
            }
            OutSec &o = secs[it->second];
            Elf64_Xword al = s.sh_addralign ? s.sh_addralign : 1;
            Elf64_Xword off = (o.size + al - 1) / al * al;
            if (off != o.size && s.sh_type == SHT_X86_64_UNWIND) /* zeros there would end .eh_frame */
                return *err = ".eh_frame pieces need padding", false;
            o.align = std::max(o.align, al);
            if (s.sh_type != SHT_NOBITS) {
                o.data.resize(off);
                o.data.insert(o.data.end(), p.d + s.sh_offset, p.d + s.sh_offset + s.sh_size);
            }
            o.size = off + s.sh_size;
            at[pi][i] = {it->second, off};
        }
    }
    if (secs.size() + secs.size() + 3 >= SHN_LORESERVE)
        return *err = "too many sections", false;

    // Symbols: the null one, one per output section, the parts' locals,
    // the internal names made local again, then the globals.
    Strtab str;
    std::vector<Elf64_Sym> syms(1);
    for (unsigned i = 1; i < secs.size(); i++) {
        Elf64_Sym s{};
        s.st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
        s.st_shndx = (Elf64_Section)i;
        syms.push_back(s);
    }
    std::vector<std::vector<uint32_t>> sym_at(parts.size());       // [part][symbol]: output symbol
    std::vector<std::vector<Elf64_Sxword>> addend(parts.size());   // [part][symbol]: its piece's offset
    std::map<std::string, std::pair<size_t, size_t>> defs;          // global name: the defining part, symbol
    for (size_t pi = 0; pi < parts.size(); pi++) {
        Part &p = parts[pi];
        sym_at[pi].assign(p.syms.size(), 0);
        addend[pi].assign(p.syms.size(), 0);
        for (size_t k = 1; k < p.syms.size(); k++) {
            Elf64_Sym s = p.syms[k];
            const char *nm = name_at(p.str, p.strlen, s.st_name);
            bool undef = s.st_shndx == SHN_UNDEF;
            if (s.st_shndx == SHN_COMMON || s.st_shndx == SHN_XINDEX ||
                (s.st_shndx >= SHN_LORESERVE && s.st_shndx != SHN_ABS) || (!undef && s.st_shndx < SHN_LORESERVE &&
                                                                           (s.st_shndx >= p.sh.size())))
                return *err = std::string("symbol ") + nm + " is not joined", false;
            bool placed = !undef && s.st_shndx < SHN_LORESERVE;
            if (ELF64_ST_BIND(s.st_info) != STB_LOCAL) {
                if (!undef && !defs.emplace(nm, std::make_pair(pi, k)).second)
                    return *err = std::string("symbol ") + nm + " is defined in two parts", false;
                continue;
            }
            if (placed && !at[pi][s.st_shndx].first) { /* in a dropped section */
                if (ELF64_ST_TYPE(s.st_info) != STT_SECTION)
                    return *err = std::string("symbol ") + nm + " lies in a dropped section", false;
                continue;
            }
            if (ELF64_ST_TYPE(s.st_info) == STT_SECTION) {
                sym_at[pi][k] = at[pi][s.st_shndx].first; /* the output section's symbol */
                addend[pi][k] = (Elf64_Sxword)at[pi][s.st_shndx].second;
                continue;
            }
            if (placed) {
                s.st_value += at[pi][s.st_shndx].second;
                s.st_shndx = (Elf64_Section)at[pi][s.st_shndx].first;
            }
            s.st_name = str.add(nm);
            sym_at[pi][k] = (uint32_t)syms.size();
            syms.push_back(s);
        }
    }
    std::map<std::string, uint32_t> global_at;
    auto emit_def = [&](const std::string &nm, bool as_local) {
        auto [pi, k] = defs.at(nm);
        Elf64_Sym s = parts[pi].syms[k];
        if (s.st_shndx < SHN_LORESERVE) {
            if (!at[pi][s.st_shndx].first)
                return false;
            s.st_value += at[pi][s.st_shndx].second;
            s.st_shndx = (Elf64_Section)at[pi][s.st_shndx].first;
        }
        if (as_local) {
            s.st_info = ELF64_ST_INFO(STB_LOCAL, ELF64_ST_TYPE(s.st_info));
            s.st_other = STV_DEFAULT;
        }
        s.st_name = str.add(nm.c_str());
        global_at[nm] = (uint32_t)syms.size();
        syms.push_back(s);
        return true;
    };
    for (const auto &d : defs)
        if (local.count(d.first) && !emit_def(d.first, true))
            return *err = "symbol " + d.first + " lies in a dropped section", false;
    const uint32_t nlocal = (uint32_t)syms.size();
    for (size_t pi = 0; pi < parts.size(); pi++)
        for (size_t k = 1; k < parts[pi].syms.size(); k++) {
            const Elf64_Sym &s = parts[pi].syms[k];
            if (ELF64_ST_BIND(s.st_info) == STB_LOCAL)
                continue;
            std::string nm = name_at(parts[pi].str, parts[pi].strlen, s.st_name);
            if (!global_at.count(nm)) {
                if (defs.count(nm)) {
                    if (!emit_def(nm, false))
                        return *err = "symbol " + nm + " lies in a dropped section", false;
                } else { /* undefined everywhere: weak only if every reference is */
                    Elf64_Sym u = s;
                    u.st_name = str.add(nm.c_str());
                    global_at[nm] = (uint32_t)syms.size();
                    syms.push_back(u);
                }
            } else if (!defs.count(nm) && ELF64_ST_BIND(s.st_info) == STB_GLOBAL)
                syms[global_at[nm]].st_info = ELF64_ST_INFO(STB_GLOBAL, ELF64_ST_TYPE(syms[global_at[nm]].st_info));
            sym_at[pi][k] = global_at[nm];
        }

    // Relocations follow their pieces and symbols.
    for (size_t pi = 0; pi < parts.size(); pi++) {
        Part &p = parts[pi];
        for (const Elf64_Shdr &r : p.sh) {
            if (r.sh_type != SHT_RELA)
                continue;
            if (r.sh_info >= p.sh.size() || p.sh[r.sh_link].sh_type != SHT_SYMTAB || r.sh_entsize != sizeof(Elf64_Rela))
                return *err = "a part's relocation section is not the one LLVM writes", false;
            auto [osec, off] = at[pi][r.sh_info];
            if (!osec)
                return *err = "relocations of a dropped section", false;
            for (uint64_t j = 0; j < r.sh_size / sizeof(Elf64_Rela); j++) {
                Elf64_Rela e;
                std::memcpy(&e, p.d + r.sh_offset + j * sizeof e, sizeof e);
                uint32_t sym = (uint32_t)ELF64_R_SYM(e.r_info);
                if (sym >= p.syms.size() || (sym && !sym_at[pi][sym]))
                    return *err = "a relocation names a symbol that is not joined", false;
                e.r_offset += off;
                e.r_addend += addend[pi][sym];
                e.r_info = ELF64_R_INFO(sym ? sym_at[pi][sym] : 0, ELF64_R_TYPE(e.r_info));
                secs[osec].rela.push_back(e);
            }
        }
    }

    // The file: header, section contents, section headers.
    Strtab shstr;
    std::vector<Elf64_Shdr> hdr(1, Elf64_Shdr{});
    out.assign(sizeof(Elf64_Ehdr), 0);
    auto place = [&](const void *data, size_t n, Elf64_Xword al) {
        size_t off = (out.size() + al - 1) / al * al;
        out.resize(off);
        out.insert(out.end(), static_cast<const char *>(data), static_cast<const char *>(data) + n);
        return off;
    };
    for (unsigned i = 1; i < secs.size(); i++) {
        OutSec &o = secs[i];
        Elf64_Shdr h{};
        h.sh_name = shstr.add(o.name.c_str());
        h.sh_type = o.type;
        h.sh_flags = o.flags;
        h.sh_entsize = o.entsize;
        h.sh_addralign = o.align;
        h.sh_size = o.size;
        h.sh_offset = o.type == SHT_NOBITS ? out.size() : place(o.data.data(), o.data.size(), o.align);
        hdr.push_back(h);
    }
    const unsigned symtab = (unsigned)(hdr.size());
    unsigned nrela = 0;
    for (unsigned i = 1; i < secs.size(); i++)
        nrela += !secs[i].rela.empty();
    const unsigned symtab_at = symtab + nrela, strtab_at = symtab_at + 1;
    for (unsigned i = 1; i < secs.size(); i++) {
        if (secs[i].rela.empty())
            continue;
        Elf64_Shdr h{};
        h.sh_name = shstr.add((".rela" + secs[i].name).c_str());
        h.sh_type = SHT_RELA;
        h.sh_flags = SHF_INFO_LINK;
        h.sh_link = symtab_at;
        h.sh_info = i;
        h.sh_entsize = sizeof(Elf64_Rela);
        h.sh_addralign = 8;
        h.sh_size = secs[i].rela.size() * sizeof(Elf64_Rela);
        h.sh_offset = place(secs[i].rela.data(), h.sh_size, 8);
        hdr.push_back(h);
    }
    Elf64_Shdr sy{};
    sy.sh_name = shstr.add(".symtab");
    sy.sh_type = SHT_SYMTAB;
    sy.sh_link = strtab_at;
    sy.sh_info = nlocal;
    sy.sh_entsize = sizeof(Elf64_Sym);
    sy.sh_addralign = 8;
    sy.sh_size = syms.size() * sizeof(Elf64_Sym);
    sy.sh_offset = place(syms.data(), sy.sh_size, 8);
    hdr.push_back(sy);
    Elf64_Shdr st{};
    st.sh_name = shstr.add(".strtab");
    st.sh_type = SHT_STRTAB;
    st.sh_addralign = 1;
    st.sh_size = str.b.size();
    st.sh_offset = place(str.b.data(), st.sh_size, 1);
    hdr.push_back(st);
    Elf64_Shdr ss{};
    ss.sh_name = shstr.add(".shstrtab");
    ss.sh_type = SHT_STRTAB;
    ss.sh_addralign = 1;
    hdr.push_back(ss);
    hdr.back().sh_size = shstr.b.size();
    hdr.back().sh_offset = place(shstr.b.data(), shstr.b.size(), 1);
    Elf64_Ehdr eh = parts[0].eh;
    eh.e_shnum = (Elf64_Half)hdr.size();
    eh.e_shstrndx = (Elf64_Half)(hdr.size() - 1);
    eh.e_shoff = place(hdr.data(), hdr.size() * sizeof(Elf64_Shdr), 8);
    std::memcpy(out.data(), &eh, sizeof eh);
    return true;
}

} // namespace arc_rtc
