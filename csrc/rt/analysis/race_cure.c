/* race_cure.c - the race check's advice (race.c): the sync that orders one
 * pipe's accesses before another's, by model pipe index (S V M MTE1 MTE2
 * MTE3 FIX). */
#include "rt/analysis/race_shadow.h"

/* The sync that would have ordered `from` before `to`. */
const char *sim_race_cure(int from, int to)
{
    static const char *const hint[NP][NP] = {
        [4][1] = "SetFlag/WaitFlag<HardEvent::MTE2_V>, or EnQue/DeQue of a VECIN queue",
        [1][5] = "SetFlag/WaitFlag<HardEvent::V_MTE3>, or EnQue/DeQue of a VECOUT queue",
        [1][4] = "SetFlag/WaitFlag<HardEvent::V_MTE2>, or FreeTensor/AllocTensor of a VECIN queue",
        [5][1] = "SetFlag/WaitFlag<HardEvent::MTE3_V>, or FreeTensor/AllocTensor of a VECOUT queue",
        [5][4] = "SetFlag/WaitFlag<HardEvent::MTE3_MTE2>",
        [4][5] = "SetFlag/WaitFlag<HardEvent::MTE2_MTE3>",
        [4][3] = "SetFlag/WaitFlag<HardEvent::MTE2_MTE1>, or EnQue/DeQue of an A1/B1 queue",
        [3][2] = "SetFlag/WaitFlag<HardEvent::MTE1_M>, or EnQue/DeQue of an A2/B2 queue",
        [2][6] = "SetFlag/WaitFlag<HardEvent::M_FIX>, or EnQue/DeQue of a CO1 queue",
        [3][4] = "SetFlag/WaitFlag<HardEvent::MTE1_MTE2>, or FreeTensor/AllocTensor of an A1/B1 queue",
        [2][3] = "SetFlag/WaitFlag<HardEvent::M_MTE1>, or FreeTensor/AllocTensor of an A2/B2 queue",
        [6][2] = "SetFlag/WaitFlag<HardEvent::FIX_M>, or FreeTensor/AllocTensor of a CO1 queue",
        /* raw-pointer scalar accesses: the compiler's auto-sync covers
         * GetValue/SetValue only, and a queue's DeQue waits on its consumer
         * pipe, not on the scalar unit */
        [4][0] = "SetFlag/WaitFlag<HardEvent::MTE2_S> before the pointer access (the compiler inserts it for "
                 "LocalTensor::GetValue/SetValue, never for raw pointers; a VECIN queue's DeQue waits on the "
                 "vector pipe only)",
        [1][0] = "SetFlag/WaitFlag<HardEvent::V_S> before the pointer access (the compiler inserts it for "
                 "LocalTensor::GetValue/SetValue, never for raw pointers)",
        [5][0] = "SetFlag/WaitFlag<HardEvent::MTE3_S> before the pointer access (the compiler inserts it for "
                 "LocalTensor::GetValue/SetValue, never for raw pointers)",
    };
    const char *h = hint[from][to];
    return h ? h : "a SetFlag/WaitFlag pair between the two pipes";
}

