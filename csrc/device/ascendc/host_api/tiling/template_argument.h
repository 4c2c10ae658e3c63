/* ascendc/host_api/tiling/template_argument.h - tiling template programming
 * (ASCENDC_TPL_*), for the host (GET_TPL_TILING_KEY, ASCENDC_TPL_SEL_PARAM)
 * and the kernel compile (decoding a key into template arguments).
 *
 * ASCENDC_TPL_ARGS_DECL(Op, params...) declares the template parameters in
 * order; ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(...), ...) lists the
 * combinations the op builds.  From the public docs ("Tiling template
 * programming", "GET_TPL_TILING_KEY"): a key packs each parameter into its
 * bit width (DTYPE/FORMAT 8 bits, BOOL 1 bit, UINT as declared), "in
 * sequence"; a value is encoded as its position in the declared list, not
 * its number.  Chosen here where the docs are silent: the first declared
 * parameter takes the lowest bits.  Host and kernel side both use this
 * header, so they agree. */
#ifndef ARC_TEMPLATE_ARGUMENT_H_
#define ARC_TEMPLATE_ARGUMENT_H_

#include <cstdint>

#include "common/ge_dtypes.h"

#define ASCENDC_TPL_DTYPE 0
#define ASCENDC_TPL_FORMAT 1
#define ASCENDC_TPL_UINT 2
#define ASCENDC_TPL_BOOL 3
#define ASCENDC_TPL_TILING_STRUCT 4

#define ASCENDC_TPL_UI_RANGE 0
#define ASCENDC_TPL_UI_LIST 1
#define ASCENDC_TPL_UI_MIX 2

#define ASCENDC_TPL_1_BW 1
#define ASCENDC_TPL_2_BW 2
#define ASCENDC_TPL_3_BW 3
#define ASCENDC_TPL_4_BW 4
#define ASCENDC_TPL_5_BW 5
#define ASCENDC_TPL_6_BW 6
#define ASCENDC_TPL_7_BW 7
#define ASCENDC_TPL_8_BW 8
#define ASCENDC_TPL_16_BW 16
#define ASCENDC_TPL_32_BW 32

namespace __arc_tpl {
typedef unsigned long long u64;
constexpr unsigned MAX_RAW = 64;
constexpr unsigned MAX_PARAMS = 32;

/* One declared (or selected) parameter: the numbers as written; for UINT
 * raw[0] is the mode (RANGE / LIST / MIX). */
struct param {
    const char *name;
    unsigned kind;
    unsigned bw;
    u64 raw[MAX_RAW];
    unsigned nraw;
};

/* ASCENDC_TPL_INPUT(n) / ASCENDC_TPL_OUTPUT(n) in a dtype parameter's
 * values say which parameter's dtype it follows: a tag, not a value. */
constexpr u64 IO_TAG = 1ull << 63;
template <unsigned N> constexpr param make(const char *name, unsigned kind, unsigned bw, const u64 (&v)[N])
{
    static_assert(N <= MAX_RAW, "ASCENDC_TPL_*: too many values in one parameter (at most 64)");
    param p{name, kind, bw, {}, 0};
    for (unsigned i = 0; i < N; i++)
        if (kind == ASCENDC_TPL_UINT || (v[i] & IO_TAG) == 0)
            p.raw[p.nraw++] = v[i];
    return p;
}
constexpr param make_struct(const char *name)
{
    return param{name, ASCENDC_TPL_TILING_STRUCT, 0, {}, 0};
}

/* The values a parameter allows, in encoding order. */
constexpr unsigned nvals(const param &p)
{
    if (p.kind != ASCENDC_TPL_UINT)
        return p.nraw;
    if (p.nraw < 1)
        return 0;
    const u64 mode = p.raw[0];
    if (mode == ASCENDC_TPL_UI_LIST)
        return p.nraw - 1;
    unsigned n = 0, i = 2;
    const u64 ranges = p.nraw > 1 ? p.raw[1] : 0;
    for (u64 r = 0; r < ranges && i + 1 < p.nraw; r++, i += 2)
        n += (unsigned)(p.raw[i + 1] - p.raw[i] + 1);
    if (mode == ASCENDC_TPL_UI_MIX)
        n += p.nraw - i;
    return n;
}
constexpr u64 val_at(const param &p, unsigned idx)
{
    if (p.kind != ASCENDC_TPL_UINT)
        return p.raw[idx];
    const u64 mode = p.raw[0];
    if (mode == ASCENDC_TPL_UI_LIST)
        return p.raw[1 + idx];
    unsigned i = 2;
    const u64 ranges = p.raw[1];
    for (u64 r = 0; r < ranges && i + 1 < p.nraw; r++, i += 2) {
        const u64 len = p.raw[i + 1] - p.raw[i] + 1;
        if (idx < len)
            return p.raw[i] + idx;
        idx -= (unsigned)len;
    }
    return p.raw[i + idx];
}
/* Position of v among the allowed values, or -1. */
constexpr int index_of(const param &p, u64 v)
{
    for (unsigned i = 0; i < nvals(p); i++)
        if (val_at(p, i) == v)
            return (int)i;
    return -1;
}
template <unsigned N> constexpr unsigned count(const param (&)[N])
{
    return N;
}

/* Bits below parameter i. */
template <unsigned N> constexpr unsigned shift_of(const param (&d)[N], unsigned i)
{
    unsigned s = 0;
    for (unsigned k = 0; k < i; k++)
        s += d[k].bw;
    return s;
}
constexpr u64 field(u64 key, unsigned shift, unsigned bw)
{
    return bw >= 64 ? key >> shift : (key >> shift) & ((1ull << bw) - 1);
}

/* Decoding, for the kernel compile: key -> value of parameter i. */
template <unsigned N> constexpr bool key_ok(const param (&d)[N], u64 key)
{
    unsigned total = 0;
    for (unsigned i = 0; i < N; i++) {
        if (field(key, total, d[i].bw) >= nvals(d[i]))
            return false;
        total += d[i].bw;
    }
    return total >= 64 || (key >> total) == 0;
}
template <unsigned N> constexpr u64 decode(const param (&d)[N], u64 key, unsigned i)
{
    return val_at(d[i], (unsigned)field(key, shift_of(d, i), d[i].bw));
}

/* A decoded value as a template argument of any integral or bool type. */
struct tval {
    u64 v;
    template <class T> constexpr operator T() const { return (T)v; }
};

/* One selected combination (ASCENDC_TPL_ARGS_SEL). */
struct combo {
    param p[MAX_PARAMS];
};
/* Is (values of d decoded from key) one of the combinations in s?  With no
 * selection every declared combination is built. */
template <unsigned N> constexpr bool in_combo(const param (&d)[N], const combo &c, u64 key)
{
    for (unsigned i = 0; i < N; i++) {
        bool named = false, allowed = false;
        for (unsigned k = 0; k < MAX_PARAMS && c.p[k].name != nullptr; k++) {
            const param &q = c.p[k];
            const char *a = q.name, *b = d[i].name;
            while (*a != 0 && *a == *b) {
                ++a;
                ++b;
            }
            if (*a != *b || q.kind == ASCENDC_TPL_TILING_STRUCT)
                continue;
            named = true;
            allowed = allowed || index_of(q, decode(d, key, i)) >= 0;
        }
        if (named && !allowed)
            return false;
    }
    return true;
}
template <unsigned N, unsigned M> constexpr bool selected(const param (&d)[N], const combo (&s)[M], u64 key)
{
    for (unsigned m = 0; m < M; m++)
        if (in_combo(d, s[m], key))
            return true;
    return false;
}

/* The key of a combination's first values (a parameter it does not name:
 * its first declared value), for compiling one instance as a check. */
template <unsigned N> constexpr u64 first_key(const param (&d)[N], const combo *c)
{
    u64 key = 0;
    unsigned shift = 0;
    for (unsigned i = 0; i < N; i++) {
        int idx = 0;
        for (unsigned k = 0; c != nullptr && k < MAX_PARAMS && c->p[k].name != nullptr; k++) {
            const param &q = c->p[k];
            const char *a = q.name, *b = d[i].name;
            while (*a != 0 && *a == *b) {
                ++a;
                ++b;
            }
            if (*a == *b && q.kind != ASCENDC_TPL_TILING_STRUCT && nvals(q) > 0 && index_of(d[i], val_at(q, 0)) >= 0)
                idx = index_of(d[i], val_at(q, 0));
        }
        key |= (u64)idx << shift;
        shift += d[i].bw;
    }
    return key;
}

/* Encoding, for the host tiling function: values in declaration order. */
struct arg {
    u64 v;
    bool set;
    constexpr arg() : v(0), set(false) {}
    template <class T> constexpr arg(T x) : v((u64)x), set(true) {}
};
struct args {
    arg a[MAX_PARAMS];
};
/* The key, or ~0ull when a value is not declared or the count differs. */
template <unsigned N> constexpr u64 encode(const param (&d)[N], const args &v)
{
    u64 key = 0;
    unsigned shift = 0;
    for (unsigned i = 0; i < MAX_PARAMS; i++) {
        if (i >= N)
            return v.a[i].set ? ~0ull : key;
        if (!v.a[i].set)
            return ~0ull;
        const int idx = index_of(d[i], v.a[i].v);
        if (idx < 0)
            return ~0ull;
        key |= (u64)idx << shift;
        shift += d[i].bw;
    }
    return key;
}
} // namespace __arc_tpl

/* Is a key one of the ASCENDC_TPL_SEL combinations?  ASCENDC_TPL_SEL
 * declares the better overload; without it every combination is built.
 * The declaration is an argument, not a name the selection refers to:
 * opbase's reduce templates put ASCENDC_TPL_SEL before the op's
 * ASCENDC_TPL_ARGS_DECL. */
template <unsigned N> constexpr bool __arc_tpl_selected(long, const ::__arc_tpl::param (&)[N], unsigned long long)
{
    return true;
}
/* The key of the first combination ASCENDC_TPL_SEL lists (the better
 * overload), else of the first declared values. */
template <unsigned N> constexpr unsigned long long __arc_tpl_first_key(long, const ::__arc_tpl::param (&d)[N])
{
    return ::__arc_tpl::first_key(d, nullptr);
}

/* Dtype values as ge::DataType numbers (C_DT_FLOAT == ge::DT_FLOAT). */
#define ARC_TPL_C_DT_(name, value, bytes, dtype, ctype) constexpr unsigned long long C_##name = value;
ARC_GE_DTYPES(ARC_TPL_C_DT_)
#undef ARC_TPL_C_DT_
#define ASCENDC_TPL_INPUT(n) (::__arc_tpl::IO_TAG | (n))
#define ASCENDC_TPL_OUTPUT(n) (::__arc_tpl::IO_TAG | 0x100 | (n))
/* The kernel type a combination is built as: recorded by the op build, not
 * part of the key (a parameter no declaration names). */
#define ASCENDC_TPL_AIV_ONLY 0
#define ASCENDC_TPL_AIC_ONLY 1
#define ASCENDC_TPL_MIX_AIC_1_0 2
#define ASCENDC_TPL_MIX_AIC_1_1 3
#define ASCENDC_TPL_MIX_AIC_1_2 4
#define ASCENDC_TPL_MIX_AIV_1_0 5
#define ASCENDC_TPL_KERNEL_TYPE_SEL(...) ::__arc_tpl::make_struct("kernel type")

#define ASCENDC_TPL_DTYPE_DECL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_DTYPE, 8, {__VA_ARGS__})
#define ASCENDC_TPL_DATATYPE_DECL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_DTYPE, 8, {__VA_ARGS__})
#define ASCENDC_TPL_FORMAT_DECL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_FORMAT, 8, {__VA_ARGS__})
#define ASCENDC_TPL_UINT_DECL(x, bw, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_UINT, bw, {__VA_ARGS__})
#define ASCENDC_TPL_BOOL_DECL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_BOOL, 1, {__VA_ARGS__})

#define ASCENDC_TPL_DTYPE_SEL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_DTYPE, 8, {__VA_ARGS__})
#define ASCENDC_TPL_DATATYPE_SEL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_DTYPE, 8, {__VA_ARGS__})
#define ASCENDC_TPL_FORMAT_SEL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_FORMAT, 8, {__VA_ARGS__})
#define ASCENDC_TPL_UINT_SEL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_UINT, 0, {__VA_ARGS__})
#define ASCENDC_TPL_BOOL_SEL(x, ...) ::__arc_tpl::make(#x, ASCENDC_TPL_BOOL, 1, {__VA_ARGS__})
#define ASCENDC_TPL_TILING_STRUCT_SEL(...) ::__arc_tpl::make_struct(#__VA_ARGS__)

/* The declaration and the selection become constexpr tables the encoder
 * and the kernel compile read (the op name is not needed: one op per
 * compile). */
#define ASCENDC_TPL_ARGS_DECL(op, ...) \
    __attribute__((unused)) static constexpr ::__arc_tpl::param __arc_tpl_decl[] = {__VA_ARGS__}
#define ASCENDC_TPL_ARGS_SEL(...) ::__arc_tpl::combo{{__VA_ARGS__}}
#if defined(__ASCENDRTC_HOST__)
/* The host compile of op code (csrc/rtc/host_compile.cpp) expands the
 * selection to nothing, as CANN's host compile does: only the kernel
 * compile reads it, and the host encodes keys from the declaration alone.
 * Lists the kernel build never reads there may be no C++ at all (ops-nn's
 * ClippedSwiglu names an undeclared TPL_FLOOR in one). */
#define ASCENDC_TPL_SEL(...)
#else
#define ASCENDC_TPL_SEL(...)                                                                       \
    __attribute__((unused)) static constexpr ::__arc_tpl::combo __arc_tpl_sel[] = {__VA_ARGS__};    \
    template <unsigned N>                                                                          \
    __attribute__((unused)) constexpr bool __arc_tpl_selected(int, const ::__arc_tpl::param (&d)[N], \
                                                              unsigned long long key)              \
    {                                                                                              \
        return ::__arc_tpl::selected(d, __arc_tpl_sel, key);                                       \
    }                                                                                              \
    template <unsigned N>                                                                          \
    __attribute__((unused)) constexpr unsigned long long __arc_tpl_first_key(int, const ::__arc_tpl::param (&d)[N]) \
    {                                                                                              \
        return ::__arc_tpl::first_key(d, &__arc_tpl_sel[0]);                                       \
    }
#endif

#define GET_TPL_TILING_KEY(...) ::__arc_tpl::encode(__arc_tpl_decl, ::__arc_tpl::args{__VA_ARGS__})
#define ASCENDC_TPL_SEL_PARAM(context, ...)                    \
    do {                                                       \
        uint64_t __arc_tpl_key = GET_TPL_TILING_KEY(__VA_ARGS__); \
        (context)->SetTilingKey(__arc_tpl_key);                \
    } while (0)

#endif /* ARC_TEMPLATE_ARGUMENT_H_ */
