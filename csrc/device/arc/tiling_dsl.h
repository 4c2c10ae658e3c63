/* tiling_dsl.h - the tiling-data DSL of CANN op projects
 * (BEGIN_TILING_DATA_DEF, TILING_DATA_FIELD_DEF, _ARR, _STRUCT,
 * END_TILING_DATA_DEF, REGISTER_TILING_DATA_CLASS), one definition for the
 * kernel and the host side so that both agree on the layout by construction.
 *
 * Layout rule (see csrc/device/README.md, "Op projects"): fields in
 * declaration order, each at its natural alignment, the size rounded up to
 * the largest alignment -- the C layout of the same plain struct.  CANN's
 * host TilingDef pads every field that is not aligned
 * (CheckAlignAndGenPlaceHolder, public TilingData doc), which is that rule.
 *
 * Kernel mode (default): each definition is that plain struct, and
 * REGISTER_TILING_DATA_CLASS(Op, Name) records Name for GET_TILING_DATA.
 *
 * Host mode (define ASCENDRTC_TILING_HOST before including): the same
 * struct is a class with set_<f>/get_<f>, SaveToBuffer(void *, size_t),
 * GetDataSize(); its data members are the fields, so SaveToBuffer copies
 * exactly the kernel struct's bytes.  REGISTER_TILING_DATA_CLASS(Op, Name)
 * adds {Op, Name, size, fields} to a registry (__arc_tiling::registry_find);
 * fields describes each field as the compiler laid it out (offset, element
 * size and format, count, nested class), which is how Python reads and
 * packs the bytes: the layout is asked of the compiler, never re-parsed. */
#ifndef ARC_TILING_DSL_H_
#define ARC_TILING_DSL_H_

namespace __arc_tiling {
/* Op names are matched ignoring case and '_' so that a kernel file
 * three_nn.cpp finds REGISTER_TILING_DATA_CLASS(ThreeNN, ...).  FNV-1a,
 * recursive so it is constexpr in C++11. */
constexpr unsigned long long op_hash(const char *s, unsigned long long h = 1469598103934665603ull)
{
    return *s == 0 ? h
           : *s == '_' ? op_hash(s + 1, h)
                       : op_hash(s + 1, (h ^ (unsigned long long)(unsigned char)(*s >= 'A' && *s <= 'Z' ? *s + 32 : *s)) *
                                            1099511628211ull);
}
/* In both modes: a single-source file's host part may bring the DSL in
 * host mode before kernel_operator.h's arc/tiling.h, whose fallbacks name
 * these. */
template <unsigned long long H> struct op_key {};
/* rank<N> derives from rank<N-1>: overload resolution on rank<200>{} picks
 * the registration with the highest __COUNTER__, i.e. the last one
 * (rank<0> is the fallback's, in arc/tiling.h). */
template <unsigned N> struct rank : rank<N - 1> {};
template <> struct rank<0> {};
template <unsigned N> struct rank_of {
    typedef rank<(N < 199 ? N + 1 : 200)> type;
};
} // namespace __arc_tiling

/* A single-source program (a kernel file with host code, program_host.h):
 * its tiling classes are the host part's (CANN's tiling DSL is host-side
 * only; such a file's kernels read their own plain structs), whether
 * kernel_operator.h or tiling/tiling_api.h comes first. */
#if defined(__ASCENDRTC_HOST_CODE__) && !defined(ASCENDRTC_TILING_HOST)
#define ASCENDRTC_TILING_HOST 1
#endif

#ifndef ASCENDRTC_TILING_HOST
/* ------------------------------------------------------------ kernel mode */

#define BEGIN_TILING_DATA_DEF(name) struct name {
#define TILING_DATA_FIELD_DEF(type, field) type field;
#define TILING_DATA_FIELD_DEF_ARR(type, n, field) type field[n];
#define TILING_DATA_FIELD_DEF_STRUCT(type, field) type field;
#define END_TILING_DATA_DEF };  /* the `;` too: CANN code writes it with and without one */
/* Two declarations only (never defined, never called): GET_TILING_DATA
 * finds the struct by the op's name, else takes the last registered. */
#define REGISTER_TILING_DATA_CLASS(op, name)                                                   \
    name __arc_tiling_of_op(::__arc_tiling::op_key<::__arc_tiling::op_hash(#op)>);              \
    name __arc_tiling_last(::__arc_tiling::rank_of<__COUNTER__>::type);

#else
/* ------------------------------------------------------------- host mode */
/* Whether the DSL came in host mode: a single-source file's host part may
 * include kernel_operator.h (kernel mode) before a host tiling header. */
#define ARC_TILING_DSL_HOST_ 1
namespace __arc_tiling {
typedef decltype(sizeof(0)) size_type;

/* The base of every tiling class: empty, so the fields start at offset 0.
 * Each class gets its own base type (TilingDefOf<name>): with one shared
 * empty base, a class whose first field is another tiling class (nested
 * with TILING_DATA_FIELD_DEF_STRUCT) would have two TilingDef subobjects at
 * one address, which C++ forbids, and the field would move to offset 8. */
class TilingDef {
};
template <class Name> class TilingDefOf {
};

/* Called when SaveToBuffer's buffer is null or smaller than the data
 * (nothing is copied then); the host runner sets it to report the error. */
typedef void (*overflow_fn)(const char *cls, size_type need, size_type capacity);
inline overflow_fn &overflow_hook()
{
    static overflow_fn f = nullptr;
    return f;
}

inline void save(const char *cls, const void *self, size_type n, void *buf, size_type capacity)
{
    if (buf == nullptr || n > capacity) {
        if (overflow_hook() != nullptr)
            overflow_hook()(cls, n, capacity);
        return;
    }
    __builtin_memcpy(buf, self, n);
}

/* SetDataPtr(buf) binds a tiling object to the context's raw tiling
 * buffer: CANN's object then lives in that buffer, so tiling functions that
 * call SetDataPtr never call SaveToBuffer.  Here the fields stay members (the
 * kernel layout by construction), and a bound object's bytes are copied to
 * its buffer when it is destroyed, or by flush_all() for one still alive
 * when the tiling function returns. */
struct bound_entry {
    const void *obj;
    void *dst;
    size_type n;
};
constexpr int kMaxBound = 64;
inline bound_entry *bound_table()
{
    static bound_entry t[kMaxBound];
    return t;
}
inline void bind(const void *obj, void *dst, size_type n)
{
    bound_entry *t = bound_table();
    int free_slot = -1;
    for (int i = 0; i < kMaxBound; i++) {
        if (t[i].obj == obj) {
            t[i].dst = dst;
            t[i].n = n;
            return;
        }
        if (t[i].obj == nullptr && free_slot < 0)
            free_slot = i;
    }
    if (free_slot >= 0)
        t[free_slot] = bound_entry{obj, dst, n};
}
/* Copies obj's bytes to its bound buffer (if any) and unbinds it. */
inline void unbind(const void *obj)
{
    bound_entry *t = bound_table();
    for (int i = 0; i < kMaxBound; i++)
        if (t[i].obj == obj) {
            if (t[i].dst != nullptr)
                __builtin_memcpy(t[i].dst, obj, t[i].n);
            t[i] = bound_entry{nullptr, nullptr, 0};
        }
}
inline void flush_all()
{
    bound_entry *t = bound_table();
    for (int i = 0; i < kMaxBound; i++)
        if (t[i].obj != nullptr)
            unbind(t[i].obj);
}

/* One field as the compiler laid it out.  kind: 's' scalar, 'a' array, 't'
 * a nested class; fmt: the element's Python struct format character
 * (b B h H i I q Q e f d ?; 'T' a nested class, 0 an element it cannot
 * name); sub: the nested class's fields (null when it is not a DSL class). */
struct field_sink;
struct field_info {
    const char *name;
    char kind, fmt;
    const char *cls;
    size_type count, offset, size, align;
    void (*sub)(field_sink &);
};
struct field_sink {
    virtual void field(const field_info &f) = 0;
    virtual ~field_sink() = default;
};
template <unsigned long long K> struct idx {
};
/* Type traits for fmt_of: clang's builtins (device compiles have no
 * standard library); other compilers building op_host code (g++ for a
 * sample's tiling main) take <type_traits>. */
#if defined(__clang__)
#define ARC_TD_FLOAT_(T) __is_floating_point(T)
#define ARC_TD_INTEGRAL_(T) __is_integral(T)
#define ARC_TD_SIGNED_(T) __is_signed(T)
#else
} // namespace __arc_tiling
#include <type_traits>
namespace __arc_tiling {
#define ARC_TD_FLOAT_(T) std::is_floating_point<T>::value
#define ARC_TD_INTEGRAL_(T) std::is_integral<T>::value
#define ARC_TD_SIGNED_(T) std::is_signed<T>::value
#endif
template <class T> constexpr char fmt_of()
{
    return __is_same(T, bool)       ? '?'
           : ARC_TD_FLOAT_(T) ? (sizeof(T) == 2 ? 'e' : sizeof(T) == 4 ? 'f' : sizeof(T) == 8 ? 'd' : 0)
           : ARC_TD_INTEGRAL_(T)
               ? (sizeof(T) == 1   ? (ARC_TD_SIGNED_(T) ? 'b' : 'B')
                  : sizeof(T) == 2 ? (ARC_TD_SIGNED_(T) ? 'h' : 'H')
                  : sizeof(T) == 4 ? (ARC_TD_SIGNED_(T) ? 'i' : 'I')
                  : sizeof(T) == 8 ? (ARC_TD_SIGNED_(T) ? 'q' : 'Q')
                                   : 0)
           : __is_class(T) ? 'T'
                           : 0;
}
/* A plain struct that describes its fields (the library tiling structs:
 * lib/tiling/adv_tiling_fields.h) specialises this with name() and
 * fields(field_sink &). */
template <class T> struct plain {
};
/* A DSL class's own fields visitor, a described plain struct's, or null. */
template <class T> constexpr auto sub_of(int) -> decltype(&T::__arc_fields) { return &T::__arc_fields; }
template <class T> constexpr auto sub_of(long) -> decltype(&plain<T>::fields) { return &plain<T>::fields; }
template <class T> constexpr void (*sub_of(...))(field_sink &) { return nullptr; }
template <class T> inline const char *cls_of(decltype(&T::ClassName)) { return T::ClassName(); }
template <class T> inline const char *cls_of(decltype(&plain<T>::name)) { return plain<T>::name(); }
template <class T> inline const char *cls_of(...) { return ""; }
template <class T>
inline void describe(field_sink &s, const char *name, char kind, size_type count, size_type offset)
{
    s.field(field_info{name, kind, fmt_of<T>(), cls_of<T>(nullptr), count, offset, sizeof(T), alignof(T),
                       sub_of<T>(0)});
}

/* Registered tiling classes, newest first. */
struct reg_entry {
    const char *op;
    const char *cls;
    size_type size;
    void (*fields)(field_sink &);
    const reg_entry *next;
};
inline const reg_entry *&registry_head()
{
    static const reg_entry *head = nullptr;
    return head;
}
inline bool registry_add(reg_entry *e)
{
    e->next = registry_head();
    registry_head() = e;
    return true;
}
/* The class registered for op (exact name), or null. */
inline const reg_entry *registry_find(const char *op)
{
    for (const reg_entry *e = registry_head(); e != nullptr; e = e->next) {
        const char *a = e->op, *b = op;
        while (*a != 0 && *a == *b) {
            ++a;
            ++b;
        }
        if (*a == *b)
            return e;
    }
    return nullptr;
}
} // namespace __arc_tiling

namespace optiling {
using TilingDef = ::__arc_tiling::TilingDef;
} // namespace optiling

#define BEGIN_TILING_DATA_DEF(name)                                                              \
    class name : public ::__arc_tiling::TilingDefOf<class name> {                                \
    public:                                                                                      \
        void SaveToBuffer(void *buf, ::__arc_tiling::size_type capacity) const                   \
        {                                                                                        \
            static_assert(__is_standard_layout(name), "tiling class " #name " must be standard layout"); \
            ::__arc_tiling::save(#name, this, sizeof(name), buf, capacity);                      \
        }                                                                                        \
        ::__arc_tiling::size_type GetDataSize() const { return sizeof(name); }                   \
        void SetDataPtr(void *p) { ::__arc_tiling::bind(this, p, sizeof(name)); }                \
        ~name() { ::__arc_tiling::unbind(this); }                                                \
        static const char *ClassName() { return #name; }                                         \
        /* The fields in order, each described where the class is complete: */                  \
        /* one __arc_visit per field, numbered by __COUNTER__ from here. */                      \
        typedef name __arc_self;                                                                 \
        enum : unsigned long long { __arc_first = __COUNTER__ + 1 };                             \
        template <unsigned long long K>                                                          \
        static void __arc_visit(::__arc_tiling::idx<K>, ::__arc_tiling::field_sink &) {}         \
        static void __arc_fields(::__arc_tiling::field_sink &s)                                  \
        {                                                                                        \
            __arc_visit(::__arc_tiling::idx<__arc_first>{}, s);                                  \
        }
/* field's description, then the next field's (k + 1), or the end. */
#define ARC_TILING_FIELD_(type, field, kind, n, k) ARC_TILING_FIELD_AT_(type, field, kind, n, k)
#define ARC_TILING_FIELD_AT_(type, field, kind, n, k)                                            \
    static void __arc_visit(::__arc_tiling::idx<k>, ::__arc_tiling::field_sink &s)               \
    {                                                                                            \
        ::__arc_tiling::describe<type>(s, #field, kind, (n), __builtin_offsetof(__arc_self, field)); \
        __arc_visit(::__arc_tiling::idx<(k) + 1>{}, s);                                          \
    }
#define TILING_DATA_FIELD_DEF(type, field)                                                       \
    type field{};                                                                                \
    void set_##field(type v) { field = v; }                                                      \
    type get_##field() const { return field; }                                                   \
    ARC_TILING_FIELD_(type, field, 's', 1, __COUNTER__)
#define TILING_DATA_FIELD_DEF_ARR(type, n, field)                                                \
    type field[n]{};                                                                             \
    void set_##field(const type *v)                                                              \
    {                                                                                            \
        for (unsigned i = 0; i < (unsigned)(n); i++)                                             \
            field[i] = v[i];                                                                     \
    }                                                                                            \
    type *get_##field() { return field; }                                                        \
    const type *get_##field() const { return field; }                                            \
    ARC_TILING_FIELD_(type, field, 'a', n, __COUNTER__)
#define TILING_DATA_FIELD_DEF_STRUCT(type, field)                                                \
    type field{};                                                                                \
    void set_##field(const type &v) { field = v; }                                               \
    type &get_##field() { return field; }                                                        \
    const type &get_##field() const { return field; }                                            \
    ARC_TILING_FIELD_(type, field, 't', 1, __COUNTER__)
#define END_TILING_DATA_DEF };  /* the `;` too: CANN code writes it with and without one */
#define REGISTER_TILING_DATA_CLASS(op, name)                                                     \
    static ::__arc_tiling::reg_entry __arc_tiling_reg_##op{#op, #name, sizeof(name), &name::__arc_fields, nullptr}; \
    static const bool __arc_tiling_reg_done_##op = ::__arc_tiling::registry_add(&__arc_tiling_reg_##op);
#endif

#endif /* ARC_TILING_DSL_H_ */
