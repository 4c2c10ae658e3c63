/* simt_launch.c - a SIMT launch's shape checked against the kernel and the
 * arch (dav-3510): the block (1..the kernel's bound: __launch_bounds__,
 * default 1024, at most 2048 threads), the grid (its product is numBlocks,
 * <= 65535), and UB: static __ubuf__ + dynamic + 8 KiB reserved + the
 * 32 KiB the data cache needs at least must fit the arch's UB. */
#include <string.h>

#include "rt/rt_internal.h"

#define SIMT_UB_RESERVED (8u << 10)
#define SIMT_DCACHE_MIN (32u << 10)

aclError sim_simt_check_launch(const char *api, const sim_func *f, uint32_t numBlocks, int has_block, int has_grid,
                               arc_simt_dims *d)
{
    const arc_kernel_meta *k = f->km;
    if (!k->simt_threads)
        return ACL_SUCCESS;
    if (!has_block)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api,
                       "'%s' is a SIMT kernel: launch it with a thread block (Python: k[grid, block](...); C: the "
                       "ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK launch attribute), not as a SIMD kernel of %u blocks",
                       k->name, numBlocks);
    if (!has_grid) {
        d->grid[0] = numBlocks;
        d->grid[1] = d->grid[2] = 1;
    }
    unsigned long long g = (unsigned long long)d->grid[0] * d->grid[1] * d->grid[2];
    unsigned long long b = (unsigned long long)d->block[0] * d->block[1] * d->block[2];
    if (!g || g > ARC_SIMT_MAX_BLOCKS)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "'%s': grid (%u, %u, %u) has %llu blocks; a SIMT grid has 1 to "
                       "%u blocks", k->name, d->grid[0], d->grid[1], d->grid[2], g, ARC_SIMT_MAX_BLOCKS);
    if (g != numBlocks)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "'%s': grid (%u, %u, %u) has %llu blocks but numBlocks is %u",
                       k->name, d->grid[0], d->grid[1], d->grid[2], g, numBlocks);
    if (!b)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "'%s': block (%u, %u, %u) has 0 threads; a block has 1 to %u",
                       k->name, d->block[0], d->block[1], d->block[2], k->simt_threads);
    if (b > k->simt_threads)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "'%s': block (%u, %u, %u) has %llu threads, over the kernel's "
                       "limit of %u threads per block (__launch_bounds__(n), default %u; at most %u on %s)", k->name,
                       d->block[0], d->block[1], d->block[2], b, k->simt_threads, ARC_SIMT_DEFAULT_THREADS,
                       ARC_SIMT_MAX_THREADS, f->arch->arch);
    unsigned long long ub = (unsigned long long)k->simt_static_ub + d->dyn_ub + SIMT_UB_RESERVED + SIMT_DCACHE_MIN;
    if (ub > f->arch->ub_size)
        return sim_err(ACL_ERROR_RT_PARAM_INVALID, api, "'%s': dynamic UB of %u bytes does not fit: static __ubuf__ "
                       "%u + dynamic %u + %u reserved + the data cache's minimum %u bytes exceed the %zu-byte UB of "
                       "%s (at most %lld bytes of dynamic UB)", k->name, d->dyn_ub, k->simt_static_ub, d->dyn_ub,
                       SIMT_UB_RESERVED, SIMT_DCACHE_MIN, f->arch->ub_size, f->arch->arch,
                       (long long)f->arch->ub_size - k->simt_static_ub - SIMT_UB_RESERVED - SIMT_DCACHE_MIN);
    return ACL_SUCCESS;
}
