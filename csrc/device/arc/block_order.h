/* block_order.h - deterministic computation by block order:
 * InitDetermineComputeWorkspace, WaitPreBlock, NotifyNextBlock (their
 * pages): after the init, each block's n-th WaitPreBlock returns once
 * block blockIdx - 1 has made its n-th NotifyNextBlock (block 0 never
 * waits), so the blocks pass the region between them in ascending order.
 *
 * The simulated layout (the docs give only the sizes): block b's 32 bytes
 * of gmWorkspace hold an int32 count of its NotifyNextBlock calls; the
 * first int32 of ubWorkspace counts this block's WaitPreBlock calls.  The
 * init zeroes this block's count and then waits for every block (SyncAll:
 * the docs do not ask for a zeroed workspace, so no block may read one
 * before its owner has zeroed it), so all blocks must be live at once, as
 * for SyncAll.  AIV only (their constraint).  The GM race check takes a
 * notify -> wait pair as an ordering.  Each call also orders all of the
 * core's pipes (PipeBarrier<PIPE_ALL>): assumed, as the NPU moves the flags
 * through ubWorkspace with DataCopy and waits on them with the scalar
 * unit, and CANN's own example copies in before WaitPreBlock and out after
 * it with no other synchronisation. */
#ifndef ARC_BLOCK_ORDER_H_
#define ARC_BLOCK_ORDER_H_

#include "arc/sync.h"
#include "arc/sys.h"
#include "arc/tensor.h"

namespace __arc {
/* The GM race check's key of block b's n-th notify (IBSet's keys have bit 63 clear). */
inline uint64_t order_key(int64_t b, int32_t n) { return 1ull << 63 | (uint64_t)(uint32_t)b << 32 | (uint32_t)n; }
inline int32_t *order_slots(AscendC::GlobalTensor<int32_t> &gm, AscendC::LocalTensor<int32_t> &ub, const char *api)
{
    ARC_CHECK(ASCEND_IS_AIV, api, "runs on AIV cores only (its constraints)");
    const int64_t n = AscendC::GetBlockNum();
    gm_access(gm.GetPhyAddr(), (uint64_t)n * 32u, api); /* gmWorkspace: GetBlockNum() * 32 bytes */
    ARC_CHECK((uint64_t)ub.GetSize() * 4u >= (uint64_t)n * 32u + 32u, api,
              "ubWorkspace holds %u bytes; GetBlockNum() * 32 + 32 = %lld are needed", ub.GetSize() * 4u,
              (long long)(n * 32 + 32));
    return (int32_t *)gm.GetPhyAddr();
}
} // namespace __arc

namespace AscendC {
inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace)
{
    int32_t *g = __arc::order_slots(gmWorkspace, ubWorkspace, "AscendC::InitDetermineComputeWorkspace");
    __atomic_store_n(g + GetBlockIdx() * 8, 0, __ATOMIC_RELEASE);
    ubWorkspace.addr_[0] = 0;
    SyncAll();
}
inline void WaitPreBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace)
{
    int32_t *g = __arc::order_slots(gmWorkspace, ubWorkspace, "AscendC::WaitPreBlock");
    const int64_t b = GetBlockIdx();
    const int32_t n = ++ubWorkspace.addr_[0];
    if (b > 0) {
        /* Block b - 1 runs meanwhile (all blocks are live since the init). */
        while (__atomic_load_n(g + (b - 1) * 8, __ATOMIC_ACQUIRE) < n)
            __arc_block_poll(); /* leaves when the launch failed; yields the CPU */
        __arc::race_gm_sync(ARC_GM_ACQUIRE_NEED, ARC_GM_SYNC_IB, __arc::order_key(b - 1, n));
    }
    PipeBarrier<PIPE_ALL>();
}
inline void NotifyNextBlock(GlobalTensor<int32_t> &gmWorkspace, LocalTensor<int32_t> &ubWorkspace)
{
    int32_t *g = __arc::order_slots(gmWorkspace, ubWorkspace, "AscendC::NotifyNextBlock");
    const int64_t b = GetBlockIdx();
    PipeBarrier<PIPE_ALL>();
    const int32_t n = __atomic_load_n(g + b * 8, __ATOMIC_RELAXED) + 1;
    __arc::race_gm_sync(ARC_GM_RELEASE, ARC_GM_SYNC_IB, __arc::order_key(b, n));
    __atomic_store_n(g + b * 8, n, __ATOMIC_RELEASE);
}
} // namespace AscendC

#endif /* ARC_BLOCK_ORDER_H_ */
