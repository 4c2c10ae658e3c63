"""Device API: PhiloxRandom (lib/random/philox.h, dav-3510), bit-exact:
Random123's published Philox4x32-10 answers, a Python Philox4x32 for 7 and
10 rounds, the continuous and stride modes, the float mapping, counter
carries, and the parameter checks."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

A35 = ("--npu-arch=dav-3510",)
M0, M1, W0, W1, MASK = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85, 0xFFFFFFFF

# Random123's known-answer vectors for philox4x32_10: (counter, key) -> words
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((MASK,) * 4, (MASK, MASK), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]


def philox(ctr, key, rounds):
    c, k = list(ctr), list(key)
    for r in range(rounds):
        if r:
            k = [(k[0] + W0) & MASK, (k[1] + W1) & MASK]
        p0, p1 = M0 * c[0], M1 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & MASK, (p0 >> 32) ^ c[3] ^ k[1], p0 & MASK]
    return c


def words(ctr, key, rounds, n):
    value = sum(v << (32 * i) for i, v in enumerate(ctr))
    out = []
    while len(out) < n:
        out += philox([(value >> (32 * i)) & MASK for i in range(4)], key, rounds)
        value = (value + 1) % (1 << 128)
    return np.array(out[:n], np.uint64).astype(np.uint32)


def as_float(w):
    return ((w & 0x7FFFFF) | 0x3F800000).view(np.float32) - np.float32(1)


def test_python_model_matches_random123():
    for ctr, key, want in KAT:
        assert tuple(philox(ctr, key, 10)) == want


def run(body, dt, n):
    p = [("z", dt, n)]
    m = dev.program([dev.ub_kernel("k", p, body)], A35)
    return dev.run(m, "k", p, [np.zeros(n, dt)])[0]


@pytest.mark.parametrize("ctr, key, want", KAT, ids=["zeros", "ones", "pi"])
def test_known_answers(ctr, key, want):
    body = "PhiloxRandom<10>(z, {%du, %du}, {%du, %du, %du, %du}, (uint16_t)8);" % (key + ctr)
    z = run(body, np.uint32, 8)
    np.testing.assert_array_equal(z[:4], want)
    np.testing.assert_array_equal(z, words(ctr, key, 10, 8))


@pytest.mark.parametrize("rounds", [7, 10])
@pytest.mark.parametrize("dt", [np.uint32, np.int32, np.float32], ids=lambda d: np.dtype(d).name)
def test_continuous_mode(rounds, dt):
    ctr, key = (MASK - 1, MASK, 5, 0), (123, 456)      # the counter carries from c0 through c1 into c2
    n = 37                                             # not a multiple of 4: the last group is cut
    body = "PhiloxRandom<%d>(z, {%du, %du}, {%du, %du, %du, %du}, (uint16_t)%d);" % ((rounds,) + key + ctr + (n,))
    z = run(body, dt, 40)
    w = words(ctr, key, rounds, n)
    want = as_float(w) if dt == np.float32 else w.view(dt)
    np.testing.assert_array_equal(z[:n], want)
    np.testing.assert_array_equal(z[n:], 0)
    if dt == np.float32:
        assert z[:n].min() >= 0 and z[:n].max() < 1


def test_stride_mode_matches_the_page_figure():
    """Two calls of stride 8, row 4, column 4 (counters 0 and 1) give the
    left and right halves of the 4 x 8 words one continuous call gives."""
    body = ("PhiloxRandomParams p{8, 4, 4}; PhiloxRandom<10>(z, {7u, 9u}, {0u, 0u, 0u, 0u}, p); "
            "PhiloxRandom<10>(z[16], {7u, 9u}, {1u, 0u, 0u, 0u}, p); "
            "PhiloxRandom<10>(z[32], {7u, 9u}, {0u, 0u, 0u, 0u}, (uint16_t)32);")
    z = run(body, np.uint32, 64)
    whole = z[32:].reshape(4, 8)
    np.testing.assert_array_equal(z[:16].reshape(4, 4), whole[:, :4])
    np.testing.assert_array_equal(z[16:32].reshape(4, 4), whole[:, 4:])
    np.testing.assert_array_equal(z[32:], words((0, 0, 0, 0), (7, 9), 10, 32))


@pytest.mark.parametrize("params", ["{6, 2, 4}", "{8, 2, 6}", "{4, 2, 8}", "{8, 0, 4}"])
def test_stride_parameters_are_checked(params):
    p = [("z", np.float32, 64)]
    m = dev.program([dev.ub_kernel("k", p, "PhiloxRandomParams q%s; PhiloxRandom(z, {0u, 0u}, {0u, 0u, 0u, 0u}, q);"
                                   % params)], A35)
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(64, np.float32)])
    assert "AscendC::PhiloxRandom" in str(ei.value) and "multiples of 4, stride >= column" in str(ei.value)


def test_rounds_and_arch_are_checked():
    p = [("z", np.uint32, 64)]
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, "PhiloxRandom<8>(z, {0u, 0u}, {0u, 0u, 0u, 0u}, (uint16_t)8);")], A35)
    assert "Rounds is 7 or 10" in ei.value.log
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, "PhiloxRandom(z, {0u, 0u}, {0u, 0u, 0u, 0u}, (uint16_t)8);")])
    assert "Ascend 950 (dav-3510) only" in ei.value.log
