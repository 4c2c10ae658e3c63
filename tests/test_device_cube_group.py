"""Cube resource groups (CubeResGroupHandle, CreateCubeResGroup, KfcWorkspace,
CubeGroupMsgHead): a kernel using them compiles as on CANN; the message
queues are not modelled, so running a call is a launch error that says so,
and the device stays usable."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

struct Msg {
    CubeGroupMsgHead head;
    uint8_t funcID;
    uint8_t pad[3];
    uint32_t value;
    uint64_t addr[6];
};

template <class Mm, typename M> struct Cb {
    template <int32_t id> __aicore__ static typename IsEqual<id, 0>::Type One(Mm &, __gm__ M *m, CubeResGroupHandle<M> &h)
    {
        h.FreeMessage(m, CubeMsgState::VALID);
    }
    __aicore__ static void Call(Mm &mm, __gm__ M *m, CubeResGroupHandle<M> &h) { One<0>(mm, m, h); }
    __aicore__ static void Init(Cb &, Mm &, GM_ADDR) {}
};

extern "C" __global__ __aicore__ void group(GM_ADDR ws, GM_ADDR tiling, GM_ADDR y, uint32_t use)
{
    GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)y, 8);
    g.SetValue(0, sizeof(CubeGroupMsgHead));
    if (use) {
        KfcWorkspace desc(ws);
        using Mm = MatmulImpl<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
                              MatmulType<TPosition::GM, CubeFormat::ND, float>>;
        auto h = CreateCubeResGroup<1, Mm, Cb, Msg>(desc, 0, 2, 2, tiling);
        h.AssignQueue(0);
        auto p = h.template AllocMessage();
        Msg m{{CubeMsgState::VALID, 0}, 0, {}, 0, {}};
        h.Wait<true>(h.PostMessage(p, m));
        h.SetQuit(h.AllocMessage());
    }
}
'''


def test_cube_group_compiles_and_running_it_names_what_is_missing():
    mod = dev.load(SRC, "cube_group.asc")
    k = mod.get_kernel("group")
    ws = np.zeros(1024, np.uint8)
    y = np.zeros(8, np.int32)
    k[1](ws, ws, y, np.uint32(0))          # the group path not taken: runs
    arc.synchronize()
    assert y[0] == 2
    with pytest.raises(arc.LaunchError, match=r"CreateCubeResGroup.*cube resource groups.*not modelled"):
        k[1](ws, ws, y, np.uint32(1))
        arc.synchronize()
    y[:] = 0
    k[1](ws, ws, y, np.uint32(0))          # the device is still usable
    arc.synchronize()
    assert y[0] == 2
