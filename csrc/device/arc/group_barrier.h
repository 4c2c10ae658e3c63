/* group_barrier.h - GroupBarrier<PipeMode>: `arriveSize` blocks Arrive,
 * `waitSize` blocks Wait until all of them have arrived.
 *
 * Model (assumption; the public docs give the interface, not the GM
 * format): the first 4 bytes of the user's GM workspace count arrivals;
 * the workspace must start zeroed.  Each Wait call of a barrier object
 * waits for one more round of arriveSize arrivals, so the barrier can be
 * reused.  DMA writes are synchronous here, so every PipeMode orders the
 * same. */
#ifndef ARC_GROUP_BARRIER_H_
#define ARC_GROUP_BARRIER_H_

#include "arc/state.h"

namespace AscendC {

enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode mode = PipeMode::MTE3_MODE> class GroupBarrier {
public:
    GroupBarrier(uint8_t *workspace, uint32_t arriveSize, uint32_t waitSize)
        : ws_((uint32_t *)(void *)workspace), arrive_(arriveSize), wait_(waitSize)
    {
        ARC_CHECK(workspace != nullptr, "AscendC::GroupBarrier", "the workspace is a null pointer");
        ARC_CHECK(arriveSize > 0, "AscendC::GroupBarrier", "arriveSize is 0");
        __arc::gm_access(ws_, 4, "AscendC::GroupBarrier");
    }
    void Arrive(uint32_t arriveIndex)
    {
        ARC_CHECK(arriveIndex < arrive_, "AscendC::GroupBarrier::Arrive", "arriveIndex %u is not below arriveSize %u",
                  arriveIndex, arrive_);
        __arc::race_gm_sync(ARC_GM_RELEASE, ARC_GM_SYNC_GROUP, (uintptr_t)ws_);
        __atomic_fetch_add(ws_, 1u, __ATOMIC_ACQ_REL);
    }
    void Wait(uint32_t waitIndex)
    {
        ARC_CHECK(waitIndex < wait_, "AscendC::GroupBarrier::Wait", "waitIndex %u is not below waitSize %u", waitIndex,
                  wait_);
        round_++;
        while (__atomic_load_n(ws_, __ATOMIC_ACQUIRE) < arrive_ * round_) __builtin_ia32_pause();
        __arc::race_gm_sync(ARC_GM_ACQUIRE, ARC_GM_SYNC_GROUP, (uintptr_t)ws_);
    }
    uint64_t GetWorkspaceLen() const { return 32; }

private:
    uint32_t *ws_;
    uint32_t arrive_, wait_;
    uint32_t round_ = 0;
};

} // namespace AscendC

#endif /* ARC_GROUP_BARRIER_H_ */
