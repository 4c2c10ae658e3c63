/* exports.h - what the simulated NPU's libraries export besides CANN's ACL
 * API, under ascendrtc_ names.  The definitions (rt/, rtc/) and the
 * extension's function table (ext/arc_ext.h ARC_EXT_FUNCS, the only way
 * Python reaches them) share these declarations.  A CANN home has none of
 * them; the extension then finds NULL and says so. */
#ifndef ARC_EXPORTS_H_
#define ARC_EXPORTS_H_

#include <setjmp.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ARC_EXPORT __attribute__((visibility("default")))

/* libascendcl: set the text aclGetRecentErrMsg returns (libacl_rtc reports
 * its errors through it). */
ARC_EXPORT void ascendrtc_set_recent_error(const char *msg);

/* libascendcl: printf from a single-source program's host part, which the
 * device API's global printf template catches (arc_printf_arg: core_abi.h). */
struct arc_printf_arg;
ARC_EXPORT int ascendrtc_host_printf_v(const char *fmt, unsigned n, const struct arc_printf_arg *args);
/* libascendcl: the device API's trap (its assert() included) reached from
 * a single-source program's host part: prints the message on stderr and
 * aborts, as the C library's failed assert does. */
ARC_EXPORT void ascendrtc_host_trap(const char *api, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));
/* libascendcl: a <<<...>>> launch of a single-source program's kernel
 * (csrc/device/arc/launch.h): loads `bin` (its embedded device binary)
 * once, finds the kernel `site` names (a record whose first field is the
 * kernel's symbol, filled in by the rtc) and launches it with the packed
 * arguments; a failure is reported on stderr naming file:line.  Returns
 * the ACL error code. */
ARC_EXPORT int ascendrtc_launch_site(const void *bin, unsigned long bin_size, const void *site, const char *file,
                                     unsigned line, unsigned blocks, unsigned dyn_ubuf, void *stream, void *args,
                                     unsigned long args_size);
/* libascendcl: the SoC (or --npu-arch) a single-source program was built
 * for, called by a constructor of its host part: the simulated device is
 * that SoC unless $ASCENDRTC_SIM_SOC names another, so the program's host
 * code (aclrtGetSocName, PlatformAscendCManager::GetInstance()) sees the
 * NPU it targets. */
ARC_EXPORT void ascendrtc_program_soc(const char *soc_or_arch);
/* libascendcl: a single-source program's relocatable device code (a file
 * compiled with -dc), registered by its host part's constructor: the
 * program's device binaries compiled with -dc link against each other's
 * __aicore__ functions when loaded (rt/acl/rdc.c). */
ARC_EXPORT void ascendrtc_rdc_register(const void *bin, unsigned long bin_size);
/* libascendcl: the same for a SIMT launch, <<<grid, block, dyn_ubuf,
 * stream>>>: grid and block are x, y, z (numBlocks is the grid's product). */
ARC_EXPORT int ascendrtc_launch_site_simt(const void *bin, unsigned long bin_size, const void *site,
                                          const char *file, unsigned line, const unsigned *grid,
                                          const unsigned *block, unsigned dyn_ubuf, void *stream, void *args,
                                          unsigned long args_size);
/* libascendcl: the default launch timeout in seconds for launches without a
 * TIMEOUT/TIMEOUT_US attribute; 0 = none, negative = back to
 * $ASCENDRTC_LAUNCH_TIMEOUT. */
ARC_EXPORT void ascendrtc_set_launch_timeout(double seconds);
/* libascendcl: cancel the kernel launches queued so far on stream (NULL:
 * the default stream), or on every stream when every is nonzero, as a launch
 * timeout ends them: the running launch's cores are interrupted, later ones
 * are skipped, each fails with a message naming the interrupt (Ctrl-C). */
ARC_EXPORT void ascendrtc_cancel(void *stream, int every);
/* libascendcl: aclrtSynchronizeStream(stream), or aclrtSynchronizeDevice
 * when every is nonzero, that calls poll(arg) every slice_ms while it
 * waits.  When poll returns nonzero (Ctrl-C), the launches queued so far
 * on the streams waited for are cancelled as by ascendrtc_cancel, the wait
 * ends once they have stopped, the failures they recorded are dropped and
 * it returns -1; otherwise the synchronize's ACL code. */
ARC_EXPORT int ascendrtc_sync_polled(void *stream, int every, int slice_ms, int (*poll)(void *arg), void *arg);
/* libascendcl: aclrtSynchronizeEvent(event) that calls poll(arg) every
 * slice_ms while it waits.  When poll returns nonzero (Ctrl-C), the
 * launches queued so far on every stream are cancelled as by
 * ascendrtc_cancel(NULL, 1) (the recorded point may wait for any stream),
 * the wait ends once they have stopped, the failures they recorded are
 * dropped and it returns -1; otherwise the synchronize's ACL code. */
ARC_EXPORT int ascendrtc_event_sync_polled(void *event, int slice_ms, int (*poll)(void *arg), void *arg);
/* libascendcl: unified-buffer bytes per vector core of the simulated
 * device's SoC (rt/acl/soc.c), which aclrtGetDeviceInfo reports only on 3510. */
ARC_EXPORT long long ascendrtc_ub_size(void);
/* libascendcl: start (on = 1) or stop a profiling session of the cost
 * model (rt/analysis/cost.c): launches queued while it is on are priced for the
 * SoC named `soc` (NULL or "": the device's).  Starting clears what was
 * recorded.  Returns whether a session was on, -1 for an unknown soc. */
ARC_EXPORT int ascendrtc_profile(int on, const char *soc);
/* libascendcl: the launches priced since the last take, as a JSON array
 * (docs/performance_model.md); valid until the next call. */
ARC_EXPORT const char *ascendrtc_profile_take(void);
/* libascendcl: the SoCs the cost model knows, comma-separated. */
ARC_EXPORT const char *ascendrtc_profile_socs(void);
/* libacl_rtc: stop the compile of prog (an aclrtcProg) running in another
 * thread (Ctrl-C): it fails with ACL_ERROR_RTC_COMPILATION, "the compile
 * was cancelled", within moments. */
ARC_EXPORT void ascendrtc_compile_cancel(void *prog);
/* libacl_rtc: what a compiled binary depends on besides source and
 * options (compiler, target CPU, device headers); caches key on it. */
ARC_EXPORT const char *ascendrtc_rtc_fingerprint(void);
/* libacl_rtc: one throwaway compile that readies the compiler (LLVM's
 * target, clang's and LLVM's code and lazy state) so that the process's
 * first real compile costs what later ones do.  Thread-safe; *cancel
 * nonzero (read atomically) stops it within moments.  The extension calls
 * it on a background thread at import (ext/prewarm.c). */
ARC_EXPORT void ascendrtc_rtc_prewarm(const int *cancel);
/* libacl_rtc: the --npu-arch a compile with these options would target
 * ("dav-2201"), as aclrtcCompileProg's option parser resolves --npu-arch
 * and --npu-soc; NULL when the options do not parse. */
ARC_EXPORT const char *ascendrtc_rtc_resolve_arch(int n, const char *const *options);
/* libacl_rtc: the real files the last successful compile of prog read, as
 * "sha256<TAB>absolute path\n" lines, and the paths it looked for and
 * did not find as "absent<TAB>absolute path\n" ("!<TAB>why" when they
 * cannot be listed), valid until the program is compiled again or
 * destroyed; NULL for a program that has not compiled.  Caches key on it. */
ARC_EXPORT const char *ascendrtc_rtc_dependencies(void *prog);

/* libacl_rtc: where the precompiled device API (rtc/pch.cpp) is kept
 * between processes.  The compile cache owns that storage
 * (ascendrtc/cache.py: modes, directory, cap, eviction, CLI); the
 * extension lends its hooks here and the compiler asks them instead of
 * touching the disk.  `key` names the configuration (compiler fingerprint
 * and cc1 arguments, one per line).  load hands a kept copy to
 * put(put_ctx, data, len) and returns nonzero, or returns 0 on a miss;
 * save offers bytes just built.  No hooks (NULL, the default): the PCH is
 * kept in memory only. */
/* libacl_rtc: an op project's host code (rtc/host_op.cpp), compiled by
 * the backend's clang and loaded by its own ORC JIT.  Compiles the
 * translation unit that includes each of `mains` (paths among `paths`)
 * and then the driver (csrc/host_api/arc/host_driver.h), against the host
 * API and the project's files (`paths`/`texts`, relative to the project
 * root, served from memory); `opts` are extra compiler arguments.  Returns
 * 0 and *out, or -1; *log (free with ascendrtc_host_free_string; may be
 * NULL) holds the diagnostics either way.  A nonzero *cancel (set by
 * another thread: Ctrl-C) stops the compile at its next declaration. */
typedef struct arc_host_op arc_host_op;
ARC_EXPORT int ascendrtc_host_op_compile(int nfiles, const char **paths, const char **texts, int nmains,
                                         const char **mains, int nopts, const char **opts, arc_host_op **out,
                                         char **log, const int *cancel);
/* libacl_rtc: the address of a symbol of the loaded host code, or NULL and
 * *err (free with ascendrtc_host_free_string). */
ARC_EXPORT void *ascendrtc_host_op_symbol(arc_host_op *op, const char *name, char **err);
/* libacl_rtc: run the loaded host code's static initialisers (each file's
 * in declaration order; the compile runs none), holding no lock while they
 * run: the caller contains them (a fault or an interrupt may end the call
 * early; the symbol arc_host_init_file then names the file whose
 * initialiser was running).  0 when they returned, 1 when one threw
 * (*what says what), -1 when the code has no initialiser entry (*what
 * says why); *what is freed with ascendrtc_host_free_string. */
ARC_EXPORT int ascendrtc_host_op_init(arc_host_op *op, char **what);
/* libacl_rtc: run the loaded host code's destructors once (its static
 * objects', newest first, then its destructor functions) when its
 * initialisers all returned, none otherwise; no lock held while they run,
 * the caller contains them as it does the initialisers.  0 when they
 * returned, 1 when one threw (*what), -1 when the code has no fini entry. */
ARC_EXPORT int ascendrtc_host_op_fini(arc_host_op *op, char **what);
/* libacl_rtc: unload the host code; runs none of its code (call
 * ascendrtc_host_op_fini first for its destructors). */
ARC_EXPORT void ascendrtc_host_op_free(arc_host_op *op);
/* libacl_rtc: free a string the host-op functions returned. */
ARC_EXPORT void ascendrtc_host_free_string(char *s);

/* libascendcl: while jb is set, a fault or an abort on the calling thread,
 * or the interrupt ascendrtc_fault_interrupt sends it, siglongjmps to jb
 * with the signal number (a crashing compiler, op host code that faults
 * or runs too long).  NULL clears it. */
ARC_EXPORT void ascendrtc_fault_recovery(sigjmp_buf *jb);
/* libascendcl: until the next call, a fault that leaves to the calling
 * thread's recovery point first calls note (once; a fault inside it
 * leaves at once): libacl_rtc records where clang was. */
ARC_EXPORT void ascendrtc_fault_recovery_note(void (*note)(void));
/* libascendcl: send `thread` (a pthread_t) the runtime's interrupt signal:
 * a thread with a recovery point leaves to it. */
ARC_EXPORT int ascendrtc_fault_interrupt(unsigned long thread);

typedef struct ascendrtc_pch_store {
    int (*load)(const char *key, void (*put)(void *put_ctx, const void *data, size_t len), void *put_ctx);
    void (*save)(const char *key, const void *data, size_t len);
} ascendrtc_pch_store;
ARC_EXPORT void ascendrtc_rtc_set_pch_store(const ascendrtc_pch_store *store);

#ifdef __cplusplus
}
#endif
#endif /* ARC_EXPORTS_H_ */
