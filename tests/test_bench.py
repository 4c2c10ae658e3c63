"""The benchmark command runs end to end in quick mode, so it cannot rot.
(No timing is asserted: speed targets live in BENCHMARKS.md.)"""
import os
import subprocess
import sys

from helpers.acl import ROOT


def test_bench_quick_runs_every_benchmark():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "run.py"), "--quick"], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    table = out.stdout
    for row in ("compile seed add -O2, in process", "launch k[8](x,y,z)", "jit memory hit",
                "RSS after 150 kernels", "PyOpenCL", "add kernel 64 KiB/input, 48 blocks", "numpy.add(out=) 1 KiB",
                "STREAM add in C", "blocks that scale: add 64 MiB/input on 48 blocks vs 2 blocks",
                "issue 5: add kernel 64 MiB/input, 8 blocks vs STREAM add in C",
                "issue 5: add kernel 64 MiB/input, 8 blocks vs numpy.add",
                "add kernel 64 MiB/input, 8 blocks vs its tile staging in C", "tile staging in C 64 MiB/input",
                "softmax kernel", "reduce_min kernel", "remote cache hit, fresh process", "race check on: add kernel",
                "SyncAll: reduce_min kernel, 48 blocks",
                "profiling on: add kernel", "SIMT vector add 64 MiB/input", "race check on (default): SIMT",
                "enqueue of an empty SIMT kernel", "launch + synchronize of an empty SIMT kernel, 16384 blocks"):
        assert row in table, row
    # every row printed a value, or said why its optional peer or mirror is missing
    for line in table.splitlines()[2:]:
        assert "| n/a |" not in line or "PoCL unavailable" in line or "_SRC is not set" in line or \
            "_SRC are not set" in line, line
        assert "nan" not in line, line


def test_table_units_targets_and_unavailable_rows(tmp_path):
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    import run
    text = run.table([
        ("rate row", [8.0, 10.0, 12.0], "limit", [20.0], 0.4, "GB/s"),    # 0.5x of the limit: a floor, met
        ("slow rate", [2.0], "limit", [20.0], 0.4, "GB/s"),               # 0.1x: NOT met
        ("time row", [3e-3], "base", [1e-3], 1.2),                         # 3x a ceiling of 1.2x: NOT met
        ("peer: PoCL unavailable (ImportError)", [], "-", [], None),
    ]).splitlines()
    assert "| 10.00 GB/s | 8.00 GB/s..12.00 GB/s | limit | 20.00 GB/s | 0.50x | >= 0.40x: met |" in text[2]
    assert text[3].endswith(">= 0.40x: NOT met |")
    assert text[4].endswith("<= 1.20x: NOT met |") and "3.0 ms" in text[4]
    assert "| n/a |" in text[5]
    # the hand-written part of BENCHMARKS.md survives a regeneration
    md = tmp_path / "B.md"
    md.write_text("# Benchmarks\n| old table |\n" + run.HAND_MARK + "\n## Targets not met\nnotes\n")
    assert run.hand_written(str(md)) == "\n" + run.HAND_MARK + "\n## Targets not met\nnotes\n"
    assert run.hand_written(str(tmp_path / "missing.md")) == ""


def test_bench_setup_installs_the_pocl_peer():
    """`make bench`'s set-up (install_deps.sh --bench) installs PoCL and
    PyOpenCL, so the PoCL rows are measured rather than "unavailable"."""
    p = subprocess.run(["sh", os.path.join(ROOT, "tools", "install_deps.sh"), "--bench"], capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import _pocl; cl, ctx, q = _pocl.context(); "
             "print('ok' if cl else ctx)")
    out = subprocess.run([sys.executable, "-c", probe, os.path.join(ROOT, "bench")], capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stdout + out.stderr
