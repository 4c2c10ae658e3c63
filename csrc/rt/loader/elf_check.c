/* elf_check.c - structural checks of a kernel object before LLVM links it.
 * JITLink trusts section, symbol and relocation tables (a relocation whose
 * offset lies outside its section is applied anyway, in a release build),
 * so a truncated or bit-flipped blob could corrupt memory.  Every table
 * the linker reads is bounded here first; a blob that passes is still
 * only as correct as its bytes, but no longer reaches out of bounds. */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/rt_internal.h"

/* 1 when [off, off+size) lies inside len bytes. */
static int inside(uint64_t off, uint64_t size, size_t len)
{
    return off <= len && size <= len - off;
}

/* Bytes a relocation of this x86-64 type writes. */
static unsigned reloc_width(uint32_t type)
{
    switch (type) {
    case R_X86_64_NONE: return 0;
    case R_X86_64_64: case R_X86_64_PC64: case R_X86_64_GOTOFF64: case R_X86_64_GOTPC64:
    case R_X86_64_GOT64: case R_X86_64_GOTPCREL64: case R_X86_64_SIZE64: return 8;
    case R_X86_64_16: case R_X86_64_PC16: return 2;
    case R_X86_64_8: case R_X86_64_PC8: return 1;
    default: return 4;
    }
}

static int check_tables(const unsigned char *d, size_t len, const Elf64_Shdr *sh, unsigned ns, char *err,
                        size_t n);

int sim_elf_check(const void *data, size_t len, char *err, size_t n)
{
    const unsigned char *d = data;
    Elf64_Ehdr eh;
    if (len < sizeof eh)
        return snprintf(err, n, "the object is %zu bytes, shorter than an ELF header", len), -1;
    memcpy(&eh, d, sizeof eh);
    if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
        eh.e_ident[EI_DATA] != ELFDATA2LSB || eh.e_type != ET_REL || eh.e_machine != EM_X86_64)
        return snprintf(err, n, "not a little-endian x86-64 ELF64 relocatable object"), -1;
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum ||
        !inside(eh.e_shoff, (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr), len))
        return snprintf(err, n, "the section header table (%u entries at offset %llu) lies outside the %zu-byte "
                        "object", eh.e_shnum, (unsigned long long)eh.e_shoff, len), -1;
    unsigned ns = eh.e_shnum;
    Elf64_Shdr *sh = malloc(ns * sizeof *sh);
    if (!sh)
        return snprintf(err, n, "out of host memory"), -1;
    memcpy(sh, d + eh.e_shoff, ns * sizeof *sh);
    int rc = check_tables(d, len, sh, ns, err, n);
    free(sh);
    return rc;
}

static int check_tables(const unsigned char *d, size_t len, const Elf64_Shdr *sh, unsigned ns, char *err, size_t n)
{
    for (unsigned i = 0; i < ns; i++) {
        const Elf64_Shdr *s = &sh[i];
        if (s->sh_type != SHT_NOBITS && s->sh_type != SHT_NULL && !inside(s->sh_offset, s->sh_size, len))
            return snprintf(err, n, "section %u (%llu bytes at offset %llu) lies outside the %zu-byte object", i,
                            (unsigned long long)s->sh_size, (unsigned long long)s->sh_offset, len), -1;
        if (s->sh_addralign > 1 && (s->sh_addralign & (s->sh_addralign - 1)))
            return snprintf(err, n, "section %u has alignment %llu, not a power of two", i,
                            (unsigned long long)s->sh_addralign), -1;
    }
    for (unsigned i = 0; i < ns; i++) {
        const Elf64_Shdr *s = &sh[i];
        if (s->sh_type == SHT_SYMTAB) {
            if (s->sh_entsize != sizeof(Elf64_Sym) || s->sh_size % sizeof(Elf64_Sym) || s->sh_link >= ns ||
                sh[s->sh_link].sh_type != SHT_STRTAB)
                return snprintf(err, n, "symbol table %u is malformed", i), -1;
            uint64_t strsz = sh[s->sh_link].sh_size;
            for (uint64_t k = 0; k < s->sh_size / sizeof(Elf64_Sym); k++) {
                Elf64_Sym sy;
                memcpy(&sy, d + s->sh_offset + k * sizeof sy, sizeof sy);
                if (sy.st_name >= strsz && strsz)
                    return snprintf(err, n, "symbol %llu's name lies outside its string table",
                                    (unsigned long long)k), -1;
                if (sy.st_shndx != SHN_UNDEF && sy.st_shndx < SHN_LORESERVE) {
                    if (sy.st_shndx >= ns)
                        return snprintf(err, n, "symbol %llu names section %u of %u", (unsigned long long)k,
                                        sy.st_shndx, ns), -1;
                    const Elf64_Shdr *t = &sh[sy.st_shndx];
                    if (ELF64_ST_TYPE(sy.st_info) != STT_SECTION &&
                        (sy.st_value > t->sh_size || sy.st_size > t->sh_size - sy.st_value))
                        return snprintf(err, n, "symbol %llu (%llu bytes at %llu) lies outside its section %u",
                                        (unsigned long long)k, (unsigned long long)sy.st_size,
                                        (unsigned long long)sy.st_value, sy.st_shndx), -1;
                } else if (sy.st_shndx == SHN_XINDEX) {
                    return snprintf(err, n, "symbol %llu uses extended section indices", (unsigned long long)k), -1;
                }
            }
        } else if (s->sh_type == SHT_RELA || s->sh_type == SHT_REL) {
            size_t es = s->sh_type == SHT_RELA ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel);
            if (s->sh_entsize != es || s->sh_size % es || s->sh_link >= ns || sh[s->sh_link].sh_type != SHT_SYMTAB ||
                s->sh_info >= ns)
                return snprintf(err, n, "relocation section %u is malformed", i), -1;
            const Elf64_Shdr *t = &sh[s->sh_info];
            uint64_t nsym = sh[s->sh_link].sh_size / sizeof(Elf64_Sym);
            for (uint64_t k = 0; k < s->sh_size / es; k++) {
                Elf64_Rela r;
                memset(&r, 0, sizeof r);
                memcpy(&r, d + s->sh_offset + k * es, es);
                unsigned w = reloc_width(ELF64_R_TYPE(r.r_info));
                if (ELF64_R_SYM(r.r_info) >= nsym || r.r_offset > t->sh_size || w > t->sh_size - r.r_offset)
                    return snprintf(err, n, "relocation %llu of section %u (offset %llu, symbol %llu) lies outside "
                                    "section %u (%llu bytes) or its symbol table", (unsigned long long)k, i,
                                    (unsigned long long)r.r_offset, (unsigned long long)ELF64_R_SYM(r.r_info),
                                    s->sh_info, (unsigned long long)t->sh_size), -1;
            }
        }
    }
    return 0;
}
