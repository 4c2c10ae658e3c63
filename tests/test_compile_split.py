"""A large SIMT module's code is generated in parts on threads, and the
parts' objects are joined into one (rtc/emit_split.cpp, rtc/elf_merge.cpp).
The joined object computes what the whole one does (values against NumPy
and bit for bit against the whole object's), its checks report as they do
(a GM bounds error names the thread, the line, the parameter), the module's
internal symbols are local again, and ASCENDRTC_CODEGEN_THREADS=1 turns it
off.  ASCENDRTC_CODEGEN_THREADS=N forces N parts on any SIMT module."""
import os
import struct
import sys

import numpy as np
import pytest

import ascendrtc as arc

sys.path.insert(0, os.path.dirname(__file__))
from helpers.simt_kernels import BLOCK_SUM, TRANSPOSE, VADD  # noqa: E402

OPTS = ["--npu-arch=dav-3510", "--enable-simt", "-O2"]

SRC = VADD + r'''
__global__ void scaled(int* out, long long k)
{
    out[(blockIdx.x * blockDim.x + threadIdx.x) * k] = 5;
}
''' + BLOCK_SUM + TRANSPOSE


def compiled(monkeypatch, threads):
    monkeypatch.setenv("ASCENDRTC_CODEGEN_THREADS", str(threads))
    monkeypatch.setenv("ASCENDRTC_RTC_TIMING", "1")
    b = arc.Program(SRC, "split.asc").compile(OPTS, cache=False)
    monkeypatch.delenv("ASCENDRTC_RTC_TIMING")
    monkeypatch.delenv("ASCENDRTC_CODEGEN_THREADS")
    return b


def elf(data, code=None):
    """(section names, {symbol name: (binding, section index)}) of an ELF64
    object; code (a dict), if given, gets each function's bytes."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", data, 0x3c)
    sh = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + 64 * i) for i in range(shnum)]

    def name(tab, off):
        start = sh[tab][4] + off
        return data[start:data.index(b"\0", start)].decode()
    names = [name(shstrndx, s[0]) for s in sh]
    syms = {}
    for s in sh:
        if s[1] != 2:  # SHT_SYMTAB
            continue
        for k in range(s[5] // 24):
            st_name, st_info, _, st_shndx, value, size = struct.unpack_from("<IBBHQQ", data, s[4] + 24 * k)
            if st_name:
                syms[name(s[6], st_name)] = (st_info >> 4, st_shndx)
            if code is not None and st_info & 0xf == 2:  # STT_FUNC
                code[name(s[6], st_name)] = data[sh[st_shndx][4] + value:sh[st_shndx][4] + value + size]
    return names, syms


def run_all(mod):
    rng = np.random.default_rng(7)
    n = 5000  # a partial last block: the guarded copy of vadd's thread loop runs there
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    c = np.zeros(n, np.float32)
    mod.get_kernel("vadd")[(n + 1023) // 1024, 1024](a, b, c, n)
    x = rng.random(3 * 1024 + 77, dtype=np.float32)
    sums = np.zeros(2, np.float32)
    mod.get_kernel("block_sum")[2, 1024](x, sums, x.size)
    m = rng.random((64, 64), dtype=np.float32)
    t = np.zeros_like(m)
    mod.get_kernel("transpose")[(2, 2), (32, 8)](m, t, 64)
    arc.synchronize()
    np.testing.assert_array_equal(c, a + b)
    np.testing.assert_array_equal(t, m.T)
    assert abs(float(sums.astype(np.float64).sum()) - float(x.astype(np.float64).sum())) < 1e-3
    return c, sums, t


def test_parts_compute_what_the_whole_module_does(monkeypatch):
    whole, parts = compiled(monkeypatch, 1), compiled(monkeypatch, 3)
    assert "code in 3 parts (cpu " in parts.log
    assert "code in" not in whole.log
    for w, p in zip(run_all(whole.load()), run_all(parts.load())):
        np.testing.assert_array_equal(w, p)  # float sums in the same order: bit for bit


def test_joined_object_keeps_internal_symbols_local(monkeypatch):
    whole_code, code = {}, {}
    whole_names, whole_syms = elf(bytes(compiled(monkeypatch, 1).data), whole_code)
    names, syms = elf(bytes(compiled(monkeypatch, 2).data), code)
    # each function's code is the whole module's, byte for byte (relocated
    # fields are zero in both: the addends are in the relocations)
    assert len(code) > 20 and code == whole_code
    assert len(names) == len(set(names)), names  # one section per name, as the whole object has
    assert set(names) - {".shstrtab"} == set(whole_names)  # LLVM names sections in .strtab
    runs = [s for s in syms if s.startswith("__arc_simt_run_")]
    assert runs and all(syms[s][0] == 0 for s in runs), runs  # STB_LOCAL
    glob = {s for s, (bind, ndx) in syms.items() if bind and ndx}
    assert glob == {s for s, (bind, ndx) in whole_syms.items() if bind and ndx}


def test_checks_report_from_a_part(monkeypatch):
    mod = compiled(monkeypatch, 4).load()
    with pytest.raises(arc.LaunchError, match=r"SIMT: thread \(1,0,0\) of block \(0,0,0\) writes 4 bytes at byte "
                       r"offset 400000 .* of kernel parameter 0 'out' \(256 bytes\) at split.asc:10: past its end"):
        mod.get_kernel("scaled")[1, 64](np.zeros(64, np.int32), 100000)
        arc.synchronize()
    out = np.zeros(128, np.int32)
    mod.get_kernel("scaled")[1, 64](out, 2)
    arc.synchronize()
    want = np.zeros(128, np.int32)
    want[::2] = 5
    np.testing.assert_array_equal(out, want)


def test_small_module_by_default_whole(monkeypatch):
    monkeypatch.delenv("ASCENDRTC_CODEGEN_THREADS", raising=False)
    monkeypatch.setenv("ASCENDRTC_RTC_TIMING", "1")
    b = arc.Program("__global__ void one(float* x) { x[threadIdx.x] += 1.0f; }", "small.asc").compile(
        OPTS, cache=False)
    assert "code in" not in b.log


def test_back_end_error_in_a_part_fails_the_compile(monkeypatch):
    """A part's back-end diagnostics reach the log as the whole compile's do."""
    monkeypatch.setenv("ASCENDRTC_CODEGEN_THREADS", "2")
    src = '__global__ void k(float* x) { asm volatile("bogus_instruction"); x[threadIdx.x] = 1.0f; }\n'
    with pytest.raises(arc.CompileError, match=r"invalid instruction mnemonic 'bogus_instruction'"):
        arc.Program(src, "asm.asc").compile(OPTS, cache=False)
    monkeypatch.delenv("ASCENDRTC_CODEGEN_THREADS")
    b = arc.Program(SRC, "split.asc").compile(OPTS, cache=False)  # and the process compiles on
    run_all(b.load())


def test_what_the_join_does_not_take_is_generated_whole(monkeypatch):
    """A comdat (a template function left out of line), -g and SIMD code
    are generated whole even when parts are asked for, and run."""
    monkeypatch.setenv("ASCENDRTC_CODEGEN_THREADS", "2")
    monkeypatch.setenv("ASCENDRTC_RTC_TIMING", "1")
    src = ("template <class T> __attribute__((noinline)) __aicore__ T twice(T x) { return x + x; }\n"
           "__global__ void k(float* x) { x[threadIdx.x] = twice(x[threadIdx.x]); }\n")
    for opts in (OPTS, OPTS + ["-g"]):
        b = arc.Program(src, "comdat.asc").compile(opts, cache=False)
        assert "code in" not in b.log, opts
        x = np.arange(64, dtype=np.float32)
        y = x.copy()
        b.load().get_kernel("k")[1, 64](y)
        arc.synchronize()
        np.testing.assert_array_equal(y, 2 * x)
    simd = arc.Program('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR z) {}\n',
                       "simd.asc").compile(cache=False)
    assert "code in" not in simd.log


@pytest.mark.parametrize("value", ["abc", "0", "-2", "65", "2x"])
def test_invalid_thread_count_is_loud(monkeypatch, capfd, value):
    monkeypatch.setenv("ASCENDRTC_CODEGEN_THREADS", value)
    b = arc.Program(SRC, "split.asc").compile(OPTS, cache=False)
    assert (f"ascendrtc: warning: ASCENDRTC_CODEGEN_THREADS={value} is not a thread count (a whole number from 1 "
            "to 64); using the default") in capfd.readouterr().err
    run_all(b.load())
