/* fault.c - a faulty kernel reports instead of killing the process.
 *
 * GM checks: the device API calls __arc_gm_check when an access leaves the
 * allocation it cached for this block; the access must lie inside a live
 * allocation (its size rounded up to 32 bytes, as aclrtMalloc rounds) or
 * the launch's own argument block (placeholder data).  Otherwise the block
 * traps with the byte range, the allocation and the kernel parameter that
 * points into it.  ASCENDRTC_GM_CHECKS=0 turns these checks and mem.c's
 * guard pages off (the device API then checks nothing after one call).
 *
 * Signals: SIGTRAP (a breakpoint), SIGSEGV/SIGBUS (a raw store into a guard page, a bad pointer, a
 * stack overflow - core threads have an alternate signal stack), SIGFPE
 * (integer division by zero) and SIGILL on a core thread in kernel code
 * fail the launch with ACL_ERROR_RT_AICORE_EXCEPTION and longjmp out of
 * the block; anywhere else they go to the handler installed before ours.
 * The interrupt signal (SIGRTMIN+6) lets the watchdog stop a core that
 * spins in kernel code after its launch timed out, and a thread running
 * op host code under a recovery point after its time ran out. */
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <ucontext.h>
#include <stdlib.h>
#include <string.h>

#include "common/exports.h"
#include "rt/rt_internal.h"

static int gm_checks = 1;
static pthread_once_t gm_once = PTHREAD_ONCE_INIT;

static void read_gm_checks(void)
{
    const char *e = getenv("ASCENDRTC_GM_CHECKS");
    gm_checks = !(e && (!strcmp(e, "0") || !strcmp(e, "off") || !strcmp(e, "no")));
}

int sim_gm_checks(void)
{
    pthread_once(&gm_once, read_gm_checks); /* once: guard pages must not change under live allocations */
    return gm_checks;
}

int sim_interrupt_signal(void)
{
    return SIGRTMIN + 6;
}

/* " (kernel parameter 2 'z')" when a pointer parameter of the launch
 * points into the allocation at base; "" otherwise. */
static void param_of(const sim_kernel_run *r, uintptr_t base, char *buf, size_t n)
{
    buf[0] = 0;
    if (!r || !r->km)
        return;
    for (uint32_t i = 0; i < r->km->nparams; i++) {
        const arc_param *p = &r->km->params[i];
        if (p->kind != ARC_PARAM_POINTER || (size_t)p->offset + 8 > r->args_size)
            continue;
        uintptr_t v;
        memcpy(&v, r->args + p->offset, sizeof v);
        sim_alloc a;
        if (v && sim_mem_find((const void *)v, &a) && a.base == base) {
            snprintf(buf, n, " (kernel parameter %u '%s')", i, p->name && *p->name ? p->name : "?");
            return;
        }
    }
}

void sim_gm_param(const sim_kernel_run *r, uintptr_t base, char *buf, size_t n)
{
    param_of(r, base, buf, n);
}

/* Describe where address u lies relative to the allocations. */
static void describe(const sim_kernel_run *r, uintptr_t u, char *buf, size_t n)
{
    sim_alloc a;
    char par[160];
    int g = 0;
    if (sim_mem_find((const void *)u, &a) || (g = sim_mem_guard_hit((const void *)u, &a))) {
        param_of(r, a.base, par, sizeof par);
        if (g == 1)
            snprintf(buf, n, "%zu bytes before the start of the allocation at %p of %zu bytes%s",
                     (size_t)(a.base - u), (void *)a.base, a.size, par);
        else if (u < a.base + a.size)
            snprintf(buf, n, "%zu bytes into the allocation at %p of %zu bytes%s", (size_t)(u - a.base),
                     (void *)a.base, a.size, par);
        else
            snprintf(buf, n, "%zu bytes past the end of the allocation at %p of %zu bytes%s",
                     (size_t)(u - a.base - a.size), (void *)a.base, a.size, par);
        return;
    }
    if (sim_mem_was_freed((const void *)u, &a)) {
        snprintf(buf, n, "%zu bytes into the allocation at %p of %zu bytes, which was already freed (aclrtFree): "
                 "a use after free (aclrtFree does not wait for the kernels in flight: synchronize first, or free "
                 "with aclrtFreeWithDevSync)", (size_t)(u - a.base), (void *)a.base, a.size);
        return;
    }
    snprintf(buf, n, "not inside any device allocation");
}

void __arc_gm_check(const void *p, unsigned long long bytes, const char *api, unsigned long long range[2])
{
    int k = sim_core_service_begin();
    if (!sim_gm_checks()) {
        range[0] = 0;
        range[1] = ~0ull;
        sim_core_service_end(k);
        return;
    }
    const sim_kernel_run *r = sim_core_launch();
    uintptr_t u = (uintptr_t)p;
    uintptr_t end = u + (uintptr_t)bytes;
    sim_alloc a;
    char par[160], where[320];
    if (sim_mem_find(p, &a)) {
        uintptr_t lim = a.base + sim_align_up(a.size, 32);
        if (end >= u && end <= lim) {
            range[0] = a.base;
            range[1] = lim;
            sim_core_service_end(k);
            return;
        }
        param_of(r, a.base, par, sizeof par);
        __arc_trap(api ? api : "GM access",
                   "GM bytes [%llu, %llu) of the allocation at %p (%zu bytes%s)%s are out of bounds: %llu bytes "
                   "(%p..%p) run %llu bytes past its end",
                   (unsigned long long)(u - a.base), (unsigned long long)(u - a.base) + bytes, (void *)a.base, a.size,
                   a.size % 32 ? ", usable up to the next 32-byte boundary" : "", par, bytes, p,
                   (void *)(end - 1), (unsigned long long)(end - (a.base + a.size)));
    }
    if (r && u >= (uintptr_t)r->args && end >= u && end <= (uintptr_t)r->args + r->args_size) {
        range[0] = (uintptr_t)r->args;
        range[1] = (uintptr_t)r->args + r->args_size;
        sim_core_service_end(k);
        return;
    }
    describe(r, u, where, sizeof where);
    __arc_trap(api ? api : "GM access", "GM access of %llu bytes at %p is outside device memory: the address is %s",
               bytes, p, where);
}

/* ---- signal handlers ---- */

static struct sigaction old_segv, old_bus, old_fpe, old_ill, old_trap, old_abrt;
static __thread sigjmp_buf *recovery; /* a compile on this thread (ascendrtc_fault_recovery) */
static __thread void (*recovery_note)(void); /* ascendrtc_fault_recovery_note */
static pthread_mutex_t install_mu = PTHREAD_MUTEX_INITIALIZER;
static atomic_uint launches;

static struct sigaction *old_of(int sig)
{
    return sig == SIGSEGV ? &old_segv : sig == SIGBUS ? &old_bus : sig == SIGFPE ? &old_fpe : sig == SIGTRAP ? &old_trap : sig == SIGABRT ? &old_abrt
                                                                                            : &old_ill;
}

/* Not ours: hand the signal to whoever had it before. */
static void chain(int sig, siginfo_t *si, void *uc)
{
    struct sigaction *o = old_of(sig);
    if (o->sa_flags & SA_SIGINFO) {
        if (o->sa_sigaction) {
            o->sa_sigaction(sig, si, uc);
            return;
        }
    } else if (o->sa_handler != SIG_DFL && o->sa_handler != SIG_IGN) {
        o->sa_handler(sig);
        return;
    }
    /* Default action: restore it; the faulting instruction runs again and
     * the process ends as it would have without us. */
    signal(sig, SIG_DFL);
    if (si->si_code <= 0) /* sent by kill/raise: send it again */
        raise(sig);
}

/* 1 when the faulting address lies just below the stack pointer (the
 * thread's stack guard): a stack overflow. */
static int near_stack(const siginfo_t *si, const void *uc)
{
#if defined(__x86_64__) && defined(REG_RSP)
    uintptr_t sp = (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
    uintptr_t a = (uintptr_t)si->si_addr;
    return a <= sp + 4096 && sp - a < (64u << 10);
#else
    (void)si;
    (void)uc;
    return 0;
#endif
}

/* x86 reports INT_MIN / -1 like a division by zero (FPE_INTDIV): decode
 * the faulting div/idiv and read its divisor.  1: the divisor is 0, 2: it
 * is -1 (an overflow), 0: unknown (a memory operand, not x86). */
static int divisor_kind(const void *uc)
{
#if defined(__x86_64__) && defined(REG_RIP)
    const greg_t *g = ((const ucontext_t *)uc)->uc_mcontext.gregs;
    const unsigned char *ip = (const unsigned char *)g[REG_RIP];
    int rex = 0, opsize16 = 0;
    for (int i = 0; i < 4 && (ip[0] == 0x66 || (ip[0] & 0xf0) == 0x40); i++, ip++) {
        if (ip[0] == 0x66)
            opsize16 = 1;
        else
            rex = ip[0];
    }
    if (ip[0] != 0xf7 && ip[0] != 0xf6)
        return 0;
    unsigned modrm = ip[1], mod = modrm >> 6, rm = modrm & 7;
    if (((modrm >> 3) & 7) < 6)
        return 0;
    static const int map[16] = {REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
                                REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15};
    unsigned long long v;
    if (mod == 3) {
        v = (unsigned long long)g[map[rm | ((rex & 1) << 3)]];
    } else { /* a memory operand: the instruction has read it, so it is readable */
        const unsigned char *p = ip + 2;
        uintptr_t addr;
        int32_t d32;
        if (rm == 4) {
            unsigned sib = *p++, idx = ((sib >> 3) & 7) | ((rex & 2) << 2), base = (sib & 7) | ((rex & 1) << 3);
            addr = idx == 4 ? 0 : (uintptr_t)g[map[idx]] << (sib >> 6);
            if ((sib & 7) == 5 && mod == 0) {
                memcpy(&d32, p, 4);
                p += 4;
                addr += (uintptr_t)(intptr_t)d32;
            } else {
                addr += (uintptr_t)g[map[base]];
            }
        } else if (rm == 5 && mod == 0) {
            memcpy(&d32, p, 4);
            p += 4;
            addr = (uintptr_t)(p + (intptr_t)d32); /* RIP-relative: from the next instruction (no immediate) */
        } else {
            addr = (uintptr_t)g[map[rm | ((rex & 1) << 3)]];
        }
        if (mod == 1) {
            addr += (uintptr_t)(intptr_t)(int8_t)*p;
        } else if (mod == 2) {
            memcpy(&d32, p, 4);
            addr += (uintptr_t)(intptr_t)d32;
        }
        v = 0;
        memcpy(&v, (const void *)addr, ip[0] == 0xf6 ? 1 : (rex & 8) ? 8 : opsize16 ? 2 : 4);
    }
    if (ip[0] == 0xf6)
        v &= 0xff;
    else if (!(rex & 8))
        v &= opsize16 ? 0xffff : 0xffffffffu;
    if (v == 0)
        return 1;
    unsigned long long all = ip[0] == 0xf6 ? 0xff : (rex & 8) ? ~0ull : opsize16 ? 0xffff : 0xffffffffu;
    return v == all ? 2 : 0;
#else
    (void)uc;
    return 0;
#endif
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    sigjmp_buf *jb = recovery;
    if (jb) { /* the compiler crashed: libacl_rtc reports it */
        void (*note)(void) = recovery_note;
        recovery_note = NULL; /* a fault in it comes back here and leaves */
        if (note)
            note();
        recovery = NULL;
        siglongjmp(*jb, sig);
    }
    if (sig != SIGABRT && sim_core_launch()) {
        char body[SIM_MSG_MAX / 2], where[320];
        const char *api = "kernel code";
        if (sig == SIGFPE) {
            int dk = si->si_code == FPE_INTDIV ? divisor_kind(uc) : 0;
            snprintf(body, sizeof body, "%s (SIGFPE at %p)",
                     dk == 2 || si->si_code == FPE_INTOVF ? "integer overflow in a division (INT_MIN / -1: the "
                                                            "quotient does not fit)"
                     : dk == 1                            ? "integer division by zero"
                     : si->si_code == FPE_INTDIV          ? "integer division by zero, or INT_MIN / -1"
                                                          : "arithmetic exception",
                     si->si_addr);
        } else if (sig == SIGILL) {
            snprintf(body, sizeof body, "illegal instruction at %p (SIGILL)", si->si_addr);
        } else if (sig == SIGTRAP) {
            snprintf(body, sizeof body, "breakpoint trap (SIGTRAP: __builtin_debugtrap(), int3 or a debugger "
                     "breakpoint in kernel code)");
        } else if (near_stack(si, uc)) {
            snprintf(body, sizeof body, "stack overflow at %p (SIGSEGV): a core has a %u MiB stack; deep recursion "
                     "or large local arrays in kernel code", si->si_addr, SIM_CORE_STACK >> 20);
        } else if (sim_core_describe_local((uintptr_t)si->si_addr, where, sizeof where)) {
            snprintf(body, sizeof body, "invalid memory access at %p (%s): the address is %s (a raw local-memory "
                     "pointer ran off its buffer)", si->si_addr, sig == SIGBUS ? "SIGBUS" : "SIGSEGV", where);
        } else {
            describe(sim_core_launch(), (uintptr_t)si->si_addr, where, sizeof where);
            snprintf(body, sizeof body, "invalid memory access at %p (%s): the address is %s%s", si->si_addr,
                     sig == SIGBUS ? "SIGBUS" : "SIGSEGV", where,
                     strstr(where, "past the end")       ? " (a raw pointer access past its end hit the guard page)"
                     : strstr(where, "before the start") ? " (a raw pointer access before its start hit the guard "
                                                           "page)"
                                                         : "");
        }
        const char *last = sim_core_site(__arc_core());
        size_t bl = strlen(body);
        if (last && bl + 1 < sizeof body) /* no PC -> line map: the nearest line the core is known to have passed */
            snprintf(body + bl, sizeof body - bl, "; last device-API call before the fault (at %s)", last);
        sim_core_signal_abort(api, body); /* returns only outside kernel code */
    }
    chain(sig, si, uc);
}

static void on_interrupt(int sig, siginfo_t *si, void *uc)
{
    (void)si;
    (void)uc;
    sigjmp_buf *jb = recovery;
    if (jb) { /* op host code stopped (a timeout, Ctrl-C): see ascendrtc_fault_interrupt */
        recovery = NULL;
        siglongjmp(*jb, sig);
    }
    sim_core_signal_abort(NULL, NULL); /* longjmps out of kernel code, or does nothing */
}

static void install_one(int sig, void (*fn)(int, siginfo_t *, void *), struct sigaction *old)
{
    struct sigaction cur;
    if (sigaction(sig, NULL, &cur) || ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == fn))
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (old)
        *old = cur;
    sigaction(sig, &sa, NULL);
}

static void install_all(void)
{
    pthread_mutex_lock(&install_mu);
    install_one(SIGSEGV, on_fault, &old_segv);
    install_one(SIGBUS, on_fault, &old_bus);
    install_one(SIGFPE, on_fault, &old_fpe);
    install_one(SIGILL, on_fault, &old_ill);
    install_one(SIGTRAP, on_fault, &old_trap);
    install_one(SIGABRT, on_fault, &old_abrt);
    install_one(sim_interrupt_signal(), on_interrupt, NULL);
    pthread_mutex_unlock(&install_mu);
}

void sim_fault_install(void)
{
    /* Someone (Python's faulthandler, a debugger) may install a handler
     * after us: look again every 64 launches, not every time (syscalls). */
    if (atomic_fetch_add(&launches, 1) % 64 == 0)
        install_all();
}

/* Exported for libacl_rtc (compile.cpp): while jb is set, a fault or an
 * abort on the calling thread siglongjmps to jb with the signal number, so
 * a crashing compiler becomes a compile error.  NULL clears it. */
void ascendrtc_fault_recovery(sigjmp_buf *jb)
{
    if (jb)
        install_all();
    recovery = jb;
}

void ascendrtc_fault_recovery_note(void (*note)(void)) { recovery_note = note; }

/* Exported for the extension (op_host_code.c): stop a thread running op host
 * code under a recovery point (it siglongjmps there with the signal). */
int ascendrtc_fault_interrupt(unsigned long thread)
{
    return pthread_kill((pthread_t)thread, sim_interrupt_signal());
}
