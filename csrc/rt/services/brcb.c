/* brcb.c - Brcb (each of 8 source elements per repeat fills a 32-byte block
 * of dst), compiled once here instead of inlined into every kernel that
 * calls it (~130 IR instructions).  It moves bit patterns, so one copy
 * serves every 16- and 32-bit type; checks, order and messages are
 * arc/misc.h's Brcb's (src through __arc_check_cnt, as it reports). */
#include <stdint.h>
#include <string.h>

#include "rt/rt_internal.h"

void __arc_brcb(void *dst, unsigned dst_bytes, const void *src, unsigned src_bytes, unsigned repeat, unsigned blk,
                unsigned rep, unsigned esize, const char *tname)
{
    const char *api = "AscendC::Brcb";
    arc_core *c = __arc_core();
    const uint32_t epb = 32 / esize;
    if (repeat && c->dev[ARC_RACE_SLOT]) {
        /* dst is written on PIPE_V: reported first (vector dst operands come
         * first), clamped to the tensor (its bound is checked below); blocks
         * with gaps between them are a sparse footprint. */
        uint64_t b = ((uint64_t)(repeat - 1) * rep + 7ull * blk + 1) * epb * esize;
        c->dev[ARC_COST_ESIZE_SLOT] = esize;
        __arc_race_access(1 /* PIPE_V */, blk == 1 && (repeat == 1 || rep == 8) ? 2 : 2 | ARC_RACE_SPARSE, dst,
                          b < dst_bytes ? b : dst_bytes, api);
    }
    __arc_check_cnt(src, src_bytes, (long long)repeat * 8, esize, tname, api, "src");
    if (((uintptr_t)dst & 31u) != 0)
        __arc_trap(api, "%s address is not 32-byte aligned (offset %llu bytes into UB)", "dst",
                   (unsigned long long)((const unsigned char *)dst - c->ub));
    if (dst == src) __arc_trap(api, "dst and src must not be the same tensor");
    if (repeat == 0) return;
    uint64_t ext = ((uint64_t)(repeat - 1) * rep + 7ull * blk + 1) * epb;
    if (!(ext * esize <= dst_bytes))
        __arc_trap(api, "dst: %u repeats reach element %llu, the tensor has %u", repeat, (unsigned long long)ext,
                   dst_bytes / esize);
    /* Brcb's page states no overlap rule: the general note makes overlap unsupported */
    __arc_check_overlap(dst, ext * esize, src, (uint64_t)repeat * 8 * esize, ARC_OVERLAP_NONE, api, "src");
    for (uint32_t r = 0; r < repeat; r++)
        for (uint32_t j = 0; j < 8; j++) {
            unsigned char *d = (unsigned char *)dst + ((uint64_t)r * rep + (uint64_t)j * blk) * 32;
            if (esize == 4) {
                uint32_t v;
                memcpy(&v, (const unsigned char *)src + (r * 8 + j) * 4, 4);
                for (uint32_t e = 0; e < 8; e++) memcpy(d + 4 * e, &v, 4);
            } else {
                uint16_t v;
                memcpy(&v, (const unsigned char *)src + (r * 8 + j) * 2, 2);
                for (uint32_t e = 0; e < 16; e++) memcpy(d + 2 * e, &v, 2);
            }
        }
}
