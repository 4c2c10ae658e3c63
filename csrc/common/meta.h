/* meta.h - the metadata that makes a compiled binary self-describing.
 *
 * A binary from aclrtcGetBinData is an x86-64 ELF relocatable object whose
 * section ".arc_meta" holds this metadata, serialised little-endian:
 *   "ARCMETA1" u32 version u32 nkernels str arch str target_cpu str options
 *   per kernel: str name str lowered str entry u32 ktype u32 nparams u32 argsize
 *     per param: u32 offset u32 size u32 align u32 kind str name str type
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
#define ARC_META_VERSION 1u

enum arc_param_kind {
    ARC_PARAM_OTHER = 0,
    ARC_PARAM_POINTER = 1,  /* GM_ADDR and other pointers: 8 bytes */
    ARC_PARAM_INT = 2,      /* signed integer of `size` bytes */
    ARC_PARAM_UINT = 3,     /* unsigned integer */
    ARC_PARAM_FLOAT = 4,    /* IEEE binary16/32/64 by size */
    ARC_PARAM_BOOL = 5,
    ARC_PARAM_STRUCT = 6,   /* trivially copyable struct passed by value */
    ARC_PARAM_BFLOAT16 = 7
};

typedef struct arc_param {
    uint32_t offset, size, align, kind;
    char *name;  /* spelled name in the source, "" when unknown */
    char *type;  /* spelled type in the source, "" when unknown */
} arc_param;

typedef struct arc_kernel_meta {
    char *name;     /* source name, or the name expression for templates */
    char *lowered;  /* the kernel's symbol (mangled for C++ linkage) */
    char *entry;    /* trampoline symbol: void entry(const unsigned char *args) */
    uint32_t ktype; /* KERNEL_TYPE_* value (0 = AIV only) */
    uint32_t nparams;
    uint32_t args_size;  /* bytes of the packed argument block */
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
/* Locate section `name` in an ELF64 little-endian object held in memory. */
int elf_find_section(const unsigned char *elf, size_t len, const char *name, size_t *off, size_t *size,
                     char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* ARC_META_H_ */
