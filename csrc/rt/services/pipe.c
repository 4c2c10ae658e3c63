/* pipe.c - TPipe::InitBuffer's carving of UB, L1 and the cube-side buffers
 * into a queue's buffers, with the CPU twin's checks, compiled once here
 * instead of inlined into every kernel (~120 IR instructions each).  The
 * state is the device API's TPipe and TQueBase (arc/pipe.h checks their
 * layouts against arc_pipe and arc_que); the arenas and messages are the
 * ones arc/tensor.h's arena_of and the device API used. */
#include <stdint.h>

#include "rt/rt_internal.h"

typedef struct arena {
    unsigned char *base;
    uint64_t size;
    uint32_t align;
    const char *name;
} arena;

static arena arena_of(const arc_core *c, int pos)
{
    switch (pos) {
    case ARC_POS_A1: case ARC_POS_B1: case ARC_POS_C1: case ARC_POS_TSCM:
        return (arena){c->l1, c->l1_size, 32, "L1"};
    case ARC_POS_A2: return (arena){c->l0 + ARC_L0A_OFF, arc_l0a_size_of(c->arch), 512, "L0A"};
    case ARC_POS_B2: return (arena){c->l0 + ARC_L0B_OFF, arc_l0b_size_of(c->arch), 512, "L0B"};
    case ARC_POS_CO1: return (arena){c->l0 + ARC_L0C_OFF, arc_l0c_size_of(c->arch), 64, "L0C"};
    case ARC_POS_C2: return (arena){c->l0 + arc_bt_off(c->arch), arc_bt_size_of(c->arch), 64, "BiasTable"};
    case ARC_POS_C2PIPE2GM: return (arena){c->l0 + ARC_FB_OFF, ARC_FB_SIZE, 128, "Fixpipe buffer"};
    default: return (arena){c->ub, c->ub_size, 32, "unified buffer"};
    }
}

static const char *pos_name(int pos)
{
    switch (pos) {
    case ARC_POS_VECIN: return "VECIN";
    case ARC_POS_VECOUT: return "VECOUT";
    case ARC_POS_VECCALC: return "VECCALC";
    case ARC_POS_A1: return "A1";
    case ARC_POS_B1: return "B1";
    case ARC_POS_C1: return "C1";
    case ARC_POS_A2: return "A2";
    case ARC_POS_B2: return "B2";
    case ARC_POS_CO1: return "CO1";
    case ARC_POS_C2: return "C2";
    case ARC_POS_TSCM: return "TSCM";
    case ARC_POS_C2PIPE2GM: return "C2PIPE2GM";
    default: return "other";
    }
}

/* The counter of bytes used for a position's memory. */
static unsigned long long *used_of(arc_pipe *p, int pos)
{
    switch (pos) {
    case ARC_POS_A1: case ARC_POS_B1: case ARC_POS_C1: case ARC_POS_TSCM: return &p->l1_used;
    case ARC_POS_A2: return &p->l0_used[0];
    case ARC_POS_B2: return &p->l0_used[1];
    case ARC_POS_CO1: return &p->l0_used[2];
    case ARC_POS_C2: return &p->l0_used[3];
    case ARC_POS_C2PIPE2GM: return &p->l0_used[4];
    default: return &p->ub_used;
    }
}

void __arc_pipe_carve(arc_pipe *p, arc_que *q, unsigned num, unsigned len, const char *api)
{
    arc_core *c = __arc_core();
    if (!(len > 0))
        __arc_trap(api, "buffer length is 0");
    if (!(num > 0))
        __arc_trap(api, "buffer count is 0");
    if (!(p->nbuf + num <= ARC_QUE_MAX))
        __arc_trap(api, "%u buffers requested, %u already in use: a TPipe has at most %u buffers", num, p->nbuf,
                   (unsigned)ARC_QUE_MAX);
    uint64_t l = ((uint64_t)len + 31u) & ~31ull;
    arena a = arena_of(c, q->pos);
    unsigned long long *used = used_of(p, q->pos);
    *used = (*used + a.align - 1) / a.align * a.align; /* cube buffers start on their alignment */
    if (!(*used + l * num <= a.size))
        __arc_trap(api,
                   "%u x %u bytes (rounded to %llu) for %s exceed the %s: %llu of %llu bytes already used "
                   "on dav-%u", num, len, (unsigned long long)l, pos_name(q->pos), a.name, *used,
                   (unsigned long long)a.size, c->arch);
    q->base = a.base + *used;
    q->len = (unsigned)l;
    q->num = (unsigned char)num;
    q->cursor = q->head = q->count = 0;
    q->inuse = q->queued = 0;
    *used += l * num;
    p->nbuf += num;
}
