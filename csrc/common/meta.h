/* meta.h - the metadata that makes a compiled binary self-describing.
 *
 * A binary from aclrtcGetBinData is an x86-64 ELF relocatable object whose
 * section ".arc_meta" holds this metadata, serialised little-endian:
 *   "ARCMETA1" u32 version u32 nkernels str arch str target_cpu str options
 *   per kernel: str name str lowered str entry u32 ktype u32 uses u32 nparams u32 argsize
 *     u32 simt_threads u32 simt_static_ub
 *     per param: u32 offset u32 size u32 align u32 kind str name str type str elem
 *   (elem since version 2: the element type the compiler inferred for a
 *   byte pointer such as GM_ADDR from the kernel's casts, "" when none;
 *   version 1 binaries are read with elem "".  simt_threads and simt_static_ub since
 *   version 3; uses since version 4: the ARC_USES_* bits of
 *   device/arc/core_abi.h; older binaries read 0)
 *   (str = u32 length + bytes, no NUL)
 * The rtc writes it (meta_write), the loader reads it (meta_parse). */
#ifndef ARC_META_H_
#define ARC_META_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARC_META_SECTION ".arc_meta"
#define ARC_META_VERSION 4u
/* The largest kernel binary loaded from a file or bytes (exported to Python as _C.MAX_BINARY_BYTES). */
#define ARC_MAX_BINARY_BYTES ((uint64_t)1 << 30)
/* The largest by-value kernel parameter the argument packer holds (_C.MAX_PARAM_BYTES). */
#define ARC_MAX_PARAM_BYTES (1u << 16)

/* The parameter kinds: X(ENUM suffix, value, name).  The one list: the
 * enum, meta_kind_name() and the extension's _C.PARAM_KINDS come from it. */
#define ARC_PARAM_KINDS(X)                                                      \
    X(OTHER, 0, "unknown")                                                      \
    X(POINTER, 1, "pointer")   /* GM_ADDR and other pointers: 8 bytes */        \
    X(INT, 2, "int")           /* signed integer of `size` bytes */             \
    X(UINT, 3, "uint")         /* unsigned integer */                           \
    X(FLOAT, 4, "float")       /* IEEE binary16/32/64 by size */                \
    X(BOOL, 5, "bool")                                                          \
    X(STRUCT, 6, "struct")     /* trivially copyable struct passed by value */  \
    X(BFLOAT16, 7, "bfloat16")

enum arc_param_kind {
#define ARC_PARAM_KIND_ENUM(id, value, name) ARC_PARAM_##id = value,
    ARC_PARAM_KINDS(ARC_PARAM_KIND_ENUM)
#undef ARC_PARAM_KIND_ENUM
    ARC_PARAM_NKINDS
};

/* Scalar C types and their NumPy dtypes: X(spelled C type, dtype name,
 * typed): typed is 1 when a `__gm__ T *` parameter accepts only arrays of
 * that dtype (uint8_t and bfloat16_t pointers take any array).  The one
 * table: meta_element_dtype() and _C.SCALAR_TYPES (jit's ctype()) use it;
 * the first row of a dtype is its canonical C spelling. */
#define ARC_SCALAR_TYPES(X)          \
    X("float", "float32", 1)         \
    X("half", "float16", 1)          \
    X("double", "float64", 1)        \
    X("bfloat16_t", "bfloat16", 0)   \
    X("int8_t", "int8", 1)           \
    X("int16_t", "int16", 1)         \
    X("int32_t", "int32", 1)         \
    X("int", "int32", 1)             \
    X("int64_t", "int64", 1)         \
    X("uint8_t", "uint8", 0)         \
    X("uint16_t", "uint16", 1)       \
    X("uint32_t", "uint32", 1)       \
    X("uint64_t", "uint64", 1)       \
    X("bool", "bool", 1)             \
    X("complex64", "complex64", 1)

typedef struct arc_param {
    uint32_t offset, size, align, kind;
    char *name;  /* spelled name in the source, "" when unknown */
    char *type;  /* spelled type in the source, "" when unknown */
    char *elem;  /* for a byte pointer (GM_ADDR): the element C type its casts agree on, else "" */
} arc_param;

typedef struct arc_kernel_meta {
    char *name;     /* source name, or the name expression for templates */
    char *lowered;  /* the kernel's symbol (mangled for C++ linkage) */
    char *entry;    /* trampoline symbol: void entry(const unsigned char *args) */
    uint32_t ktype; /* KERNEL_TYPE_* value (0 = AIV only) */
    uint32_t uses;  /* ARC_USES_*: what the code uses, whether the source wrote ktype */
    uint32_t nparams;
    uint32_t args_size;  /* bytes of the packed argument block */
    uint32_t simt_threads;   /* SIMT kernel: most threads per block (__launch_bounds__); 0: SIMD */
    uint32_t simt_static_ub; /* SIMT kernel: bytes of its static __ubuf__ arrays */
    arc_param *params;
} arc_kernel_meta;

typedef struct arc_meta {
    char *arch;        /* "dav-2201" */
    char *target_cpu;  /* host CPU the object was built for */
    char *options;     /* the user's options, space separated */
    uint32_t nkernels;
    arc_kernel_meta *kernels;
} arc_meta;

/* Serialise m into a malloc'd buffer; returns NULL on OOM. */
unsigned char *meta_write(const arc_meta *m, size_t *len);
/* Parse a serialised block; on error returns -1 and writes a reason. */
int meta_parse(const unsigned char *buf, size_t len, arc_meta *out, char *err, size_t errlen);
/* Free what meta_parse or a builder allocated inside m (not m itself). */
void meta_free(arc_meta *m);
/* The name of a parameter kind ("pointer", ...), "unknown" when out of range. */
const char *meta_kind_name(uint32_t kind);
/* The NumPy dtype name of the elements a pointer parameter's spelled type
 * (`__gm__ const float *`) points to, else of its inferred elem type (a
 * GM_ADDR the kernel casts to `__gm__ half *`), or NULL when any array fits
 * (uint8_t *, void *, unknown types, not a pointer, no single cast type). */
const char *meta_element_dtype(const arc_param *p);
/* The parsed metadata of an in-memory binary: check its checksum trailer
 * (common/checksum.h), locate the section and parse it.  Returns 0, or -1
 * with a reason in err. */
int meta_read_binary(const unsigned char *elf, size_t len, arc_meta *out, char *err, size_t errlen);
/* Locate section `name` in an ELF64 little-endian object held in memory. */
int elf_find_section(const unsigned char *elf, size_t len, const char *name, size_t *off, size_t *size,
                     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* ARC_META_H_ */
