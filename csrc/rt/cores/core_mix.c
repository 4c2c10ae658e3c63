/* core_mix.c - MIX blocks: one AIC and its AIVs as fibers of the block's
 * thread, and the cross-core flags between them.
 *
 * A KERNEL_TYPE_MIX_AIC_1_2 block runs the kernel three times (AIC, AIV 0,
 * AIV 1; 1_1: AIC and one AIV), each with its own arc_core and arenas, as
 * the NPU's cores of one AI core do.  A sub-core runs until it returns or
 * waits in CrossCoreWaitFlag on a counter at 0; then the next runnable one
 * runs; one waiting in SyncAll (core_syncall.c) runs again once the
 * barrier opens, the thread sleeping meanwhile if no other can run.  When
 * every unfinished sub-core waits on a flag and none can be released,
 * the block fails with each one's position (the NPU would hang), unless
 * one waits for a mode-0 round (every AIC or every AIV of the launch sets
 * the flag): then the block's thread waits for other blocks to finish the
 * round, and the launch fails only when every block waits or returned.  Each
 * sub-core is a fiber (fiber.c: a guard page below its stack, the
 * sanitizers told of every switch) that never leaves its thread. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt/cores/core_internal.h"

static void sub_main(void *arg);

static sub_core *sub_get(core_thread *ct, int i)
{
    if (ct->subs[i])
        return ct->subs[i];
    sub_core *s = calloc(1, sizeof *s);
    if (!s || sim_arenas_new(&s->ar)) {
        free(s);
        return NULL;
    }
    if (sim_fiber_init(&s->fib, SIM_CORE_STACK, sub_main, s) || !(s->race = sim_race_state_new())) {
        sim_fiber_destroy(&s->fib);
        sim_arenas_free(&s->ar);
        free(s);
        return NULL;
    }
    s->state = SUB_DONE;
    ct->subs[i] = s;
    return s;
}

/* A sub-core's fiber: one run of the kernel per block, until the block
 * needs it no more (SUB_DONE), then back to the block's thread.  A block
 * that failed resumes its waiting sub-cores so they unwind here. */
static void sub_main(void *arg)
{
    sub_core *s = arg;
    for (;;) {
        core_thread *ct = core_self; /* read after each switch (fiber.c); always the same thread */
        if (setjmp(s->jb) == 0 && !atomic_load(&ct->ctx->aborted)) {
            atomic_store(&ct->in_kernel, IN_KERNEL);
            ct->ctx->r->entry(ct->ctx->r->args);
            sim_simt_vf_finish();
        }
        core_leave_kernel(core_self);
        s->state = SUB_DONE;
        sim_fiber_switch(&s->fib, &core_self->sched);
    }
}

/* Run sub-core i until it returns or waits. */
static void sub_run(core_thread *ct, int i)
{
    sub_core *s = ct->subs[i];
    ct->cur_sub = i;
    ct->cur = &s->core;
    ct->jbp = &s->jb;
    void *race = sim_race_swap(s->race); /* its own pipes */
    sim_fiber_switch(&ct->sched, &s->fib);
    s->race = sim_race_swap(race);
}

/* The side of sub-core i for mode 0: 1 the AIC, 0 an AIV. */
#define X0_SIDE(i) ((i) == 0)

/* Mode-0 rounds of flag id done that sub-core s (number i) has not taken. */
static int x0_left(launch_ctx *c, const sub_core *s, int i, int id)
{
    return __atomic_load_n(&c->x0_rounds[X0_SIDE(i)][id], __ATOMIC_ACQUIRE) != s->x0_used[id];
}

/* Whether waiting sub-core s (number i) can go on. */
static int ready(launch_ctx *c, const sub_core *s, int i)
{
    return s->cnt[s->wait_id] || x0_left(c, s, i, s->wait_id);
}

/* Whether a waiting sub-core of the block waits for a mode-0 round it
 * joined (set the flag more often than it waited): other blocks may end
 * it. */
static int x0_waits(core_thread *ct, int n)
{
    for (int i = 0; i < n; i++) {
        sub_core *s = ct->subs[i];
        if (s->state == SUB_WAIT && s->x0_sets[s->wait_id] > s->x0_used[s->wait_id])
            return 1;
    }
    return 0;
}

/* Every core of the block waits, one for a mode-0 round: wait (the block's
 * thread) until a round ends somewhere.  0 when it never can: every other
 * block waits too, or has returned. */
static int x0_block_wait(core_thread *ct, launch_ctx *c, int n)
{
    pthread_mutex_lock(&c->mu);
    for (int i = 0; i < n; i++) /* a round may have ended since the scheduler looked */
        if (ct->subs[i]->state == SUB_WAIT && ready(c, ct->subs[i], i)) {
            pthread_mutex_unlock(&c->mu);
            return 1;
        }
    /* counted in before the returned blocks are read (see block_exit) */
    if (atomic_fetch_add(&c->x0_blocked, 1) + 1 + core_exited(c) >= c->r->nblocks) {
        atomic_fetch_sub(&c->x0_blocked, 1);
        c->hang_told = 1; /* the caller reports it */
        pthread_mutex_unlock(&c->mu);
        return 0;
    }
    uint64_t g = c->x0_gen;
    while (c->x0_gen == g && !atomic_load(&c->aborted))
        pthread_cond_wait(&c->cv, &c->mu);
    if (c->x0_gen == g)
        atomic_fetch_sub(&c->x0_blocked, 1); /* else the round's end released (and uncounted) every blocked block */
    pthread_mutex_unlock(&c->mu);
    return 1;
}

void core_run_mix(core_thread *ct, launch_ctx *c, uint32_t b, int naiv)
{
    const sim_kernel_run *r = c->r;
    int n = 1 + naiv;
    for (int i = 0; i < n; i++) {
        sub_core *s = sub_get(ct, i);
        if (!s) {
            core_fail(c, "out of host memory for a MIX block's sub-core (its arenas and stack)");
            return;
        }
        arc_core *k = &s->core;
        k->block_idx = i == 0 ? b : naiv == 2 ? 2 * (long long)b + (i - 1) : b;
        k->block_num = r->nblocks;
        k->sub_block_idx = i == 0 ? 0 : i - 1;
        k->sub_block_num = i == 0 ? 1 : naiv;
        sim_arenas_enter(&s->ar, k, r->arch);
        if (r->poison_ub)
            sim_arenas_poison(k);
        k->tiling_key = r->tiling_key;
        k->workspace = NULL;
        k->arch = r->arch->num;
        k->core_type = i == 0;
        k->ktype = r->km->ktype;
        k->kernel_name = r->kernel_name;
        sim_zero(k->dev, sizeof k->dev);
        sim_zero(k->l0 + ARC_L0_META_OFF, ARC_L0_META_BYTES);
        void *race = sim_race_swap(s->race); /* the sub-core's pipes start unsynchronised, as a block's */
        sim_race_block_begin(k, r->race_mode, c->seq);
        s->race = sim_race_swap(race);
        sim_simt_vf_reset();
        if (r->cost) sim_cost_sub_begin(k, r, b, i); /* before the GM agent: it routes GM accesses to the model */
        sim_race_gm_agent(c->gm, k, b * (uint32_t)n + (uint32_t)i, b, i == 0 ? 0 : naiv == 1 ? 3 : i);
        s->state = SUB_RUN; /* its fiber waits at the top of sub_main's loop */
        memset(s->cnt, 0, sizeof s->cnt);
        memset(s->pend, 0, sizeof s->pend);
        memset(s->x0_sets, 0, sizeof s->x0_sets);
        memset(s->x0_used, 0, sizeof s->x0_used);
    }
    sim_fiber_thread(&ct->sched);
    ct->nsub = n;
    for (;;) {
        int done = 0, ran = 0;
        for (int i = 0; i < n && !atomic_load(&c->aborted); i++) {
            sub_core *s = ct->subs[i];
            if (s->state == SUB_DONE) {
                done++;
                continue;
            }
            if (s->state == SUB_WAIT && !ready(c, s, i))
                continue;
            if (s->state == SUB_SYNC && __atomic_load_n(&c->gen, __ATOMIC_ACQUIRE) == s->sync_gen)
                continue;
            sub_run(ct, i);
            if (s->state == SUB_DONE)
                core_mix_sub_done(ct, i);
            ran = 1;
        }
        if (atomic_load(&c->aborted) || done == n)
            break;
        int syncing = 0;
        for (int i = 0; i < n; i++)
            syncing |= ct->subs[i]->state == SUB_SYNC;
        if (!ran && syncing) { /* the rest of the launch has to reach the barrier */
            core_mix_sync_wait(ct, c);
            continue;
        }
        if (!ran) {
            int x0 = x0_waits(ct, n);
            if (x0 && x0_block_wait(ct, c, n))
                continue;
            char m[SIM_MSG_MAX];
            size_t o = (size_t)snprintf(m, sizeof m, "%s block %u/%u: CrossCoreWaitFlag: the block's cores wait for "
                                        "flags no core will set%s (the kernel would hang on the NPU):",
                                        r->kernel_name, b, r->nblocks,
                                        x0 ? ", and every other block waits too or has returned" : "");
            for (int i = 0; i < n && o < sizeof m; i++) {
                sub_core *s = ct->subs[i];
                const char *who = i == 0 ? "AIC" : naiv == 1 ? "AIV" : i == 1 ? "AIV 0" : "AIV 1";
                const char *at = sim_core_site(&s->core);
                if (s->state == SUB_WAIT)
                    o += (size_t)snprintf(m + o, sizeof m - o, " %s waits in CrossCoreWaitFlag(%d)%s%s;", who,
                                          s->wait_id, at ? " at " : "", at ? at : "");
                else if (s->state == SUB_SYNC)
                    o += (size_t)snprintf(m + o, sizeof m - o, " %s waits in SyncAll%s%s;", who, at ? " at " : "",
                                          at ? at : "");
                else
                    o += (size_t)snprintf(m + o, sizeof m - o, " %s returned;", who);
            }
            core_fail(c, m);
            break;
        }
    }
    /* A failed block: the sub-cores still waiting (or not started) unwind
     * to the top of their loop, ready for the next block. */
    for (int i = 0; i < n; i++)
        if (ct->subs[i]->state != SUB_DONE)
            sub_run(ct, i);
    ct->cur = &ct->core;
    ct->jbp = &ct->jb;
    ct->nsub = 0;
}

/* Raise sub-core s's counter for id; 15 outstanding sets is the limit. */
static void flag_add(core_thread *ct, sub_core *s, int id)
{
    if (s->cnt[id] >= 15)
        __arc_trap("CrossCoreSetFlag", "flag %d was set 15 times without a CrossCoreWaitFlag: the counter "
                   "overflows (the NPU traps or hangs)", id);
    sim_cost_xset(&ct->subs[ct->cur_sub]->core, &s->core, id); /* when the setter's work is done */
    s->cnt[id]++;
}

int __arc_cross_core(int op, int mode, int flag)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx || !ct->nsub)
        return 0; /* not a MIX launch: no cross-core scheduler, the flags order nothing */
    int id = flag & 15, me = ct->cur_sub, naiv = ct->nsub - 1;
    sub_core *s = ct->subs[me];
    if (op == 0) { /* CrossCoreSetFlag<mode> */
        if (mode == 2 && me == 0) {
            for (int i = 1; i <= naiv; i++)
                flag_add(ct, ct->subs[i], id);
        } else if ((mode == 2 || mode == 1) && me > 0) {
            s->pend[id]++;
            int all = 1;
            for (int i = 1; i <= naiv; i++)
                all &= ct->subs[i]->pend[id] > 0;
            if (all) {
                for (int i = 1; i <= naiv; i++)
                    ct->subs[i]->pend[id]--;
                if (mode == 2)
                    flag_add(ct, ct->subs[0], id);
                else
                    for (int i = 1; i <= naiv; i++)
                        flag_add(ct, ct->subs[i], id);
            }
        } else if (mode == 1) {
            __arc_trap("CrossCoreSetFlag", "mode 1 synchronises the AIVs of one AI core; the AIC set flag %d", id);
        } else {
            __arc_trap("CrossCoreSetFlag", "mode %d (flag %d) is not a mode of Atlas A2's cross-core flags: mode 0 "
                       "(every AIC or every AIV of the launch), 1 (the AIVs of one AI core) and 2 (an AIC and its "
                       "AIVs) are", mode, id);
        }
        return 1;
    }
    if (op == 1) { /* CrossCoreWaitFlag */
        int k = sim_core_service_begin();
        s->wait_id = id;
        while (!ready(ct->ctx, s, me)) {
            s->state = SUB_WAIT;
            sim_fiber_switch(&s->fib, &ct->sched);
            if (atomic_load(&ct->ctx->aborted))
                longjmp(s->jb, 1);
        }
        s->state = SUB_RUN;
        int how = 1;
        if (s->cnt[id]) {
            s->cnt[id]--;
            sim_cost_xwait(&s->core, id);
        } else { /* a mode-0 round (one counter per flag id, as on the NPU) */
            s->x0_used[id]++;
            how = 2;
        }
        sim_core_service_end(k);
        return how;
    }
    /* op 2: this AIC only serves its AIVs' Matmul requests (REGIST_MATMUL_OBJ
     * in a MIX kernel without ASCENDC_CUBE_ONLY): it is done. */
    if (me == 0) {
        sim_core_service_begin();
        longjmp(s->jb, 1);
    }
    return 1;
}

void __arc_cross_set_all(int flag)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx || !ct->nsub)
        return; /* not a MIX launch: no cross-core scheduler, the flags order nothing */
    launch_ctx *c = ct->ctx;
    const sim_kernel_run *r = c->r;
    int id = flag & 15, me = ct->cur_sub, side = X0_SIDE(me), naiv = ct->nsub - 1;
    const char *who = side ? "AIC" : "AIV";
    /* every block is live at once: a MIX launch has at most the AI cores (acl/launch.c) */
    sub_core *s = ct->subs[me];
    uint32_t total = r->nblocks * (side ? 1u : (uint32_t)naiv);
    int k = sim_core_service_begin(); /* no interrupt may leave with the lock held */
    pthread_mutex_lock(&c->mu);
    int again = s->x0_sets[id] > c->x0_rounds[side][id];
    if (!again) {
        s->x0_sets[id]++;
        if (++c->x0_sets[side][id] == total) {
            c->x0_sets[side][id] = 0;
            __atomic_store_n(&c->x0_rounds[side][id], c->x0_rounds[side][id] + 1, __ATOMIC_RELEASE);
            c->x0_gen++;
            atomic_store(&c->x0_blocked, 0); /* all released */
            pthread_cond_broadcast(&c->cv);
        }
    }
    pthread_mutex_unlock(&c->mu);
    sim_core_service_end(k);
    if (again)
        __arc_trap("CrossCoreSetFlag", "mode 0 flag %d set again by this %s before every %s of the launch set it "
                   "once: not modelled by the simulator (wait with CrossCoreWaitFlag(%d) between the sets)",
                   id, who, who, id);
}

void *__arc_mix_ub(int aiv)
{
    core_thread *ct = core_self;
    if (!ct || !ct->ctx || !ct->nsub || ct->cur_sub != 0 || aiv < 0 || 1 + aiv >= ct->nsub)
        return NULL;
    return ct->subs[1 + aiv]->core.ub;
}
