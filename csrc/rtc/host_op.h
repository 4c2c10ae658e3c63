/* host_op.h - compiling an op project's host code (the op_host sources, with the
 * clean-room host tiling API of csrc/host_api) in process and loading it
 * with its own LLVM ORC JIT.  The loaded code answers through the C entry
 * points of csrc/host_api/arc/host_driver.h (arc_host_describe,
 * arc_host_call, arc_host_free) and the op factories OP_ADD makes
 * (arc_op_new_<Type>).  Exported from libacl_rtc.so for ascendrtc's Python
 * side (ascendrtc/_op_host.py). */
#ifndef ARC_RTC_HOST_OP_H_
#define ARC_RTC_HOST_OP_H_

#ifdef __cplusplus
extern "C" {
#endif

typedef struct arc_host_op arc_host_op;

/* Compiles the translation unit that includes each of `mains` (paths of
 * op_host sources among `paths`) and then the driver, against the host
 * API and the project's files (`paths`/`texts`, relative to the project
 * root; served from memory), and loads it.  `opts` are extra compiler
 * arguments (-D...).  Returns 0 and *out, or -1; *log (malloc'd, may be
 * NULL) holds the diagnostics either way, file names relative to the
 * project root. */
__attribute__((visibility("default"))) int arcHostOpCompile(int nfiles, const char **paths, const char **texts,
                                                            int nmains, const char **mains, int nopts,
                                                            const char **opts, arc_host_op **out, char **log);

/* The address of a symbol of the loaded host code, or NULL and *err
 * (malloc'd). */
__attribute__((visibility("default"))) void *arcHostOpSymbol(arc_host_op *op, const char *name, char **err);

/* Unloads the host code (its static objects' destructors run). */
__attribute__((visibility("default"))) void arcHostOpFree(arc_host_op *op);

/* Frees a string returned by the functions above. */
__attribute__((visibility("default"))) void arcHostFreeString(char *s);

#ifdef __cplusplus
}
#endif

#endif
