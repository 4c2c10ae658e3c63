"""Helpers for the device-API suites (tests/test_device_*.py): build small
UB kernels around a body of Ascend C, compile several per program, run them
on 1-8 blocks with NumPy arrays, and bf16 / rounding references."""
import numpy as np

import ascendrtc as arc

CTYPE = {
    np.dtype(np.float32): "float", np.dtype(np.float16): "half", np.dtype(np.int32): "int32_t",
    np.dtype(np.int16): "int16_t", np.dtype(np.uint16): "uint16_t", np.dtype(np.int8): "int8_t",
    np.dtype(np.uint8): "uint8_t", np.dtype(np.uint32): "uint32_t", np.dtype(np.int64): "int64_t",
    np.dtype(np.uint64): "uint64_t", np.dtype(np.bool_): "bool",
}
BF16 = "bf16"  # dtype marker: host side holds the bits as uint16


def ctype(dt):
    return "bfloat16_t" if dt == BF16 else CTYPE[np.dtype(dt)]


def itemsize(dt):
    return 2 if dt == BF16 else np.dtype(dt).itemsize


def host_dtype(dt):
    return np.uint16 if dt == BF16 else np.dtype(dt)


def pad(n, dt):
    """n rounded up to a whole number of 32-byte blocks of dt."""
    per = 32 // itemsize(dt)
    return (n + per - 1) // per * per


def ub_kernel(name, tensors, body, extra_params=""):
    """A kernel that copies every tensor (name, dtype, n) of its block's
    slice GM -> UB, runs `body` (the tensors are LocalTensors named as
    given), and copies every tensor back UB -> GM.  Each block works on
    slice GetBlockIdx() of every argument."""
    params = ", ".join("GM_ADDR g_%s" % t[0] for t in tensors) + extra_params
    lines = ["extern \"C\" __global__ __aicore__ void %s(%s)" % (name, params), "{",
             "    using namespace AscendC;",
             "    TPipe pipe;", "    TBuf<TPosition::VECCALC> buf;"]
    off, decl, cin, cout = 0, [], [], []
    for t in tensors:
        tn, dt, n = t[0], t[1], t[2]
        ct, npad = ctype(dt), pad(n, dt)
        decl.append("    GlobalTensor<%s> G_%s; G_%s.SetGlobalBuffer((__gm__ %s *)g_%s + GetBlockIdx() * %d, %d);"
                    % (ct, tn, tn, ct, tn, npad, npad))
        decl.append("    LocalTensor<%s> %s = buf.GetWithOffset<%s>(%d, %d);" % (ct, tn, ct, npad, off))
        cin.append("    DataCopy(%s, G_%s, %d);" % (tn, tn, npad))
        cout.append("    DataCopy(G_%s, %s, %d);" % (tn, tn, npad))
        off += npad * itemsize(dt)
    lines.append("    pipe.InitBuffer(buf, %d);" % max(off, 32))
    # The barriers order the copies and the body as the NPU's pipes need
    # (MTE2 -> V before, V -> MTE3 after); the race check holds kernels to it.
    lines += decl + cin + ["    PipeBarrier<PIPE_ALL>();", "    {", body, "    }", "    PipeBarrier<PIPE_ALL>();"] \
        + cout + ["}"]
    return "\n".join(lines)


def load(src, name, headers=None, arch="dav-2201"):
    """``src`` (named ``name`` in messages and line numbers, with in-memory
    ``headers``) compiled for ``arch`` and loaded: the Module."""
    return arc.Program(src, name, headers=headers).compile([f"--npu-arch={arch}"]).load()


def program(kernels, options=("--npu-arch=dav-2201",), prelude=""):
    src = '#include "kernel_operator.h"\n' + prelude + "\n" + "\n\n".join(kernels)
    return arc.Program(src, "device_test.asc").compile(list(options)).load()


def run(mod, name, tensors, arrays, blocks=1, extra=()):
    """Launch kernel `name` built by ub_kernel with host arrays (one slice
    per block, each `pad`ded) and then the `extra` arguments (those of
    `extra_params`, e.g. a tiling array); returns the arrays as they came
    back."""
    host = []
    for t, a in zip(tensors, arrays):
        dt, n = t[1], t[2]
        npad = pad(n, dt)
        buf = np.zeros((blocks, npad), host_dtype(dt))
        buf[:, :n] = np.asarray(a, host_dtype(dt)).reshape(blocks, n)
        host.append(buf.reshape(-1))
    k = mod.get_kernel(name)
    k[blocks](*host, *extra)
    arc.synchronize()
    return [h.reshape(blocks, -1)[:, :t[2]].reshape(-1) for t, h in zip(tensors, host)]


def f32_to_bf16_bits(x):
    """float32 -> bf16 bits, round to nearest even (NaN kept quiet)."""
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(np.asarray(x, np.float32))
    return np.where(nan, ((u >> 16) | 0x40).astype(np.uint16), r)


def bf16_bits_to_f32(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)
