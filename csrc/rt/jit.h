/* jit.h - the C face of the ORC loader (jit.cpp), used by binary.c.
 * One JITDylib per loaded binary; kernels resolve runtime entry points
 * (__arc_core, __arc_trap, ...) from an explicit table, never by dlsym,
 * because Python loads extension modules RTLD_LOCAL. */
#ifndef SIM_JIT_H_
#define SIM_JIT_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sim_jit_image sim_jit_image;

typedef struct sim_jit_symbol {
    const char *name;
    void *addr;
} sim_jit_symbol;

/* Link an ELF relocatable object held in memory.  `syms` (terminated by a
 * NULL name) are defined for it in addition to an allow-list of libc/libm
 * functions.  Returns 0, or -1 with a reason in err. */
int sim_jit_load(const void *obj, size_t len, const char *label, const sim_jit_symbol *syms,
                 sim_jit_image **out, char *err, size_t errlen);
/* Address of `sym` in the image, or NULL with a reason in err. */
void *sim_jit_lookup(sim_jit_image *img, const char *sym, char *err, size_t errlen);
/* Remove the image and everything it linked. */
void sim_jit_unload(sim_jit_image *img);
/* LLVM's name for this machine's CPU ("znver3", "sapphirerapids", ...). */
const char *sim_jit_host_cpu(void);
/* 0 when code built for `cpu` runs here; -1 with the missing CPU
 * features (or an unknown CPU name) in err. */
int sim_jit_cpu_check(const char *cpu, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* SIM_JIT_H_ */
