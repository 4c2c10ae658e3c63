/* pipe.h - TPipe (carves UB/L1 into buffers, one per core), TQueBind/TQue
 * (buffer rings with the CPU twin's state checks) and TBuf (scratch). */
#ifndef ARC_PIPE_H_
#define ARC_PIPE_H_

#include "arc/tensor.h"
#include "arc/sync.h"

namespace AscendC {

constexpr uint32_t QBUF_MAX_LEN = 64;

namespace __detail {
static inline bool pos_is_l1(TPosition p)
{
    return p == TPosition::A1 || p == TPosition::B1 || p == TPosition::C1 || p == TPosition::TSCM;
}
static inline const char *pos_name(TPosition p)
{
    switch (p) {
    case TPosition::VECIN: return "VECIN";
    case TPosition::VECOUT: return "VECOUT";
    case TPosition::VECCALC: return "VECCALC";
    case TPosition::A1: return "A1";
    case TPosition::B1: return "B1";
    case TPosition::C1: return "C1";
    case TPosition::A2: return "A2";
    case TPosition::B2: return "B2";
    case TPosition::CO1: return "CO1";
    case TPosition::C2: return "C2";
    case TPosition::TSCM: return "TSCM";
    case TPosition::C2PIPE2GM: return "C2PIPE2GM";
    default: return "other";
    }
}
/* The pipes a queue's implied syncs connect, as producer * 16 + consumer
 * (pipe_t values), 0 for none: EnQue sets producer->consumer and DeQue
 * waits for it; FreeTensor sets consumer->producer and AllocTensor of that
 * buffer waits for it.  A TQue of a position binds it to GM. */
constexpr uint8_t que_pipes(TPosition src, TPosition dst)
{
    TPosition p = src == TPosition::GM ? dst : dst == TPosition::GM ? src : TPosition::MAX;
    if (p == TPosition::MAX)
        return src == TPosition::VECIN && dst == TPosition::VECOUT ? 0x45 : 0; /* MTE2 -> MTE3 */
    switch (p) {
    case TPosition::VECIN: return 0x41;                                            /* MTE2 -> V */
    case TPosition::VECOUT: return 0x15;                                           /* V -> MTE3 */
    case TPosition::A1: case TPosition::B1: case TPosition::C1: return 0x43;       /* MTE2 -> MTE1 */
    case TPosition::A2: case TPosition::B2: case TPosition::C2: return 0x32;       /* MTE1 -> M */
    case TPosition::CO1: return 0x2A;                                              /* M -> FIX */
    default: return 0;
    }
}
} // namespace __detail

/* A custom TBufPool's buffer block handle (its pages: "actually uint8_t*"). */
using TBufHandle = uint8_t *;

/* State shared by TQue, TQueBind and TBuf: `num` buffers of `len` bytes. */
class TQueBase {
public:
    uint8_t *base_ = nullptr;
    uint32_t len_ = 0;
    uint8_t num_ = 0;
    uint8_t cursor_ = 0;   /* next buffer AllocTensor tries */
    uint8_t head_ = 0, count_ = 0;  /* FIFO of enqueued buffer indices */
    uint64_t inuse_ = 0;   /* bit i: buffer i allocated and not freed */
    uint64_t queued_ = 0;  /* bit i: buffer i is in the FIFO */
    uint8_t fifo_[QBUF_MAX_LEN];
    TPosition pos_ = TPosition::VECCALC;

    /* The same state as the runtime's queue operations see it. */
    arc_que *raw() { return reinterpret_cast<arc_que *>(this); }

    /* A custom TBufPool (EXTERN_IMPL_BUFPOOL, arc/buf_pool.h) sets the
     * blocks: num of len bytes, then each block's address in the pool
     * (offsets into the pool's memory, as its GetCurAddr gives them).  The
     * queue's blocks must lie back to back: others are not modelled. */
    void InitStartBufHandle(TBufHandle startBufhandle, uint8_t num, uint32_t len)
    {
        const char *api = "AscendC::InitStartBufHandle";
        ARC_CHECK(startBufhandle != nullptr, api, "the start buffer handle is null");
        ARC_CHECK(num > 0 && num <= QBUF_MAX_LEN, api, "%u blocks (1..%u)", num, QBUF_MAX_LEN);
        ARC_CHECK(len > 0 && len % 32 == 0, api, "block length %u is not a positive multiple of 32 bytes", len);
        base_ = nullptr;
        len_ = len;
        num_ = num;
        cursor_ = head_ = count_ = 0;
        inuse_ = queued_ = 0;
    }
    template <class P>
    void InitBufHandle(P *bufPool, uint32_t index, TBufHandle bufhandle, uint32_t curPoolAddr, uint32_t len)
    {
        const char *api = "AscendC::InitBufHandle";
        ARC_CHECK(bufhandle != nullptr, api, "buffer handle %u is null", index);
        ARC_CHECK(index < num_ && len == len_, api,
                  "block %u of %u bytes: InitStartBufHandle set %u blocks of %u bytes", index, len, num_, len_);
        uint8_t *p = bufPool->arc_block(curPoolAddr, len, api);
        ARC_CHECK(index == 0 ? true : p == base_ + (uint64_t)index * len_, api,
                  "block %u at pool address %u does not follow block %u: a queue's blocks lie back to back in "
                  "ascendrtc (other layouts are not modelled)", index, curPoolAddr, index - 1);
        if (index == 0) base_ = p;
    }
};
static_assert(__builtin_offsetof(TQueBase, base_) == __builtin_offsetof(arc_que, base) &&
                  __builtin_offsetof(TQueBase, len_) == __builtin_offsetof(arc_que, len) &&
                  __builtin_offsetof(TQueBase, num_) == __builtin_offsetof(arc_que, num) &&
                  __builtin_offsetof(TQueBase, cursor_) == __builtin_offsetof(arc_que, cursor) &&
                  __builtin_offsetof(TQueBase, head_) == __builtin_offsetof(arc_que, head) &&
                  __builtin_offsetof(TQueBase, count_) == __builtin_offsetof(arc_que, count) &&
                  __builtin_offsetof(TQueBase, inuse_) == __builtin_offsetof(arc_que, inuse) &&
                  __builtin_offsetof(TQueBase, queued_) == __builtin_offsetof(arc_que, queued) &&
                  __builtin_offsetof(TQueBase, fifo_) == __builtin_offsetof(arc_que, fifo) &&
                  __builtin_offsetof(TQueBase, pos_) == __builtin_offsetof(arc_que, pos) &&
                  sizeof(TQueBase) == sizeof(arc_que) && QBUF_MAX_LEN == ARC_QUE_MAX,
              "TQueBase and arc_que (core_abi.h) must have the same layout");

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0> class TQueBind : public TQueBase {
    static constexpr int pipes_ = __detail::que_pipes(src, dst);
    template <typename T> LocalTensor<T> tensor(int i)
    {
        return LocalTensor<T>((T *)(void *)(base_ + (uint64_t)i * len_), len_, pos_);
    }

public:
    TQueBind() { pos_ = src == TPosition::GM ? dst : src; }

    /* The checks and the state changes are the runtime's (rt/services/queue.c). */
    template <typename T> LocalTensor<T> AllocTensor() { return tensor<T>(__arc_que_alloc(raw(), pipes_)); }
    template <typename T> void AllocTensor(LocalTensor<T> &t) { t = AllocTensor<T>(); }
    template <typename T> void DeQue(LocalTensor<T> &t) { t = DeQue<T>(); }
    template <typename T> bool EnQue(const LocalTensor<T> &t)
    {
        __arc_que_enque(raw(), t.addr_, depth, pipes_);
        return true;
    }
    template <TPosition, TPosition, typename T> bool EnQue(const LocalTensor<T> &t) { return EnQue(t); }
    template <typename T> LocalTensor<T> DeQue() { return tensor<T>(__arc_que_deque(raw(), pipes_)); }
    template <TPosition, TPosition, typename T> LocalTensor<T> DeQue() { return DeQue<T>(); }
    template <typename T> void FreeTensor(const LocalTensor<T> &t) { __arc_que_free(raw(), t.addr_, pipes_); }
    bool VacantInQue() const { return depth <= 0 || count_ < depth; }
    bool HasTensorInQue() const { return count_ > 0; }
    int32_t GetTensorCountInQue() const { return count_; }
    bool HasIdleBuffer() const { return num_ > 0 && __builtin_popcountll(inuse_) < num_; }
    void FreeAllEvent() {}
    template <typename T> void FreeBuffer(const LocalTensor<T> &t) { FreeTensor(t); }
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public TQueBind<pos == TPosition::VECIN || pos == TPosition::A1 || pos == TPosition::B1 ? TPosition::GM : pos,
                             pos == TPosition::VECIN || pos == TPosition::A1 || pos == TPosition::B1 ? pos : TPosition::GM,
                             depth, mask> {
public:
    TQue() { this->pos_ = pos; }
};

/* A queue whose data lands in TSCM (L1 the cube reads), from GM or VECIN (the TSCM page). */
template <TPosition pos, int32_t depth = 1, auto mask = 0> using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

template <TPosition pos = TPosition::VECCALC> class TBuf : public TQueBase {
public:
    TBuf() { pos_ = pos; }
    template <typename T> LocalTensor<T> Get() const
    {
        ARC_CHECK(base_ != nullptr, "AscendC::TBuf::Get", "the TBuf has no buffer: call TPipe::InitBuffer first");
        return LocalTensor<T>((T *)(void *)base_, len_, pos_);
    }
    template <typename T> LocalTensor<T> Get(uint32_t n) const
    {
        ARC_CHECK(base_ != nullptr, "AscendC::TBuf::Get", "the TBuf has no buffer: call TPipe::InitBuffer first");
        ARC_CHECK((uint64_t)n * sizeof(T) <= len_, "AscendC::TBuf::Get",
                  "%u elements of %s (%llu bytes) exceed the buffer's %u bytes", n, __arc::tname<T>(),
                  (unsigned long long)n * sizeof(T), len_);
        LocalTensor<T> r((T *)(void *)base_, n * (uint32_t)sizeof(T), pos_);
        r.cap_ = len_;
        return r;
    }
    template <typename T> LocalTensor<T> GetWithOffset(uint32_t n, uint32_t byteOffset) const
    {
        ARC_CHECK(base_ != nullptr, "AscendC::TBuf::GetWithOffset",
                  "the TBuf has no buffer: call TPipe::InitBuffer first");
        ARC_CHECK((uint64_t)n * sizeof(T) + byteOffset <= len_, "AscendC::TBuf::GetWithOffset",
                  "%u elements of %s at byte offset %u exceed the buffer's %u bytes", n,
                  __arc::tname<T>(), byteOffset, len_);
        LocalTensor<T> r((T *)(void *)(base_ + byteOffset), n * (uint32_t)sizeof(T), pos_);
        r.cap_ = len_ - byteOffset;
        return r;
    }
    template <typename T> void EnQue(const LocalTensor<T> &) {}
    template <typename T> LocalTensor<T> DeQue() { return Get<T>(); }
    template <typename T> LocalTensor<T> AllocTensor() { return Get<T>(); }
    template <typename T> void FreeTensor(const LocalTensor<T> &) {}
};

class TPipe {
public:
    TPipe()
    {
        arc_core *c = __arc_core();
        ARC_CHECK(c->dev[__arc::SLOT_PIPE] == 0, "AscendC::TPipe::TPipe",
                  "a second TPipe was created while another is alive; a kernel has one TPipe");
        c->dev[__arc::SLOT_PIPE] = (unsigned long long)(uintptr_t)this;
    }
    ~TPipe()
    {
        unsigned long long &s = __arc_core()->dev[__arc::SLOT_PIPE];
        if (s == (unsigned long long)(uintptr_t)this) s = 0;
    }
    /* A copy is the same data, not a second pipe (CATLASS passes its
     * Resource, which holds the TPipe, by value to empty prologues): it
     * does not take the kernel's one TPipe slot. */
    TPipe(const TPipe &) = default;
    TPipe &operator=(const TPipe &) = default;

    /* A queue's `num` buffers of `len` bytes (rounded up to 32). */
    bool InitBuffer(TQueBase &que, uint8_t num, uint32_t len)
    {
        return carve(que, num, len, "AscendC::TPipe::InitBuffer");
    }
    template <TPosition pos> bool InitBuffer(TBuf<pos> &buf, uint32_t len)
    {
        return carve(buf, 1, len, "AscendC::TPipe::InitBuffer");
    }
    void Reset()
    {
        ub_used_ = l1_used_ = 0;
        for (auto &u : l0_used_) u = 0;
        nbuf_ = 0;
    }
    /* Releases the pipe: a new TPipe may be created afterwards. */
    void Destroy()
    {
        Reset();
        unsigned long long &s = __arc_core()->dev[__arc::SLOT_PIPE];
        if (s == (unsigned long long)(uintptr_t)this) s = 0;
    }
    void Init() {}
    /* TBufPool (arc/buf_pool.h): a pool of len bytes carved from this
     * pipe, or one sharing the memory of `share`. */
    template <class P> bool InitBufPool(P &pool, uint32_t len) { return pool.arc_attach(*this, len); }
    template <class P, class Q> bool InitBufPool(P &pool, uint32_t len, Q &share) { return pool.arc_share(share, len); }

    /* Event ids: FetchEventID peeks at a free id, AllocEventID takes it. */
    template <HardEvent evt> TEventID AllocEventID()
    {
        int e = (int)evt;
        unsigned long long &m = __arc_core()->dev[__arc::SLOT_EVT_ALLOC + e / 8];
        uint64_t bits = (m >> ((e % 8) * 8)) & 0xffu;
        ARC_CHECK(bits != 0xffu, "AscendC::TPipe::AllocEventID",
                  "all 8 event ids of HardEvent %d are allocated", e);
        int id = __builtin_ctzll(~bits);
        m |= 1ull << ((e % 8) * 8 + id);
        return (TEventID)id;
    }
    template <HardEvent evt> void ReleaseEventID(TEventID id)
    {
        int e = (int)evt;
        ARC_CHECK(id >= 0 && id < 8, "AscendC::TPipe::ReleaseEventID", "event id %d is out of range 0..7", (int)id);
        __arc_core()->dev[__arc::SLOT_EVT_ALLOC + e / 8] &= ~(1ull << ((e % 8) * 8 + id));
    }
    template <HardEvent evt> TEventID FetchEventID()
    {
        int e = (int)evt;
        uint64_t bits = (__arc_core()->dev[__arc::SLOT_EVT_ALLOC + e / 8] >> ((e % 8) * 8)) & 0xffu;
        return bits == 0xffu ? (TEventID)0 : (TEventID)__builtin_ctzll(~bits);
    }
    TEventID FetchEventID(HardEvent evt)
    {
        int e = (int)evt;
        uint64_t bits = (__arc_core()->dev[__arc::SLOT_EVT_ALLOC + e / 8] >> ((e % 8) * 8)) & 0xffu;
        return bits == 0xffu ? (TEventID)0 : (TEventID)__builtin_ctzll(~bits);
    }

    uint64_t ub_used_ = 0, l1_used_ = 0;
    uint64_t l0_used_[5] = {0, 0, 0, 0, 0}; /* L0A, L0B, L0C, BiasTable, Fixpipe buffer */
    uint32_t nbuf_ = 0;

    /* The checks and the arithmetic are the runtime's (rt/services/pipe.c). */
    bool carve(TQueBase &q, uint32_t num, uint32_t len, const char *api)
    {
        __arc_pipe_carve(reinterpret_cast<arc_pipe *>(this), q.raw(), num, len, api);
        return true;
    }
};
static_assert(__builtin_offsetof(TPipe, ub_used_) == __builtin_offsetof(arc_pipe, ub_used) &&
                  __builtin_offsetof(TPipe, l1_used_) == __builtin_offsetof(arc_pipe, l1_used) &&
                  __builtin_offsetof(TPipe, l0_used_) == __builtin_offsetof(arc_pipe, l0_used) &&
                  __builtin_offsetof(TPipe, nbuf_) == __builtin_offsetof(arc_pipe, nbuf) &&
                  sizeof(TPipe) == sizeof(arc_pipe),
              "TPipe and arc_pipe (core_abi.h) must have the same layout");

inline TPipe *GetTPipePtr()
{
    TPipe *p = (TPipe *)(uintptr_t)__arc_core()->dev[__arc::SLOT_PIPE];
    ARC_CHECK(p != nullptr, "AscendC::GetTPipePtr", "no TPipe exists on this core");
    return p;
}

/* A tensor over all of pos's memory the TPipe has not handed out (UB for
 * the vector positions, L1 for A1/B1/C1), taking none of it: a later
 * InitBuffer may hand the same bytes out again, as the docs warn. */
template <typename T, TPosition pos> inline bool PopStackBuffer(LocalTensor<T> &popLocal)
{
    constexpr bool l1 = pos == TPosition::A1 || pos == TPosition::B1 || pos == TPosition::C1;
    static_assert(l1 || pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::VECCALC,
                  "AscendC::PopStackBuffer: a UB (VECIN/VECOUT/VECCALC/LCM) or L1 (A1/B1/C1) position");
    arc_core *c = __arc_core();
    TPipe *p = GetTPipePtr();
    const uint64_t used = ((l1 ? p->l1_used_ : p->ub_used_) + 31u) & ~31ull, size = l1 ? c->l1_size : c->ub_size;
    ARC_CHECK(used < size, "AscendC::PopStackBuffer", "the TPipe has handed out all %llu bytes of %s",
              (unsigned long long)size, l1 ? "L1" : "the unified buffer");
    unsigned char *base = (l1 ? c->l1 : c->ub) + used;
    popLocal = LocalTensor<T>((T *)base, (uint32_t)((size - used) / sizeof(T) * sizeof(T)), pos);
    return true;
}
} // namespace AscendC
/* CANN kernels call GetTPipePtr() unqualified outside AscendC (the public
 * FlashAttentionScore sample, with only using-declarations of other names). */
using AscendC::GetTPipePtr;

#endif /* ARC_PIPE_H_ */
