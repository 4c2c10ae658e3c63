/* mutex.h - Mutex::Lock / Mutex::Unlock (Ascend 950, core-internal sync):
 * Lock<pipe>(id) makes the pipe's later instructions wait until the mutex
 * is released; Unlock<pipe>(id) releases it once the pipe's earlier
 * instructions are done (its API pages).  The C API's asc_lock/asc_unlock
 * (arc/capi_scalar.h) model the same for the race check; these share it. */
#ifndef ARC_MUTEX_H_
#define ARC_MUTEX_H_

#include "arc/capi_scalar.h"

namespace AscendC {
using MutexID = uint8_t;
class Mutex {
public:
    template <pipe_t pipe> static inline void Lock(MutexID id)
    {
        static_assert(__NPU_ARCH__ != 2201, "AscendC::Mutex: Ascend 950 (dav-3510) only");
        __arc::capi::mutex_lock((int)pipe, id, "AscendC::Mutex::Lock");
    }
    template <pipe_t pipe> static inline void Unlock(MutexID id)
    {
        static_assert(__NPU_ARCH__ != 2201, "AscendC::Mutex: Ascend 950 (dav-3510) only");
        __arc::capi::mutex_unlock((int)pipe, id, "AscendC::Mutex::Unlock");
    }
};
/* AllocMutexID / ReleaseMutexID (TPipe-TQue code takes its ids from the
 * framework): the lowest free id of 0-27, the ids the Lock page leaves to
 * kernels (28-31 are the system's); all 28 taken, or releasing an id not
 * taken, stops the kernel naming it. */
template <int N = 0> /* a template, so the arch check fires where it is called */
inline MutexID AllocMutexID()
{
    static_assert(__NPU_ARCH__ + N * 0 != 2201, "AscendC::AllocMutexID: Ascend 950 (dav-3510) only");
    unsigned long long &taken = __arc::core()->dev[__arc::SLOT_MUTEX_ALLOC];
    for (uint32_t id = 0; id < 28; id++)
        if (!(taken >> id & 1u)) {
            taken |= 1ull << id;
            return (MutexID)id;
        }
    __arc_trap("AscendC::AllocMutexID", "all 28 MutexIDs (0-27) are taken: ReleaseMutexID the ones no longer used");
    return 0;
}
template <int N = 0> inline void ReleaseMutexID(MutexID id)
{
    static_assert(__NPU_ARCH__ + N * 0 != 2201, "AscendC::ReleaseMutexID: Ascend 950 (dav-3510) only");
    unsigned long long &taken = __arc::core()->dev[__arc::SLOT_MUTEX_ALLOC];
    ARC_CHECK(id < 28 && (taken >> id & 1u), "AscendC::ReleaseMutexID",
              "MutexID %u was not taken by AllocMutexID (or is already released)", (unsigned)id);
    taken &= ~(1ull << id);
}
} // namespace AscendC

#endif /* ARC_MUTEX_H_ */
