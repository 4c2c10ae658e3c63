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
} // namespace AscendC

#endif /* ARC_MUTEX_H_ */
