"""The kernel frame the Reg tests share: their VFs read 1024 bytes copied
into the UB at 0 and write 2048 bytes at UB 1024, copied back out."""

# C source: the includes and FRAME(BODY), a __vector__ kernel body over GM in/out.
REG_FRAME = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

// in: 1024 bytes at UB 0; out: 2048 bytes at UB 1024.
#define FRAME(BODY)                                                                   \
    __ubuf__ uint8_t *ui = (__ubuf__ uint8_t *)asc_get_phy_buf_addr(0);              \
    __ubuf__ uint8_t *uo = (__ubuf__ uint8_t *)asc_get_phy_buf_addr(1024);           \
    asc_copy_gm2ub_align(ui, (__gm__ uint8_t *)in, 1024);                             \
    asc_sync();                                                                       \
    BODY;                                                                             \
    asc_sync();                                                                       \
    asc_copy_ub2gm_align((__gm__ uint8_t *)out, uo, 1, 2048,                          \
                         asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM, 0, 0);
"""


def vf_io_kernel(name, n, params, call):
    """A __vector__ kernel `name`(GM_ADDR x, GM_ADDR out, params): n floats
    of x and of out copied into the UB (LocalTensors lx and lo), `call` (an
    asc_vf_call over them) between the MTE2->V and V->MTE3 syncs, lo copied
    back to out."""
    return f"""
__global__ __vector__ void {name}(GM_ADDR x, GM_ADDR out{params})
{{
    AscendC::InitSocState();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, {8 * n});
    LocalTensor<float> lx = buf.GetWithOffset<float>({n}, 0), lo = buf.GetWithOffset<float>({n}, {4 * n});
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)x, {n});
    go.SetGlobalBuffer((__gm__ float *)out, {n});
    DataCopy(lx, gx, {n});
    DataCopy(lo, go, {n});
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    {call};
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, lo, {n});
}}
"""
