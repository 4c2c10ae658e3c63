/* device_headers.h - the device API headers, embedded at build time by
 * tools/embed_headers.py and served to clang from memory. */
#ifndef ARC_DEVICE_HEADERS_H_
#define ARC_DEVICE_HEADERS_H_

#include <stddef.h>

typedef struct arc_vfile {
    const char *path;  /* relative to the device include root */
    const char *data;
    size_t size;  /* bytes of text; data[size] is the NUL clang needs */
} arc_vfile;

/* Terminated by an entry with a NULL path. */
extern const arc_vfile arc_device_headers[];
/* ascendrtc's ACL headers (csrc/include: acl/acl.h ...), for kernel files
 * with host code (program_host.h). */
extern const arc_vfile arc_acl_headers[];
/* The host tiling API (csrc/host_api), for op_host code and host code. */
extern const arc_vfile arc_host_headers[];

#endif
