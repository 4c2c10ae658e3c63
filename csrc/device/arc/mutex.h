/* mutex.h - Mutex::Lock / Mutex::Unlock (Ascend 950, core-internal sync):
 * Lock<pipe>(id) makes the pipe's later instructions wait until the mutex
 * is released; Unlock<pipe>(id) releases it once the pipe's earlier
 * instructions are done (its API pages).  The simulated pipes run in
 * program order, so the pair only tells the race check what it orders:
 * an Unlock is a release to every other pipe, the next Lock an acquire. */
#ifndef ARC_MUTEX_H_
#define ARC_MUTEX_H_

#include "arc/race.h"

namespace __arc {
constexpr int MUTEX_IDS = 32;
inline char mutex_key[MUTEX_IDS]; /* one address per MutexID: the race check's key */
} // namespace __arc

namespace AscendC {
using MutexID = uint8_t;
class Mutex {
public:
    template <pipe_t pipe> static inline void Lock(MutexID id)
    {
        static_assert(__NPU_ARCH__ != 2201, "AscendC::Mutex: Ascend 950 (dav-3510) only");
        ARC_CHECK(id < __arc::MUTEX_IDS, "AscendC::Mutex::Lock", "MutexID %u is outside [0, 32)", (unsigned)id);
        __arc::race_sync(ARC_RACE_QWAIT, pipe, pipe, (unsigned long long)(uintptr_t)&__arc::mutex_key[id]);
    }
    template <pipe_t pipe> static inline void Unlock(MutexID id)
    {
        static_assert(__NPU_ARCH__ != 2201, "AscendC::Mutex: Ascend 950 (dav-3510) only");
        ARC_CHECK(id < __arc::MUTEX_IDS, "AscendC::Mutex::Unlock", "MutexID %u is outside [0, 32)", (unsigned)id);
        static const int pipes[] = {ARC_PIPE_S, ARC_PIPE_V, ARC_PIPE_M, ARC_PIPE_MTE1, ARC_PIPE_MTE2, ARC_PIPE_MTE3,
                                    ARC_PIPE_FIX};
        for (int to : pipes)
            if (to != (int)pipe)
                __arc::race_sync(ARC_RACE_QSET, pipe, to, (unsigned long long)(uintptr_t)&__arc::mutex_key[id]);
    }
};
} // namespace AscendC

#endif /* ARC_MUTEX_H_ */
