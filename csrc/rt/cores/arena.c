/* arena.c - a simulated core's local memories between inaccessible guards.
 * UB and L1 each sit at the end of an arena sized for the largest arch,
 * with only the running arch's size accessible; the cube-side buffers
 * (L0A, L0B, L0C, BiasTable, Fixpipe buffer) each have a window in their
 * own slot (core_abi.h ARC_L0_*).  A raw pointer that runs off any of them
 * faults, and fault.c names the buffer and the distance
 * (sim_arenas_describe), instead of writing over the heap or a neighbour. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rt/rt_internal.h"

#define ARENA_GUARD (1u << 20) /* inaccessible bytes each side of a UB/L1 arena and of the L0 slots */
#define L0_SPAN ((size_t)ARC_L0_SLOTS * ARC_L0_SLOT)

/* An arena of size bytes (a page multiple) between two guards; its end. */
static unsigned char *arena_new(size_t size)
{
    unsigned char *m = mmap(NULL, size + 2 * ARENA_GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    if (mprotect(m + ARENA_GUARD, size, PROT_READ | PROT_WRITE)) {
        munmap(m, size + 2 * ARENA_GUARD);
        return NULL;
    }
    return m + ARENA_GUARD + size;
}

/* Only the last `size` bytes of an arena of max bytes stay accessible. */
static void arena_fit(unsigned char *end, size_t max, size_t size)
{
    if (max > size)
        mprotect(end - max, max - size, PROT_NONE);
    mprotect(end - size, size, PROT_READ | PROT_WRITE);
}

static void arena_free(unsigned char *end, size_t size)
{
    if (end)
        munmap(end - size - ARENA_GUARD, size + 2 * ARENA_GUARD);
}

/* The L0 slots: every window opened for the largest arch (L0C fitted per
 * launch); the start of slot 0. */
static unsigned char *l0_new(void)
{
    unsigned char *m = mmap(NULL, L0_SPAN + 2 * ARENA_GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                            -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    unsigned char *l0 = m + ARENA_GUARD;
    if (mprotect(l0 + ARC_L0A_OFF, SIM_ARCH_MAX(l0a_size), PROT_READ | PROT_WRITE) ||
        mprotect(l0 + ARC_L0B_OFF, SIM_ARCH_MAX(l0b_size), PROT_READ | PROT_WRITE) ||
        mprotect(l0 + ARC_L0C_OFF, SIM_ARCH_MAX(l0c_size), PROT_READ | PROT_WRITE) ||
        mprotect(l0 + 3u * ARC_L0_SLOT, ARC_L0_PAGE, PROT_READ | PROT_WRITE) ||
        mprotect(l0 + 4u * ARC_L0_SLOT, ARC_FB_SPAN, PROT_READ | PROT_WRITE) ||
        mprotect(l0 + ARC_L0_META_OFF, ARC_L0_META_SPAN, PROT_READ | PROT_WRITE)) {
        munmap(m, L0_SPAN + 2 * ARENA_GUARD);
        return NULL;
    }
    return l0;
}

int sim_arenas_new(sim_arenas *a)
{
    memset(a, 0, sizeof *a);
    if ((a->ub_end = arena_new(SIM_ARCH_MAX(ub_size))) && (a->l1_end = arena_new(SIM_ARCH_MAX(l1_size))) &&
        (a->l0 = l0_new()))
        return 0;
    sim_arenas_free(a);
    return -1;
}

void sim_arenas_free(sim_arenas *a)
{
    arena_free(a->ub_end, SIM_ARCH_MAX(ub_size));
    arena_free(a->l1_end, SIM_ARCH_MAX(l1_size));
    if (a->l0)
        munmap(a->l0 - ARENA_GUARD, L0_SPAN + 2 * ARENA_GUARD);
    memset(a, 0, sizeof *a);
}

void sim_arenas_enter(sim_arenas *a, arc_core *k, const sim_arch *arch)
{
    /* The arch's real sizes, between guards: a raw pointer off them faults. */
    if (a->arch != arch) {
        arena_fit(a->ub_end, SIM_ARCH_MAX(ub_size), arch->ub_size);
        arena_fit(a->l1_end, SIM_ARCH_MAX(l1_size), arch->l1_size);
        static const size_t offs[3] = {ARC_L0A_OFF, ARC_L0B_OFF, ARC_L0C_OFF};
        const size_t max[3] = {SIM_ARCH_MAX(l0a_size), SIM_ARCH_MAX(l0b_size), SIM_ARCH_MAX(l0c_size)};
        const size_t size[3] = {arch->l0a_size, arch->l0b_size, arch->l0c_size};
        for (int i = 0; i < 3; i++) {
            mprotect(a->l0 + offs[i], max[i], PROT_NONE);
            mprotect(a->l0 + offs[i], size[i], PROT_READ | PROT_WRITE);
        }
        a->arch = arch;
    }
    k->ub_size = arch->ub_size;
    k->l1_size = arch->l1_size;
    k->ub = a->ub_end - arch->ub_size;
    k->l1 = a->l1_end - arch->l1_size;
    k->l0 = a->l0;
}

/* A memset of a few hundred constant bytes, which GCC inlines as rep stos,
 * costs about 40 cycles to start on the AMD EPYC hosts: zeroing dev[] and
 * the L0 bookkeeping took 37-43 ns a block inline, 14 ns through glibc's
 * memset (a call GCC cannot see through from another file; keep callers
 * out of this one). */
void sim_zero(void *p, size_t n)
{
    memset(p, 0, n);
}

int sim_poison_ub(void)
{
    const char *e = getenv("ASCENDRTC_POISON"); /* read per launch: ascendrtc._poison.poisoning() does the same */
    return e && *e && strcmp(e, "0") != 0;
}

void sim_arenas_poison(arc_core *k)
{
    memset(k->ub, 0xFF, k->ub_size);
}

/* The cube buffers in slot order: name, offset in the slots, bytes. */
static void l0_window(const sim_arch *arch, unsigned s, const char **name, size_t *off, size_t *size)
{
    static const char *names[ARC_L0_SLOTS] = {"L0A buffer", "L0B buffer", "L0C buffer", "BiasTable",
                                              "Fixpipe buffer", "cube bookkeeping area, sparse index and MX scale buffers"};
    const size_t offs[ARC_L0_SLOTS] = {ARC_L0A_OFF, ARC_L0B_OFF, ARC_L0C_OFF, arc_bt_off(arch->num), ARC_FB_OFF, ARC_L0_META_OFF};
    const size_t sizes[ARC_L0_SLOTS] = {arch->l0a_size, arch->l0b_size, arch->l0c_size, arc_bt_size_of(arch->num), ARC_FB_SIZE,
                                        ARC_L0_META_SPAN};
    *name = names[s];
    *off = offs[s];
    *size = sizes[s];
}

static int say(char *buf, size_t n, size_t d, int past, const char *name, size_t size, const sim_arch *arch)
{
    if (size >= 1024)
        snprintf(buf, n, "%zu bytes %s this core's %s of %zu KiB (%s)", d, past ? "past the end of" : "before the "
                 "start of", name, size >> 10, arch->soc);
    else
        snprintf(buf, n, "%zu bytes %s this core's %s of %zu bytes (%s)", d, past ? "past the end of" : "before the "
                 "start of", name, size, arch->soc);
    return 1;
}

int sim_arenas_describe(const arc_core *k, const sim_arch *arch, uintptr_t a, char *buf, size_t n)
{
    struct { const char *name; const unsigned char *lo; size_t size, max; } ar[2] = {
        {"unified buffer (UB)", k->ub, arch->ub_size, SIM_ARCH_MAX(ub_size)},
        {"L1 buffer", k->l1, arch->l1_size, SIM_ARCH_MAX(l1_size)}};
    for (int i = 0; i < 2; i++) {
        if (!ar[i].lo)
            continue;
        uintptr_t lo = (uintptr_t)ar[i].lo, hi = lo + ar[i].size;
        if (a >= hi && a < hi + ARENA_GUARD)
            return say(buf, n, (size_t)(a - hi), 1, ar[i].name, ar[i].size, arch);
        if (a < lo && a >= hi - ar[i].max - ARENA_GUARD)
            return say(buf, n, (size_t)(lo - a), 0, ar[i].name, ar[i].size, arch);
    }
    if (!k->l0)
        return 0;
    uintptr_t base = (uintptr_t)k->l0;
    if (a < base - ARENA_GUARD || a >= base + L0_SPAN + ARENA_GUARD)
        return 0;
    const char *name;
    size_t off, size;
    if (a < base) {
        l0_window(arch, 0, &name, &off, &size);
        return say(buf, n, (size_t)(base - a), 0, name, size, arch);
    }
    /* In slot s: past the end of its buffer, or (nearer) before the next's start. */
    unsigned s = (unsigned)((a - base) / ARC_L0_SLOT);
    if (s >= ARC_L0_SLOTS)
        s = ARC_L0_SLOTS - 1;
    l0_window(arch, s, &name, &off, &size);
    uintptr_t hi = base + off + size;
    if (a < base + off) /* the accessible page start before the BiasTable or Fixpipe buffer: no fault there */
        return say(buf, n, (size_t)(base + off - a), 0, name, size, arch);
    if (s + 1 < ARC_L0_SLOTS) {
        const char *nname;
        size_t noff, nsize;
        l0_window(arch, s + 1, &nname, &noff, &nsize);
        uintptr_t nlo = base + noff;
        if (a - hi > nlo - a)
            return say(buf, n, (size_t)(nlo - a), 0, nname, nsize, arch);
    }
    return say(buf, n, (size_t)(a - hi), 1, name, size, arch);
}
