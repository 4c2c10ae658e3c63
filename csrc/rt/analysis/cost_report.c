/* cost_report.c - the cost model's launches (docs/performance_model.md): once
 * every block of a profiled launch has run, its blocks are placed on the
 * SoC's cores (in waves when they outnumber them, phase by phase when the
 * kernel calls SyncAll), and the launch -- estimate, per-pipe busy time,
 * per-block spans, the operations' timeline -- is appended to the
 * profiling session as JSON, which ascendrtc/_profile.py reads. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exports.h"
#include "rt/analysis/cost_model.h"

static const char *const pipe_keys[CP] = {"scalar", "vec", "cube", "mte1", "mte2", "mte3", "fixpipe"};

/* ---- the session ---- */
static pthread_mutex_t sess_mu = PTHREAD_MUTEX_INITIALIZER;
static atomic_int sess_on;
static const sim_cost_soc *sess_soc; /* NULL: the device's SoC */
static char *sess_buf, *taken;
static size_t sess_len, sess_cap;
static unsigned sess_n;

int sim_cost_session_on(void) { return atomic_load_explicit(&sess_on, memory_order_relaxed); }

const sim_cost_soc *sim_cost_session_soc(void)
{
    pthread_mutex_lock(&sess_mu);
    const sim_cost_soc *s = sess_soc;
    pthread_mutex_unlock(&sess_mu);
    return s;
}

static double maxd(double a, double b) { return a > b ? a : b; }

/* ---- JSON ---- */
typedef struct sbuf {
    char *p;
    size_t n, cap;
    int oom;
} sbuf;

static void put(sbuf *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(sbuf *s, const char *fmt, ...)
{
    if (s->oom)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int w = vsnprintf(s->p ? s->p + s->n : NULL, s->p ? s->cap - s->n : 0, fmt, ap);
        va_end(ap);
        if (w < 0) {
            s->oom = 1;
            return;
        }
        if (s->p && s->n + (size_t)w < s->cap) {
            s->n += (size_t)w;
            return;
        }
        size_t cap = s->cap ? s->cap * 2 : 4096;
        while (cap < s->n + (size_t)w + 1) cap *= 2;
        char *np = realloc(s->p, cap);
        if (!np) {
            s->oom = 1;
            return;
        }
        s->p = np;
        s->cap = cap;
    }
}

static void put_str(sbuf *s, const char *v)
{
    put(s, "\"");
    for (const unsigned char *c = (const unsigned char *)(v ? v : ""); *c; c++) {
        if (*c == '"' || *c == '\\') put(s, "\\%c", *c);
        else if (*c < 0x20) put(s, "\\u%04x", *c);
        else put(s, "%c", *c);
    }
    put(s, "\"");
}

/* Index of string v in the launch's table (linear: few distinct strings). */
static unsigned intern(const char ***tab, unsigned *n, unsigned *cap, const char *v)
{
    for (unsigned i = 0; i < *n; i++)
        if ((*tab)[i] == v || ((*tab)[i] && v && !strcmp((*tab)[i], v)))
            return i;
    if (*n == *cap) {
        unsigned nc = *cap ? *cap * 2 : 32;
        const char **t = realloc(*tab, nc * sizeof *t);
        if (!t)
            return 0;
        *tab = t;
        *cap = nc;
    }
    (*tab)[*n] = v;
    return (*n)++;
}

void sim_cost_block_free(cost_block *b)
{
    if (!b)
        return;
    free(b->ev);
    free(b->marks);
    free(b->port);
    sim_cost_l2_block_free(b);
    free(b);
}

void sim_cost_launch_end(sim_cost_launch *c, aclError code)
{
    if (!c)
        return;
    uint32_t n = c->nblocks, unpriced = 0, with_marks = 0;
    double *end = calloc(n, sizeof *end), *off = calloc(n, sizeof *off);
    uint32_t *core = calloc(n, sizeof *core);
    double *phase_start = NULL;
    if (code || !end || !off || !core)
        goto out;
    sim_cost_mix_fold(c);
    for (uint32_t i = 0; i < n; i++) {
        cost_block *b = c->blocks[i];
        if (!b) {
            unpriced++;
            continue;
        }
        sim_cost_close_op(b);
        double t = b->s;
        for (int p = 1; p < CP; p++) t = maxd(t, b->free[p]);
        end[i] = t;
        if (b->nmarks) with_marks++;
    }
    uint32_t ncores = n < c->cores ? n : c->cores;
    double total = 0;
    uint32_t nphase = 0;
    if (with_marks) {
        /* SyncAll: all blocks run at once (a launch with more blocks than
         * cores traps); phase j starts when the slowest block reached the
         * j-th SyncAll. */
        for (uint32_t i = 0; i < n; i++)
            if (c->blocks[i] && c->blocks[i]->nmarks > nphase) nphase = c->blocks[i]->nmarks;
        phase_start = calloc(nphase + 1, sizeof *phase_start);
        if (!phase_start)
            goto out;
        for (uint32_t j = 1; j <= nphase; j++) {
            double longest = 0;
            for (uint32_t i = 0; i < n; i++) {
                cost_block *b = c->blocks[i];
                if (!b || b->nmarks < j) continue;
                double prev = j >= 2 ? b->marks[j - 2] : 0;
                longest = maxd(longest, b->marks[j - 1] - prev);
            }
            phase_start[j] = phase_start[j - 1] + longest;
        }
        for (uint32_t i = 0; i < n; i++) {
            cost_block *b = c->blocks[i];
            core[i] = i % (ncores ? ncores : 1);
            if (!b) continue;
            double last = b->nmarks ? b->marks[b->nmarks - 1] : 0;
            double fin = phase_start[b->nmarks] + end[i] - last;
            total = maxd(total, fin);
            end[i] = fin;
        }
    } else {
        /* waves: each block goes to the core that frees first */
        double *cf = calloc(ncores ? ncores : 1, sizeof *cf);
        if (!cf)
            goto out;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t best = 0;
            for (uint32_t j = 1; j < ncores; j++)
                if (cf[j] < cf[best]) best = j;
            core[i] = best;
            off[i] = cf[best];
            end[i] += off[i];
            cf[best] = end[i];
            total = maxd(total, end[i]);
        }
        free(cf);
    }

    sbuf s = {0};
    const char **strs = NULL;
    unsigned nstr = 0, capstr = 0;
    double busy[CP] = {0}, block_sum = 0;
    uint64_t rd = 0, wr = 0, dropped = 0, nops = 0, dev_rd = 0, host = 0;
    double flops = 0;
    put(&s, "{\"kernel\":");
    put_str(&s, c->kernel);
    put(&s, ",\"soc\":");
    put_str(&s, c->soc->name);
    put(&s, ",\"clock_mhz\":%.1f,\"gm_bytes_per_s\":%.6g,\"blocks\":%u,\"cores\":%u,\"core_type\":\"%s\","
            "\"pipes\":[", c->soc->mhz, c->soc->gm_Bps, n, ncores, c->core_type ? "cube" : "vector");
    for (int p = 0; p < CP; p++) put(&s, "%s\"%s\"", p ? "," : "", pipe_keys[p]);
    put(&s, "],\"per_block\":[");
    for (uint32_t i = 0; i < n; i++) {
        cost_block *b = c->blocks[i];
        double start = with_marks ? 0 : off[i];
        put(&s, "%s[%u,%.3f,%.3f", i ? "," : "", core[i], start, b ? end[i] : start);
        for (int p = 0; p < CP; p++) {
            double v = b ? b->busy[p] : 0;
            busy[p] += v;
            put(&s, ",%.3f", v);
        }
        put(&s, "]");
        if (b) {
            block_sum += end[i] - start;
            rd += b->gm_rd;
            wr += b->gm_wr;
            dev_rd += b->dev_rd;
            host += b->hbm_host;
            flops += b->flops;
            dropped += b->dropped;
            nops += b->nops;
        }
    }
    put(&s, "],\"events\":[");
    int first = 1;
    for (uint32_t i = 0; i < n; i++) {
        cost_block *b = c->blocks[i];
        if (!b) continue;
        for (size_t e = 0; e < b->nev; e++) {
            const cost_ev *v = &b->ev[e];
            double shift = off[i];
            if (with_marks) {
                uint32_t ph = v->phase;
                shift = phase_start[ph] - (ph ? b->marks[ph - 1] : 0);
            }
            unsigned ai = intern(&strs, &nstr, &capstr, v->api), si = intern(&strs, &nstr, &capstr, v->site);
            put(&s, "%s[%u,%u,%.3f,%.3f,%llu,%u,%u,%u]", first ? "" : ",", i, v->pipe, v->start + shift,
                v->end + shift, (unsigned long long)v->bytes, ai, si, v->assumed);
            first = 0;
        }
    }
    /* where the timeline lost events: [block, events dropped, start of the first] */
    put(&s, "],\"dropped_from\":[");
    first = 1;
    for (uint32_t i = 0; i < n; i++) {
        cost_block *b = c->blocks[i];
        if (!b || !b->dropped) continue;
        double shift = off[i];
        if (with_marks) shift = 0;
        put(&s, "%s[%u,%llu,%.3f]", first ? "" : ",", i, (unsigned long long)b->dropped, b->first_drop + shift);
        first = 0;
    }
    put(&s, "],\"strings\":[");
    for (unsigned i = 0; i < nstr; i++) {
        if (i) put(&s, ",");
        if (strs[i]) put_str(&s, strs[i]);
        else put(&s, "null");
    }
    /* The roofline: no launch is faster than its HBM bytes over the HBM
     * bandwidth, all its GM bytes over the L2 bandwidth, or its vector or
     * cube work over the cores that share it.  The per-core model already
     * respects these (cost_gm.c); the floor makes it a guarantee. */
    double hz = c->soc->mhz * 1e6, sched = total;
    uint64_t hbm = sim_cost_l2_chip_hbm(c, dev_rd, host);
    double floor_hbm = (double)hbm / c->soc->gm_Bps * hz, floor_l2 = (double)(rd + wr) / c->soc->l2_Bps * hz;
    double floor_pipe = 0;
    for (int p = 1; p <= 2; p++) floor_pipe = maxd(floor_pipe, busy[p] / (ncores ? ncores : 1));
    total = maxd(total, maxd(floor_hbm, maxd(floor_l2, floor_pipe)));
    put(&s, "],\"cycles\":%.3f,\"schedule_cycles\":%.3f,\"roofline\":{\"hbm\":%.3f,\"l2\":%.3f,"
            "\"compute\":%.3f},\"hbm_bytes\":%llu,\"flops\":%.17g,\"peak_flops\":%.17g,\"busy\":[",
        total, sched, floor_hbm, floor_l2, floor_pipe, (unsigned long long)hbm, flops,
        (double)c->soc->aic * 8192.0 * hz);
    for (int p = 0; p < CP; p++) put(&s, "%s%.3f", p ? "," : "", busy[p]);
    put(&s, "],\"block_cycles\":%.3f,\"gm_read_bytes\":%llu,\"gm_write_bytes\":%llu,\"ops\":%llu,"
            "\"dropped_events\":%llu,\"unpriced_blocks\":%u,\"sync_all_phases\":%u,\"mix_unpriced\":%d,"
            "\"simt_unpriced\":%d}",
        block_sum, (unsigned long long)rd, (unsigned long long)wr, (unsigned long long)nops,
        (unsigned long long)dropped, unpriced, nphase, atomic_load(&c->mix) && nops == 0, c->simt);
    free(strs);
    if (!s.oom) {
        pthread_mutex_lock(&sess_mu);
        if (atomic_load(&sess_on)) {
            sbuf all = {sess_buf, sess_len, sess_cap, 0};
            put(&all, "%s%s", sess_n ? "," : "", s.p);
            if (!all.oom) {
                sess_n++;
                sess_len = all.n;
            }
            sess_buf = all.p;
            sess_cap = all.cap;
        }
        pthread_mutex_unlock(&sess_mu);
    }
    free(s.p);
out:
    free(phase_start);
    free(end);
    free(off);
    free(core);
    for (uint32_t i = 0; i < n; i++) sim_cost_block_free(c->blocks[i]);
    free(c->subs);
    sim_cost_l2_free(c);
    free(c->blocks);
    free(c);
}

/* ---- exports (common/exports.h) ---- */
int ascendrtc_profile(int on, const char *soc)
{
    if (on && soc && *soc && !sim_cost_soc_find(soc))
        return -1;
    pthread_mutex_lock(&sess_mu);
    int was = atomic_load(&sess_on);
    if (on) {
        sess_soc = soc && *soc ? sim_cost_soc_find(soc) : NULL;
        sess_len = 0;
        sess_n = 0;
    }
    atomic_store(&sess_on, on ? 1 : 0);
    pthread_mutex_unlock(&sess_mu);
    return was;
}

const char *ascendrtc_profile_take(void)
{
    pthread_mutex_lock(&sess_mu);
    free(taken);
    size_t len = sess_len;
    taken = malloc(len + 3);
    if (taken) {
        taken[0] = '[';
        if (len) memcpy(taken + 1, sess_buf, len);
        taken[len + 1] = ']';
        taken[len + 2] = 0;
    }
    sess_len = 0;
    sess_n = 0;
    pthread_mutex_unlock(&sess_mu);
    return taken;
}

const char *ascendrtc_profile_socs(void)
{
    static char names[2048]; /* every common/socs.h row */
    pthread_mutex_lock(&sess_mu);
    if (!names[0]) {
        size_t n, w = 0;
        const sim_cost_soc *t = sim_cost_soc_names(&n);
        for (size_t i = 0; i < n && w < sizeof names; i++)
            w += (size_t)snprintf(names + w, sizeof names - w, "%s%s", i ? "," : "", t[i].name);
    }
    pthread_mutex_unlock(&sess_mu);
    return names;
}
