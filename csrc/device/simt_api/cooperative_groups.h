/* cooperative_groups.h - SIMT cooperative groups (namespace
 * cooperative_groups), from the SIMT-API docs' "协作组" pages: thread_block
 * (this_thread_block()), thread_block_tile<Size> (tiled_partition<Size>)
 * and coalesced_group (coalesced_threads()), built on the warp functions
 * (device_warp_functions.h) and the block barrier.
 *
 * Threads are linearised x fastest and a warp is a run of 32 of them, so a
 * tile of Size <= 32 is a run of lanes of one warp: its shuffles are the
 * warp's with width Size, its votes the warp's ballot cut to the tile.  A
 * tile of 64..2048 threads spans warps: the docs give it sync, the ranks and
 * sizes, shfl, any and all; here it has sync (the block barrier, which is
 * stronger: where only some tiles sync, the driver reports a barrier not
 * every thread reached, never a wrong value), the ranks and sizes; its
 * shfl/any/all fail to compile naming the limit.  binary_partition and the
 * non-template tiled_partition (a thread_group of run-time size) are not
 * provided. */
#ifndef ASC_SIMT_COOPERATIVE_GROUPS_H_
#define ASC_SIMT_COOPERATIVE_GROUPS_H_

#include "simt_api/device_sync_functions.h"
#include "simt_api/device_warp_functions.h"

namespace cooperative_groups {

#define ARC_CG_INLINE __attribute__((always_inline)) inline

class thread_block {
public:
    static ARC_CG_INLINE void sync() { asc_syncthreads(); }
    static ARC_CG_INLINE unsigned int thread_rank()
    {
        return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    }
    static ARC_CG_INLINE dim3 group_index() { return blockIdx; }
    static ARC_CG_INLINE dim3 thread_index() { return threadIdx; }
    static ARC_CG_INLINE dim3 dim_threads() { return blockDim; }
    static ARC_CG_INLINE unsigned int num_threads() { return blockDim.x * blockDim.y * blockDim.z; }
    static ARC_CG_INLINE unsigned int size() { return num_threads(); }
    static ARC_CG_INLINE dim3 group_dim() { return blockDim; }
};

ARC_CG_INLINE thread_block this_thread_block() { return thread_block(); }

template <unsigned int Size> class thread_block_tile {
    static_assert(Size >= 1 && Size <= 2048 && (Size & (Size - 1)) == 0,
                  "thread_block_tile<Size>: Size is a power of 2 from 1 to 2048");
    static constexpr bool in_warp = Size <= 32;
    static ARC_CG_INLINE unsigned int block_rank() { return thread_block::thread_rank(); }
    /* the tile's lanes in its warp's ballot */
    static ARC_CG_INLINE unsigned int cut(unsigned int warp_bits)
    {
        unsigned int first = block_rank() & 31u & ~(Size - 1u);
        return Size == 32 ? warp_bits : (warp_bits >> first) & ((1u << (Size & 31u)) - 1u);
    }

public:
    ARC_CG_INLINE void sync() const
    {
        if constexpr (in_warp)
            (void)asc_ballot(1); /* a warp point: the tile's lanes meet there */
        else
            asc_syncthreads();
    }
    ARC_CG_INLINE unsigned long long thread_rank() const { return block_rank() & (Size - 1u); }
    ARC_CG_INLINE unsigned long long num_threads() const { return Size; }
    ARC_CG_INLINE unsigned long long size() const { return Size; }
    ARC_CG_INLINE unsigned long long meta_group_rank() const { return block_rank() / Size; }
    ARC_CG_INLINE unsigned long long meta_group_size() const
    {
        return (thread_block::num_threads() + Size - 1u) / Size;
    }
    template <class T> ARC_CG_INLINE T shfl(T var, int src_rank) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::shfl with Size over 32 (across warps) is not simulated");
        return asc_shfl(var, src_rank & (int)(Size - 1u), (int)Size);
    }
    template <class T> ARC_CG_INLINE T shfl_up(T var, unsigned int delta) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::shfl_up takes Size <= 32 (the docs)");
        return asc_shfl_up(var, delta, (int)Size);
    }
    template <class T> ARC_CG_INLINE T shfl_down(T var, unsigned int delta) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::shfl_down takes Size <= 32 (the docs)");
        return asc_shfl_down(var, delta, (int)Size);
    }
    template <class T> ARC_CG_INLINE T shfl_xor(T var, unsigned int lane_mask) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::shfl_xor takes Size <= 32 (the docs)");
        return asc_shfl_xor(var, (int)lane_mask, (int)Size);
    }
    ARC_CG_INLINE unsigned int ballot(int predicate) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::ballot takes Size <= 32 (the docs)");
        return cut(asc_ballot(predicate));
    }
    ARC_CG_INLINE int any(int predicate) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::any with Size over 32 (across warps) is not simulated");
        return cut(asc_ballot(predicate)) != 0;
    }
    ARC_CG_INLINE int all(int predicate) const
    {
        static_assert(in_warp, "thread_block_tile<Size>::all with Size over 32 (across warps) is not simulated");
        /* over the tile's active lanes, as the warp's asc_all */
        return cut(asc_ballot(predicate)) == cut(asc_activemask());
    }
};

template <unsigned int Size, class ParentT> ARC_CG_INLINE thread_block_tile<Size> tiled_partition(const ParentT &)
{
    return thread_block_tile<Size>();
}

/* The active lanes of the calling warp, ranked in lane order. */
class coalesced_group {
    unsigned int mask_;
    static ARC_CG_INLINE unsigned int lane() { return thread_block::thread_rank() & 31u; }
    /* the lane of the group's rank-th thread */
    ARC_CG_INLINE int lane_of(unsigned int rank) const
    {
        unsigned int m = mask_;
        for (unsigned int i = 0; i < rank && m; i++)
            m &= m - 1u;
        return m ? __builtin_ctz(m) : (int)lane();
    }

public:
    ARC_CG_INLINE explicit coalesced_group(unsigned int mask) : mask_(mask) {}
    ARC_CG_INLINE void sync() const { (void)asc_ballot(1); }
    ARC_CG_INLINE unsigned long long thread_rank() const
    {
        return (unsigned long long)__builtin_popcount(mask_ & ((1u << lane()) - 1u));
    }
    ARC_CG_INLINE unsigned long long num_threads() const { return (unsigned long long)__builtin_popcount(mask_); }
    ARC_CG_INLINE unsigned long long size() const { return num_threads(); }
    ARC_CG_INLINE unsigned long long meta_group_rank() const { return 0; }
    ARC_CG_INLINE unsigned long long meta_group_size() const { return 1; }
    template <class T> ARC_CG_INLINE T shfl(T var, unsigned int src_rank) const
    {
        return asc_shfl(var, lane_of(src_rank));
    }
    template <class T> ARC_CG_INLINE T shfl_down(T var, unsigned int delta) const
    {
        unsigned long long r = thread_rank() + delta;
        return asc_shfl(var, r < size() ? lane_of((unsigned int)r) : (int)lane());
    }
    template <class T> ARC_CG_INLINE T shfl_up(T var, unsigned int delta) const
    {
        unsigned long long r = thread_rank();
        return asc_shfl(var, r >= delta ? lane_of((unsigned int)(r - delta)) : (int)lane());
    }
    /* bit i: the group's rank-i thread's predicate */
    ARC_CG_INLINE unsigned int ballot(int predicate) const
    {
        unsigned int b = asc_ballot(predicate) & mask_, out = 0, m = mask_;
        for (unsigned int r = 0; m; r++, m &= m - 1u)
            out |= ((b >> __builtin_ctz(m)) & 1u) << r;
        return out;
    }
    ARC_CG_INLINE int any(int predicate) const { return (asc_ballot(predicate) & mask_) != 0; }
    ARC_CG_INLINE int all(int predicate) const { return (asc_ballot(predicate) & mask_) == mask_; }
};

ARC_CG_INLINE coalesced_group coalesced_threads() { return coalesced_group(asc_activemask()); }

template <class Group> ARC_CG_INLINE void sync(const Group &g) { g.sync(); }

#undef ARC_CG_INLINE

} // namespace cooperative_groups

#endif
