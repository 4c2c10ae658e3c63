"""The public FlashAttentionScore sample (operator_contrib/
FlashAttentionScoreSample) end to end: its own host tiling (Matmul API
tilings, SoftmaxFlashV2 tiling, tiling data bound with SetDataPtr), its
kernel as the op build makes it (MIX, AIC:AIV = 1:2: two Matmul objects,
SoftmaxFlashV2 over S2 blocks with the FlashAttention-2 rescale), against a
NumPy attention reference.  Skipped without ASCEND_SAMPLES_SRC
(tests/helpers/samples.py); nothing from the samples is in this repository.

The race check finds an unordered pair in the sample itself: in the last
loop iteration of Process() the vector copy out of stage2 (a UB -> UB
DataCopy on PIPE_V, line 761) of the previous, non-final S2 chunk and the
next ProcessVec2's MTE2 load into the same UB buffer (line 729) have only an
MTE3 -> MTE2 flag between them, and MTE3 did nothing after that V read.
The default (error) run is expected to report exactly that; the numerical
check runs with the check in warn mode."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.samples import sample_path

FA = "operator_contrib/FlashAttentionScoreSample/FrameworkLaunch/FlashAttentionScore"


def attention(q, k, v, heads, scale):
    """softmax(q k^T * scale) v per head, BSH layout; also the row max and sum."""
    b, s1, h = q.shape
    s2, d = k.shape[1], h // heads
    qf = q.astype(np.float64).reshape(b, s1, heads, d).transpose(0, 2, 1, 3)
    kf = k.astype(np.float64).reshape(b, s2, heads, d).transpose(0, 2, 1, 3)
    vf = v.astype(np.float64).reshape(b, s2, heads, d).transpose(0, 2, 1, 3)
    s = qf @ kf.transpose(0, 1, 3, 2) * scale
    m = s.max(-1, keepdims=True)
    e = np.exp(s - m)
    z = e.sum(-1, keepdims=True)
    out = ((e / z) @ vf).transpose(0, 2, 1, 3).reshape(b, s1, h)
    return out, m[..., 0], z[..., 0]


# (batch, S1, S2, H, heads): the sample's tiling needs S2 > 1024; one head of
# 128, and two heads of 64 with an S1 of 1.5 vector blocks and an S2 tail.
def inputs(b, s1, s2, h, heads):
    rng = np.random.default_rng(s1 + s2)
    q = rng.uniform(-1, 1, (b, s1, h)).astype(np.float16)
    k = rng.uniform(-1, 1, (b, s2, h)).astype(np.float16)
    v = rng.uniform(-1, 1, (b, s2, h)).astype(np.float16)
    return q, k, v


def test_flash_attention_score_sample_race_is_reported(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    op = arc.op_project(sample_path(FA))
    q, k, v = inputs(1, 128, 1152, 128, 1)
    outs = [np.zeros((1, 1, 128, 8), np.float32), np.zeros((1, 1, 128, 8), np.float32),
            np.zeros((1, 128, 128), np.float16)]
    with pytest.raises(arc.LaunchError, match=r"(?s)race check: data race \(write after read\) on UB: "
                       r"AscendC::DataCopy \(PIPE_V at \S*flash_attention_score_s1s2_bn2gs1.h:761\).*"
                       r"AscendC::DataCopy \(PIPE_MTE2 at \S*flash_attention_score_s1s2_bn2gs1.h:729\)"):
        op(q, k, v, outputs=outs, scale_value=0.0625, head_num=1)


@pytest.mark.parametrize("b,s1,s2,h,heads", [(1, 128, 1152, 128, 1), (2, 96, 1088, 128, 2)])
def test_flash_attention_score_sample(b, s1, s2, h, heads, monkeypatch, capfd):
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "warn")   # the sample's own race (see above)
    op = arc.op_project(sample_path(FA))
    q, k, v = inputs(b, s1, s2, h, heads)
    # the op's InferShape sets no shapes: the outputs are given, as aclnn does
    mx = np.zeros((b, heads, s1, 8), np.float32)
    sm = np.zeros((b, heads, s1, 8), np.float32)
    out = np.zeros((b, s1, h), np.float16)
    op(q, k, v, outputs=[mx, sm, out], scale_value=0.0625, head_num=heads)
    assert "flash_attention_score_s1s2_bn2gs1.h:761" in capfd.readouterr().err   # warned, not failed
    want, wm, ws = attention(q, k, v, heads, 0.0625)
    np.testing.assert_allclose(out.astype(np.float64), want, rtol=2e-3, atol=2e-4)
    for col in range(8):   # softmax_max / softmax_sum: each row's value in a block of 8
        np.testing.assert_allclose(mx[..., col], wm, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(sm[..., col], ws, rtol=1e-4)
