/* orc_loader.h - the C face of the ORC loader (orc_loader.cpp), used by module.c.
 * One JITDylib per loaded binary; kernels resolve runtime entry points
 * (__arc_core, __arc_trap, ...) from an explicit table, never by dlsym,
 * because Python loads extension modules RTLD_LOCAL. */
#ifndef SIM_ORC_H_
#define SIM_ORC_H_

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sim_orc_image sim_orc_image;

typedef struct sim_orc_symbol {
    const char *name;
    void *addr;
} sim_orc_symbol;

/* Link an ELF relocatable object held in memory.  `syms` (terminated by a
 * NULL name) are defined for it in addition to an allow-list of libc/libm
 * functions.  Returns 0, or -1 with a reason in err. */
int sim_orc_load(const void *obj, size_t len, const char *label, const sim_orc_symbol *syms,
                 sim_orc_image **out, char *err, size_t errlen);
/* Resolve what img does not define in lib too (after its own symbols and
 * the runtime's): relocatable device code.  0, or -1 with a reason in err. */
int sim_orc_link_with(sim_orc_image *img, sim_orc_image *lib, char *err, size_t errlen);
/* Address of `sym` in the image, or NULL with a reason in err. */
void *sim_orc_lookup(sim_orc_image *img, const char *sym, char *err, size_t errlen);
/* Remove the image and everything it linked. */
void sim_orc_unload(sim_orc_image *img);
/* LLVM's name for this machine's CPU ("znver3", "sapphirerapids", ...). */
const char *sim_orc_host_cpu(void);
/* 0 when code built for `cpu` runs here; -1 with the missing CPU
 * features (or an unknown CPU name) in err. */
int sim_orc_cpu_check(const char *cpu, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif /* SIM_ORC_H_ */
