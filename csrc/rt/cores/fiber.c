/* fiber.c - stackful fibers for the blocks of SyncAll kernels and the
 * sub-cores (AIC, AIVs) of MIX blocks (core_fibers.c, core_mix.c).
 * A block waiting in SyncAll must keep its stack and registers while the
 * other blocks run; a sleeping OS thread per block did that at the price of
 * a wake-up and a context switch per block and barrier (~10 us each on a
 * VM).  A fiber switch is a few dozen instructions: on x86-64 a small
 * assembly routine saves the callee-saved registers, MXCSR and the x87
 * control word (kernels may change rounding); elsewhere ucontext.
 *
 * Sanitizers must be told about every switch: ASan keeps per-stack state
 * (__sanitizer_start/finish_switch_fiber), TSan a per-fiber clock
 * (__tsan_switch_to_fiber).  A fiber may resume on another thread than the
 * one it left (core_fibers.c moves runnable fibers to idle threads); the code
 * around a switch therefore never keeps a thread-local address across it. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "rt/rt_internal.h"

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define FIBER_TSAN 1
#endif
#endif

#ifdef FIBER_ASAN
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
#endif
#ifdef FIBER_TSAN
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_destroy_fiber(void *fiber);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
#endif

#define FIBER_GUARD (64u << 10) /* below the stack: an overflow faults (fault.c reports it) */

static void fiber_start(sim_fiber *f)
{
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    f->fn(f->arg);
    abort(); /* fn never returns (the fibers of core_fibers.c and core_mix.c loop) */
}

#ifndef SIM_FIBER_UCONTEXT
/* fiber_jump(save, sp): push the callee-saved state, store the stack
 * pointer at *save, continue on the stack sp saved the same way.  A new
 * fiber's stack holds fiber_boot as its return address, with the fiber in
 * rbx. */
void sim_fiber_jump_(void **save, void *sp);
void sim_fiber_boot_(void);
__asm__(".pushsection .text\n"
        ".p2align 4\n"
        ".type sim_fiber_jump_,@function\n"
        ".hidden sim_fiber_jump_\n"
        "sim_fiber_jump_:\n"
        "  pushq %rbp\n"
        "  pushq %rbx\n"
        "  pushq %r12\n"
        "  pushq %r13\n"
        "  pushq %r14\n"
        "  pushq %r15\n"
        "  subq $8, %rsp\n"
        "  stmxcsr (%rsp)\n"
        "  fnstcw 4(%rsp)\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  ldmxcsr (%rsp)\n"
        "  fldcw 4(%rsp)\n"
        "  addq $8, %rsp\n"
        "  popq %r15\n"
        "  popq %r14\n"
        "  popq %r13\n"
        "  popq %r12\n"
        "  popq %rbx\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size sim_fiber_jump_, .-sim_fiber_jump_\n"
        ".p2align 4\n"
        ".type sim_fiber_boot_,@function\n"
        ".hidden sim_fiber_boot_\n"
        "sim_fiber_boot_:\n"
        "  movq %rbx, %rdi\n"
        "  call *%r12\n"
        "  ud2\n"
        ".size sim_fiber_boot_, .-sim_fiber_boot_\n"
        ".popsection\n");

static void prepare(sim_fiber *f)
{
    uintptr_t top = ((uintptr_t)f->stack_lo + f->stack_size) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    *--sp = (uint64_t)(uintptr_t)sim_fiber_boot_; /* rsp is 16-aligned at its call: the ABI's alignment */
    *--sp = 0;                         /* rbp */
    *--sp = (uint64_t)(uintptr_t)f;    /* rbx: fiber_start's argument */
    *--sp = (uint64_t)(uintptr_t)fiber_start; /* r12 */
    *--sp = 0;                         /* r13 */
    *--sp = 0;                         /* r14 */
    *--sp = 0;                         /* r15 */
    uint32_t csr[2] = {0x1f80u, 0x037fu}; /* MXCSR (no FTZ/DAZ), x87 control word: the defaults */
    memcpy(--sp, csr, sizeof csr);
    f->sp = sp;
}

static void jump(sim_fiber *from, sim_fiber *to)
{
    sim_fiber_jump_(&from->sp, to->sp);
}
#else
static void boot(unsigned lo, unsigned hi)
{
    fiber_start((sim_fiber *)(((uintptr_t)hi << 32) | lo));
}

static void prepare(sim_fiber *f)
{
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = f->stack_lo;
    f->uc.uc_stack.ss_size = f->stack_size;
    f->uc.uc_link = NULL;
    uintptr_t a = (uintptr_t)f;
    makecontext(&f->uc, (void (*)(void))boot, 2, (unsigned)(a & 0xffffffffu), (unsigned)((uint64_t)a >> 32));
}

static void jump(sim_fiber *from, sim_fiber *to)
{
    swapcontext(&from->uc, &to->uc);
}
#endif

int sim_fiber_init(sim_fiber *f, size_t stack, void (*fn)(void *arg), void *arg)
{
    memset(f, 0, sizeof *f);
    stack = sim_align_up(stack, 4096);
    unsigned char *m = mmap(NULL, stack + FIBER_GUARD, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    if (mprotect(m + FIBER_GUARD, stack, PROT_READ | PROT_WRITE)) {
        munmap(m, stack + FIBER_GUARD);
        return -1;
    }
    f->map = m;
    f->stack_lo = m + FIBER_GUARD;
    f->stack_size = stack;
    f->fn = fn;
    f->arg = arg;
#ifdef FIBER_TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
    prepare(f);
    return 0;
}

void sim_fiber_destroy(sim_fiber *f)
{
    if (!f->map)
        return;
#ifdef FIBER_TSAN
    if (f->tsan)
        __tsan_destroy_fiber(f->tsan);
#endif
#ifdef FIBER_ASAN
    __asan_unpoison_memory_region(f->stack_lo, f->stack_size); /* a fiber dropped mid-call leaves redzones */
#endif
    munmap(f->map, f->stack_size + FIBER_GUARD);
    memset(f, 0, sizeof *f);
}

void sim_fiber_thread(sim_fiber *f)
{
    memset(f, 0, sizeof *f);
#ifdef FIBER_ASAN
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
        pthread_attr_getstack(&at, &f->stack_lo, &f->stack_size);
        pthread_attr_destroy(&at);
    }
#endif
#ifdef FIBER_TSAN
    f->tsan = __tsan_get_current_fiber();
#endif
}

void sim_fiber_switch(sim_fiber *from, sim_fiber *to)
{
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, to->stack_lo, to->stack_size);
#endif
#ifdef FIBER_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
    jump(from, to);
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}
