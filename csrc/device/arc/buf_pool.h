/* buf_pool.h - TBufPool (a sub-arena of the TPipe that queues and TBufs
 * are carved from, resettable, nestable, or sharing another pool's
 * memory), custom pools (EXTERN_IMPL_BUFPOOL) and LocalMemAllocator<Hardware>
 * (the static-tensor bump allocator of newer kernels). */
#ifndef ARC_BUF_POOL_H_
#define ARC_BUF_POOL_H_

#include "arc/pipe.h"

namespace AscendC {
namespace __detail {
/* TPipe::InitBufPool: len bytes (rounded to 32) of the pipe's UB or L1,
 * after what it already gave out, become a pool's memory. */
template <class Pipe> inline void pool_attach(Pipe &pipe, TPosition pos, uint32_t len, uint8_t *&base, uint32_t &size)
{
    const char *api = "AscendC::TPipe::InitBufPool";
    arc_core *c = __arc_core();
    bool l1 = pos_is_l1(pos);
    uint64_t &used = l1 ? pipe.l1_used_ : pipe.ub_used_;
    uint64_t cap = l1 ? c->l1_size : c->ub_size, l = ((uint64_t)len + 31u) & ~31ull;
    ARC_CHECK(len > 0, api, "pool length is 0");
    ARC_CHECK(used + l <= cap, api, "a %u-byte pool exceeds the %s: %llu of %llu bytes already used", len,
              l1 ? "L1" : "unified buffer", (unsigned long long)used, (unsigned long long)cap);
    base = (l1 ? c->l1 : c->ub) + used;
    size = (uint32_t)l;
    used += l;
}
} // namespace __detail

template <TPosition pos = TPosition::VECCALC, uint32_t bufIDSize = 4> class TBufPool {
public:
    uint8_t *base_ = nullptr;
    uint32_t len_ = 0;
    uint32_t used_ = 0;
    uint32_t nbuf_ = 0;

    /* Queue / TBuf buffers come from this pool (lengths rounded to 32). */
    bool InitBuffer(TQueBase &que, uint8_t num, uint32_t len)
    {
        return carve(que, num, len, "AscendC::TBufPool::InitBuffer");
    }
    template <TPosition p> bool InitBuffer(TBuf<p> &buf, uint32_t len)
    {
        return carve(buf, 1, len, "AscendC::TBufPool::InitBuffer");
    }
    /* A nested pool of len bytes, or one sharing `share`'s memory. */
    template <class P> bool InitBufPool(P &pool, uint32_t len)
    {
        const char *api = "AscendC::TBufPool::InitBufPool";
        need_base(api);
        uint64_t l = ((uint64_t)len + 31u) & ~31ull;
        ARC_CHECK(used_ + l <= len_, api, "a %u-byte pool exceeds this pool: %u of %u bytes already used", len,
                  used_, len_);
        pool.base_ = base_ + used_;
        pool.len_ = (uint32_t)l;
        pool.used_ = pool.nbuf_ = 0;
        used_ += (uint32_t)l;
        return true;
    }
    template <class P, class Q> bool InitBufPool(P &pool, uint32_t len, Q &share) { return pool.arc_share(share, len); }
    /* Makes the whole pool free again (the buffers carved from it are
     * carved anew by later InitBuffer calls). */
    void Reset() { used_ = 0; nbuf_ = 0; }

    template <class Pipe> bool arc_attach(Pipe &pipe, uint32_t len)
    {
        __detail::pool_attach(pipe, pos, len, base_, len_);
        used_ = nbuf_ = 0;
        return true;
    }
    template <class Q> bool arc_share(Q &share, uint32_t len)
    {
        const char *api = "AscendC::InitBufPool";
        ARC_CHECK(share.base_ != nullptr, api, "the pool to share has no memory yet (InitBufPool it first)");
        ARC_CHECK(len <= share.len_, api, "a %u-byte pool cannot share a %u-byte pool", len, share.len_);
        base_ = share.base_;
        len_ = (((uint32_t)len + 31u) & ~31u);
        used_ = nbuf_ = 0;
        return true;
    }

private:
    void need_base(const char *api) const
    {
        ARC_CHECK(base_ != nullptr, api, "the pool has no memory: call TPipe::InitBufPool first");
    }
    bool carve(TQueBase &q, uint32_t num, uint32_t len, const char *api)
    {
        need_base(api);
        ARC_CHECK(len > 0, api, "buffer length is 0");
        ARC_CHECK(num > 0, api, "buffer count is 0");
        ARC_CHECK(nbuf_ + num <= QBUF_MAX_LEN, api, "%u buffers requested, %u already in the pool (at most %u)", num,
                  nbuf_, QBUF_MAX_LEN);
        uint64_t l = ((uint64_t)len + 31u) & ~31ull;
        ARC_CHECK(used_ + l * num <= len_, api, "%u x %u bytes (rounded to %llu) exceed the pool: %u of %u bytes used",
                  num, len, (unsigned long long)l, used_, len_);
        q.base_ = base_ + used_;
        q.len_ = (uint32_t)l;
        q.num_ = (uint8_t)num;
        q.cursor_ = q.head_ = q.count_ = 0;
        q.inuse_ = q.queued_ = 0;
        used_ += (uint32_t)(l * num);
        nbuf_ += num;
        return true;
    }
};

/* A custom TBufPool (its pages: EXTERN_IMPL_BUFPOOL, Init, Reset,
 * GetBufHandle, Get/SetCurAddr, Get/SetCurBufSize): the user's class
 * carves queues and TBufs itself through InitStartBufHandle/InitBufHandle
 * (arc/pipe.h).  Its addresses are byte offsets into the pool's memory,
 * from 0; a block outside the pool is refused. */
#define EXTERN_IMPL_BUFPOOL(EXT_BUFPOOL, POSITION, BUFID_SIZE)                                               \
public:                                                                                                     \
    uint8_t *base_ = nullptr;                                                                               \
    uint32_t len_ = 0, arc_cur_ = 0;                                                                        \
    uint8_t arc_nbuf_ = 0, arc_handles_[BUFID_SIZE] = {};                                                   \
    void Init() { arc_cur_ = 0, arc_nbuf_ = 0; }                                                            \
    void Reset() { arc_cur_ = 0, arc_nbuf_ = 0; }                                                           \
    ::AscendC::TBufHandle GetBufHandle(uint8_t offset)                                                      \
    {                                                                                                       \
        ARC_CHECK(offset < (BUFID_SIZE), #EXT_BUFPOOL "::GetBufHandle", "block %u of %u", offset,          \
                  (unsigned)(BUFID_SIZE));                                                                  \
        return &arc_handles_[offset];                                                                       \
    }                                                                                                       \
    void SetCurAddr(uint32_t curAddr) { arc_cur_ = curAddr; }                                               \
    uint32_t GetCurAddr() { return arc_cur_; }                                                              \
    void SetCurBufSize(uint8_t curBufSize) { arc_nbuf_ = curBufSize; }                                      \
    uint8_t GetCurBufSize() { return arc_nbuf_; }                                                           \
    template <class Pipe> bool arc_attach(Pipe &pipe, uint32_t len)                                         \
    {                                                                                                       \
        ::AscendC::__detail::pool_attach(pipe, POSITION, len, base_, len_);                                 \
        Init();                                                                                             \
        return true;                                                                                        \
    }                                                                                                       \
    uint8_t *arc_block(uint32_t addr, uint32_t len, const char *api)                                        \
    {                                                                                                       \
        ARC_CHECK(base_ != nullptr, api, #EXT_BUFPOOL " has no memory: call TPipe::InitBufPool first");    \
        ARC_CHECK((uint64_t)addr + len <= len_, api, "a %u-byte block at %u exceeds " #EXT_BUFPOOL "'s %u bytes", \
                  len, addr, len_);                                                                         \
        ARC_CHECK(addr % 32 == 0, api, "block address %u is not 32-byte aligned", addr);                   \
        return base_ + addr;                                                                                \
    }

/* On-chip memories LocalMemAllocator can allocate from. */
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

/* Bump allocator from byte 0 of one memory (static tensors, no TPipe):
 * each tensor starts at the memory's alignment (32 bytes in UB and L1, 512
 * in L0A/L0B, 64 in L0C and the bias table, 128 in the Fixpipe buffer). */
template <Hardware hw = Hardware::UB> class LocalMemAllocator {
public:
    template <typename T, uint32_t n> LocalTensor<T> Alloc() { return Alloc<T>(n); }
    template <typename T> LocalTensor<T> Alloc(uint32_t n) { return Alloc<default_pos(), T>(n); }
    template <TPosition p, typename T, uint32_t n> LocalTensor<T> Alloc() { return Alloc<p, T>(n); }
    template <TPosition p, typename T> LocalTensor<T> Alloc(uint32_t n)
    {
        static_assert(hw != Hardware::GM && hw != Hardware::MAX, "LocalMemAllocator: GM is not an on-chip memory");
        static_assert(holds(p), "LocalMemAllocator::Alloc: this TPosition is not in the allocator's Hardware");
        LocalTensor<T> t(p, cur_, n);
        uint32_t a = __detail::arena_of(p).align;
        cur_ += (n * (uint32_t)sizeof(T) + a - 1u) / a * a;
        return t;
    }
    uint32_t GetCurAddr() const { return cur_; }

private:
    static constexpr TPosition default_pos()
    {
        return hw == Hardware::L1    ? TPosition::A1
               : hw == Hardware::L0A ? TPosition::A2
               : hw == Hardware::L0B ? TPosition::B2
               : hw == Hardware::L0C ? TPosition::CO1
               : hw == Hardware::BIAS ? TPosition::C2
               : hw == Hardware::FIXBUF ? TPosition::C2PIPE2GM
                                        : TPosition::VECCALC;
    }
    /* The positions each memory holds (TPosition's page). */
    static constexpr bool holds(TPosition p)
    {
        switch (hw) {
        case Hardware::L1: return p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1 || p == TPosition::TSCM;
        case Hardware::L0A: return p == TPosition::A2;
        case Hardware::L0B: return p == TPosition::B2;
        case Hardware::L0C: return p == TPosition::CO1;
        case Hardware::BIAS: return p == TPosition::C2;
        case Hardware::FIXBUF: return p == TPosition::C2PIPE2GM;
        default:
            return p == TPosition::VECIN || p == TPosition::VECOUT || p == TPosition::VECCALC;
        }
    }
    uint32_t cur_ = 0;
};

} // namespace AscendC

#endif /* ARC_BUF_POOL_H_ */
