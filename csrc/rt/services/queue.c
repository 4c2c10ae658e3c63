/* queue.c - the TQue/TQueBind buffer rings' operations (AllocTensor, EnQue,
 * DeQue, FreeTensor) with the CPU twin's state checks, compiled once here
 * instead of inlined into every kernel for every queue type and element
 * type (they were half of the seed add kernel's code).  The state is the
 * device API's TQueBase (arc/pipe.h checks the layout against arc_que);
 * a queue whose pipes imply syncs reports them to the race check as the
 * device API's own race_sync does (only when the launch's race mode is on). */
#include "rt/rt_internal.h"

static void que_sync(const arc_que *q, int kind, int from, int to, int i)
{
    arc_core *c = __arc_core();
    if (c->dev[ARC_RACE_SLOT])
        __arc_race_sync(kind, from, to, (unsigned long long)(uintptr_t)(q->base + (uint64_t)i * q->len));
}

/* The buffer p lies in; traps when it lies in none of q's. */
static int index_of(const arc_que *q, const void *p, const char *api)
{
    const unsigned char *a = p;
    if (!q->base)
        __arc_trap(api, "the queue has no buffers: call TPipe::InitBuffer first");
    if (!(a >= q->base && a < q->base + (uint64_t)q->len * q->num)) {
        const unsigned char *ub = __arc_core()->ub;
        __arc_trap(api,
                   "the tensor (UB offset %lld) does not belong to this queue (buffers at UB offset %lld, %u x %u bytes)",
                   (long long)(a - ub), (long long)(q->base - ub), q->num, q->len);
    }
    return (int)((a - q->base) / q->len);
}

int __arc_que_alloc(arc_que *q, int pipes)
{
    const char *api = "AscendC::TQue::AllocTensor";
    if (!q->base)
        __arc_trap(api, "the queue has no buffers: call TPipe::InitBuffer first");
    for (int k = 0; k < q->num; k++) {
        int i = (q->cursor + k) % q->num;
        if (!(q->inuse >> i & 1)) {
            q->inuse |= 1ull << i;
            q->cursor = (unsigned char)((i + 1) % q->num);
            if (pipes)
                que_sync(q, ARC_RACE_QWAIT, pipes & 15, pipes >> 4, i);
            return i;
        }
    }
    __arc_trap(api, "all %u buffers of the queue are allocated and none was freed (FreeTensor); "
                    "the NPU would hang here", (unsigned)q->num);
}

void __arc_que_enque(arc_que *q, const void *p, int depth, int pipes)
{
    const char *api = "AscendC::TQue::EnQue";
    int i = index_of(q, p, api);
    if (!(q->inuse >> i & 1))
        __arc_trap(api, "buffer %d of the queue is not allocated (AllocTensor first, or it was already freed)", i);
    if (q->queued >> i & 1)
        __arc_trap(api, "buffer %d is already in the queue", i);
    if (!(depth <= 0 || q->count < depth))
        __arc_trap(api, "the queue is full: depth %d, %u tensors enqueued and not dequeued", depth,
                   (unsigned)q->count);
    q->fifo[(q->head + q->count) % ARC_QUE_MAX] = (unsigned char)i;
    q->count++;
    q->queued |= 1ull << i;
    if (pipes)
        que_sync(q, ARC_RACE_QSET, pipes >> 4, pipes & 15, i);
}

int __arc_que_deque(arc_que *q, int pipes)
{
    if (q->count == 0)
        __arc_trap("AscendC::TQue::DeQue",
                   "the queue is empty: DeQue without a matching EnQue (%u of %u buffers allocated)",
                   (unsigned)__builtin_popcountll(q->inuse), (unsigned)q->num);
    int i = q->fifo[q->head];
    q->head = (unsigned char)((q->head + 1) % ARC_QUE_MAX);
    q->count--;
    q->queued &= ~(1ull << i);
    if (pipes)
        que_sync(q, ARC_RACE_QWAIT, pipes >> 4, pipes & 15, i);
    return i;
}

void __arc_que_free(arc_que *q, const void *p, int pipes)
{
    const char *api = "AscendC::TQue::FreeTensor";
    int i = index_of(q, p, api);
    if (!(q->inuse >> i & 1))
        __arc_trap(api, "buffer %d of the queue is already free (FreeTensor twice, or never allocated)", i);
    if (q->queued >> i & 1)
        __arc_trap(api, "buffer %d is still in the queue (EnQue without DeQue)", i);
    q->inuse &= ~(1ull << i);
    if (pipes)
        que_sync(q, ARC_RACE_QSET, pipes & 15, pipes >> 4, i);
}
