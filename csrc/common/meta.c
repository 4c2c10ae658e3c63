/* meta.c - serialise, parse and locate binary metadata (see meta.h).
 * Parsing is bounds-checked throughout: a torn or hostile blob yields an
 * error string, never an out-of-range read. */
#include "meta.h"
#include "checksum.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wbuf {
    unsigned char *p;
    size_t len, cap;
    int oom;
} wbuf;

static void put(wbuf *b, const void *src, size_t n)
{
    if (b->oom)
        return;
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        while (cap < b->len + n)
            cap *= 2;
        unsigned char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->len, src, n);
    b->len += n;
}

static void put_u32(wbuf *b, uint32_t v)
{
    unsigned char le[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24)};
    put(b, le, 4);
}

static void put_str(wbuf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    put_u32(b, (uint32_t)n);
    put(b, s ? s : "", n);
}

unsigned char *meta_write(const arc_meta *m, size_t *len)
{
    wbuf b = {0};
    put(&b, "ARCMETA1", 8);
    put_u32(&b, ARC_META_VERSION);
    put_u32(&b, m->nkernels);
    put_str(&b, m->arch);
    put_str(&b, m->target_cpu);
    put_str(&b, m->options);
    for (uint32_t k = 0; k < m->nkernels; k++) {
        const arc_kernel_meta *km = &m->kernels[k];
        put_str(&b, km->name);
        put_str(&b, km->lowered);
        put_str(&b, km->entry);
        put_u32(&b, km->ktype);
        put_u32(&b, km->uses);
        put_u32(&b, km->nparams);
        put_u32(&b, km->args_size);
        put_u32(&b, km->simt_threads);
        put_u32(&b, km->simt_static_ub);
        for (uint32_t i = 0; i < km->nparams; i++) {
            const arc_param *p = &km->params[i];
            put_u32(&b, p->offset);
            put_u32(&b, p->size);
            put_u32(&b, p->align);
            put_u32(&b, p->kind);
            put_str(&b, p->name);
            put_str(&b, p->type);
            put_str(&b, p->elem);
        }
    }
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

typedef struct rbuf {
    const unsigned char *p;
    size_t len, pos;
    const char *fail;
} rbuf;

static uint32_t get_u32(rbuf *r)
{
    if (r->fail || r->len - r->pos < 4) {
        r->fail = "truncated";
        return 0;
    }
    const unsigned char *q = r->p + r->pos;
    r->pos += 4;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24;
}

static char *get_str(rbuf *r)
{
    uint32_t n = get_u32(r);
    if (r->fail)
        return NULL;
    if (r->len - r->pos < n) {
        r->fail = "truncated string";
        return NULL;
    }
    char *s = malloc((size_t)n + 1);
    if (!s) {
        r->fail = "out of memory";
        return NULL;
    }
    memcpy(s, r->p + r->pos, n);
    s[n] = '\0';
    r->pos += n;
    return s;
}

void meta_free(arc_meta *m)
{
    if (!m)
        return;
    for (uint32_t k = 0; m->kernels && k < m->nkernels; k++) {
        arc_kernel_meta *km = &m->kernels[k];
        for (uint32_t i = 0; km->params && i < km->nparams; i++) {
            free(km->params[i].name);
            free(km->params[i].type);
            free(km->params[i].elem);
        }
        free(km->params);
        free(km->name);
        free(km->lowered);
        free(km->entry);
    }
    free(m->kernels);
    free(m->arch);
    free(m->target_cpu);
    free(m->options);
    memset(m, 0, sizeof *m);
}

int meta_parse(const unsigned char *buf, size_t len, arc_meta *out, char *err, size_t errlen)
{
    rbuf r = {buf, len, 0, NULL};
    memset(out, 0, sizeof *out);
    if (len < 8 || memcmp(buf, "ARCMETA1", 8) != 0) {
        snprintf(err, errlen, "metadata magic missing (not an ascendrtc binary)");
        return -1;
    }
    r.pos = 8;
    uint32_t version = get_u32(&r);
    if (!r.fail && (version < 1 || version > ARC_META_VERSION)) {
        snprintf(err, errlen, "metadata version %u, this runtime reads versions 1 to %u", version, ARC_META_VERSION);
        return -1;
    }
    uint32_t nk = get_u32(&r);
    /* Each kernel needs at least 24 bytes: bound the allocation by the input. */
    if (!r.fail && nk > (len - r.pos) / 24)
        r.fail = "kernel count exceeds the data";
    out->arch = get_str(&r);
    out->target_cpu = get_str(&r);
    out->options = get_str(&r);
    if (!r.fail) {
        out->kernels = calloc(nk ? nk : 1, sizeof *out->kernels);
        if (!out->kernels)
            r.fail = "out of memory";
        else
            out->nkernels = nk;
    }
    for (uint32_t k = 0; !r.fail && k < nk; k++) {
        arc_kernel_meta *km = &out->kernels[k];
        km->name = get_str(&r);
        km->lowered = get_str(&r);
        km->entry = get_str(&r);
        km->ktype = get_u32(&r);
        km->uses = version >= 4 ? get_u32(&r) : 0;
        uint32_t np = get_u32(&r);
        km->args_size = get_u32(&r);
        if (version >= 3) {
            km->simt_threads = get_u32(&r);
            km->simt_static_ub = get_u32(&r);
        }
        if (r.fail)
            break;
        if (np > 4096 || np > (len - r.pos) / 24) {
            r.fail = "parameter count exceeds the data";
            break;
        }
        km->params = calloc(np ? np : 1, sizeof *km->params);
        if (!km->params) {
            r.fail = "out of memory";
            break;
        }
        km->nparams = np;
        for (uint32_t i = 0; !r.fail && i < np; i++) {
            arc_param *p = &km->params[i];
            p->offset = get_u32(&r);
            p->size = get_u32(&r);
            p->align = get_u32(&r);
            p->kind = get_u32(&r);
            p->name = get_str(&r);
            p->type = get_str(&r);
            p->elem = version >= 2 ? get_str(&r) : calloc(1, 1);
            if (!r.fail && !p->elem)
                r.fail = "out of memory";
            if (!r.fail && (p->offset > km->args_size || p->size > km->args_size - p->offset))
                r.fail = "parameter lies outside the argument block";
        }
    }
    if (r.fail) {
        snprintf(err, errlen, "corrupt metadata: %s at byte %zu", r.fail, r.pos);
        meta_free(out);
        return -1;
    }
    return 0;
}

static uint64_t rd(const unsigned char *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

int elf_find_section(const unsigned char *elf, size_t len, const char *name, size_t *off, size_t *size,
                     char *err, size_t errlen)
{
    if (len < 64 || memcmp(elf, "\177ELF", 4) != 0) {
        snprintf(err, errlen, "not an ELF object (bad magic)");
        return -1;
    }
    if (elf[4] != 2 || elf[5] != 1) {
        snprintf(err, errlen, "not a 64-bit little-endian ELF object");
        return -1;
    }
    uint64_t shoff = rd(elf + 0x28, 8);
    uint64_t shentsize = rd(elf + 0x3A, 2), shnum = rd(elf + 0x3C, 2), shstrndx = rd(elf + 0x3E, 2);
    if (shentsize < 64 || shnum == 0 || shstrndx >= shnum || shoff > len || shnum * shentsize > len - shoff) {
        snprintf(err, errlen, "ELF section table is out of range (truncated object?)");
        return -1;
    }
    const unsigned char *strh = elf + shoff + shstrndx * shentsize;
    uint64_t stroff = rd(strh + 0x18, 8), strsize = rd(strh + 0x20, 8);
    if (stroff > len || strsize > len - stroff) {
        snprintf(err, errlen, "ELF section-name table is out of range");
        return -1;
    }
    size_t nlen = strlen(name);
    for (uint64_t i = 0; i < shnum; i++) {
        const unsigned char *sh = elf + shoff + i * shentsize;
        uint64_t nm = rd(sh, 4);
        if (nm >= strsize || strsize - nm < nlen + 1)
            continue;
        if (memcmp(elf + stroff + nm, name, nlen + 1) != 0)
            continue;
        uint64_t o = rd(sh + 0x18, 8), s = rd(sh + 0x20, 8);
        if (o > len || s > len - o) {
            snprintf(err, errlen, "ELF section %s is out of range (truncated object?)", name);
            return -1;
        }
        *off = (size_t)o;
        *size = (size_t)s;
        return 0;
    }
    snprintf(err, errlen, "ELF object has no %s section (not built by ascendrtc)", name);
    return -1;
}

const char *meta_kind_name(uint32_t kind)
{
    static const char *const names[] = {
#define ARC_PARAM_KIND_NAME(id, value, name) [value] = name,
        ARC_PARAM_KINDS(ARC_PARAM_KIND_NAME)
#undef ARC_PARAM_KIND_NAME
    };
    return kind < ARC_PARAM_NKINDS && names[kind] ? names[kind] : "unknown";
}

/* Whether s[0..n) is one of the qualifiers a pointer's spelling may carry. */
static int is_qualifier(const char *s, size_t n)
{
    static const char *const q[] = {"__gm__", "const", "volatile", "__restrict__", "__restrict", "restrict"};
    for (size_t i = 0; i < sizeof q / sizeof *q; i++)
        if (strlen(q[i]) == n && memcmp(q[i], s, n) == 0)
            return 1;
    return 0;
}

static const char *typed_dtype(const char *word, size_t wlen)
{
    static const struct { const char *ctype, *dtype; int typed; } table[] = {
#define ARC_SCALAR_ROW(ctype, dtype, typed) {ctype, dtype, typed},
        ARC_SCALAR_TYPES(ARC_SCALAR_ROW)
#undef ARC_SCALAR_ROW
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (table[i].typed && strlen(table[i].ctype) == wlen && memcmp(table[i].ctype, word, wlen) == 0)
            return table[i].dtype;
    return NULL;
}

/* The dtype of a spelled pointer type: exactly one type word besides the
 * qualifiers, then exactly one '*' at the end; NULL otherwise. */
static const char *spelled_dtype(const char *s)
{
    const char *word = NULL;
    size_t wlen = 0;
    int stars = 0;
    while (*s) {
        if (*s == ' ' || *s == '\t') {
            s++;
        } else if (*s == '*') {
            if (stars++)
                return NULL;
            s++;
        } else {
            const char *b = s;
            while (*s && *s != ' ' && *s != '\t' && *s != '*')
                s++;
            if (is_qualifier(b, (size_t)(s - b)))
                continue;
            if (word || stars)
                return NULL;
            word = b;
            wlen = (size_t)(s - b);
        }
    }
    if (!word || stars != 1)
        return NULL;
    return typed_dtype(word, wlen);
}

const char *meta_element_dtype(const arc_param *p)
{
    if (p->kind != ARC_PARAM_POINTER)
        return NULL;
    const char *d = p->type ? spelled_dtype(p->type) : NULL;
    if (!d && p->elem && p->elem[0])
        d = typed_dtype(p->elem, strlen(p->elem));
    return d;
}

int meta_read_binary(const unsigned char *elf, size_t len, arc_meta *out, char *err, size_t errlen)
{
    size_t off, size;
    memset(out, 0, sizeof *out);
    if (arc_sum_check(elf, len, &len, err, errlen))
        return -1;
    if (elf_find_section(elf, len, ARC_META_SECTION, &off, &size, err, errlen))
        return -1;
    return meta_parse(elf + off, size, out, err, errlen);
}
