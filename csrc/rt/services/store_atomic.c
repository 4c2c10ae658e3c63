/* store_atomic.c - DataCopy UB -> GM in an atomic mode (SetAtomicAdd/Max/
 * Min) on 32-bit float, int32 and uint32, compiled once here instead of in
 * every kernel with a copy out.  Each element is combined with what GM holds
 * by a compare-and-swap, as arc/atomic.h's atomic_apply does (cores run
 * concurrently); the combine is its combine<T>, so results are the same. */
#include <stdint.h>
#include <string.h>

#include "rt/rt_internal.h"


static uint32_t combine(uint32_t ob, uint32_t vb, int op, int kind)
{
    if (kind == ARC_ATOMIC32_F32) {
        float o, v, n;
        memcpy(&o, &ob, 4);
        memcpy(&v, &vb, 4);
        n = op == ARC_ATOMIC_ADD ? (float)(o + v) : op == ARC_ATOMIC_MAX ? (o > v ? o : v) : (o < v ? o : v);
        uint32_t nb;
        memcpy(&nb, &n, 4);
        return nb;
    }
    if (op == ARC_ATOMIC_ADD) return ob + vb; /* two's complement: the same bits for int32 and uint32 */
    if (kind == ARC_ATOMIC32_I32) {
        int32_t o = (int32_t)ob, v = (int32_t)vb;
        return (uint32_t)(op == ARC_ATOMIC_MAX ? (o > v ? o : v) : (o < v ? o : v));
    }
    return op == ARC_ATOMIC_MAX ? (ob > vb ? ob : vb) : (ob < vb ? ob : vb);
}

void __arc_store_atomic32(void *dst, const void *src, unsigned long long n, int op, int kind)
{
    uint32_t *w = (uint32_t *)dst;
    for (unsigned long long i = 0; i < n; i++) {
        uint32_t v;
        memcpy(&v, (const unsigned char *)src + 4 * i, 4);
        uint32_t old = __atomic_load_n(&w[i], __ATOMIC_RELAXED);
        while (!__atomic_compare_exchange_n(&w[i], &old, combine(old, v, op, kind), 1, __ATOMIC_RELAXED,
                                            __ATOMIC_RELAXED)) {
        }
    }
}
