"""ascendrtc.autotune / ascendrtc.sweep: configurations of a kernel run on the
simulated NPU (in worker processes, or on a real local Ray head), checked
against the first one's outputs, priced by the cost model; the choice is
cached with the binaries."""
import os
import socket
import subprocess
import time

import numpy as np
import pytest

import ascendrtc as arc
from helpers.cost_kernels import TUNED_SRC, tuned_kernel

N = 8 * 8 * 2048


def data():
    rng = np.random.default_rng(7)
    return rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32), np.zeros(N, np.float32)


@pytest.fixture
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ASCENDRTC_CACHE", "on")


def test_picks_the_fastest_config_whose_results_match(own_cache):
    # tile 3000 does not divide the blocks' 16384 elements: part of z is never
    # written, so its result differs; tile 65536 needs 1.5 MiB of UB: it traps
    configs = [{"tile": 256, "bufs": 1}, {"tile": 2048, "bufs": 1}, {"tile": 2048, "bufs": 2},
               {"tile": 3000, "bufs": 2}, {"tile": 65536, "bufs": 2}]
    tuned = arc.autotune(configs=configs, key=["total"], processes=2)(tuned_kernel())
    x, y, z = data()
    tuned[8](x, y, z, N, reps=0, op=0)
    arc.synchronize()
    np.testing.assert_array_equal(z, x + y)
    assert tuned.best_config == {"tile": 2048, "bufs": 2}
    st = {(t.config["tile"], t.config["bufs"]): t for t in tuned.trials}
    assert [t.status for t in tuned.trials] == ["ok", "ok", "ok", "mismatch", "failed"]
    assert st[(2048, 2)].time_us < st[(2048, 1)].time_us < st[(256, 1)].time_us
    assert all(t.time_us >= t.roofline_us > 0 for t in tuned.trials if t.status == "ok")
    assert "elements differ from the first config's: z[15000]" in st[(3000, 2)].error
    assert "UB" in st[(65536, 2)].error or "InitBuffer" in st[(65536, 2)].error, st[(65536, 2)].error
    table = tuned.table()
    assert "<- best" in table and "mismatch" in table and "failed" in table and "roofline" in table


def test_every_config_failing_is_an_error_listing_them(own_cache):
    tuned = arc.autotune(configs=[{"tile": 65536, "bufs": 2}, {"tile": 131072, "bufs": 1}], processes=1)(
        tuned_kernel())
    x, y, z = data()
    with pytest.raises(arc.Error, match="every configuration failed") as e:
        tuned[8](x, y, z, N, reps=0, op=0)
    assert '"tile": 65536' in str(e.value) and '"tile": 131072' in str(e.value)
    good = arc.autotune(configs=[{"tile": 2048, "bufs": 2}], processes=1)(tuned_kernel())
    good[8](x, y, z, N, reps=0, op=0)      # the process and the kernel are fine
    arc.synchronize()
    np.testing.assert_array_equal(z, x + y)


def test_the_choice_is_cached_per_key_and_soc(own_cache):
    configs = [{"tile": 1024, "bufs": 2}, {"tile": 2048, "bufs": 2}]
    x, y, z = data()
    first = arc.autotune(configs=configs, key=["total"], processes=1)(tuned_kernel())
    first[8](x, y, z, N, reps=0, op=0)
    assert len(first.trials) == 2
    again = arc.autotune(configs=configs, key=["total"], processes=1)(tuned_kernel())
    again[8](x, y, z, N, reps=0, op=0)            # from the disk cache: nothing runs
    assert again.trials == [] and again.best_config == first.best_config
    again[8](x[: N // 2], y[: N // 2], z[: N // 2], N // 2, reps=0, op=0)   # another key: tuned
    assert len(again.trials) == 2
    other = arc.autotune(configs=configs, key=["total"], soc="Ascend910B4", processes=1)(tuned_kernel())
    other[8](x, y, z, N, reps=0, op=0)            # another SoC: tuned
    assert len(other.trials) == 2
    arc.synchronize()
    with pytest.raises(ValueError, match="not parameters"):
        arc.autotune(configs=[{"tiles": 1}])(tuned_kernel())


def test_sweep_over_points():
    x, y, z = data()
    pts = [{"x": x, "y": y, "z": z, "total": N, "tile": t, "bufs": 2, "reps": 0, "op": 0, "blocks": b}
           for t in (512, 2048) for b in (8, 16)]
    res = arc.sweep(tuned_kernel(), pts, processes=2)
    assert [r.status for r in res] == ["ok"] * 4
    t = {(r.config["tile"], r.config["blocks"]): r.time_us for r in res}
    assert t[(2048, 16)] < t[(2048, 8)] and t[(2048, 8)] < t[(512, 8)]


def test_autotune_on_a_real_local_ray_head(own_cache):
    ray = pytest.importorskip("ray")
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    head = subprocess.Popen(["ray", "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}",
                             "--num-cpus=2", "--include-dashboard=false", "--disable-usage-stats"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.time() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                assert time.time() < deadline and head.poll() is None, "the Ray head did not start"
                time.sleep(0.5)
        configs = [{"tile": 512, "bufs": 2}, {"tile": 2048, "bufs": 2}, {"tile": 3000, "bufs": 2}]
        tuned = arc.autotune(configs=configs, key=["total"], cluster=f"127.0.0.1:{port}")(tuned_kernel())
        x, y, z = data()
        tuned[8](x, y, z, N, reps=0, op=0)
        arc.synchronize()
        np.testing.assert_array_equal(z, x + y)
        assert ray.is_initialized()
        assert [t.status for t in tuned.trials] == ["ok", "ok", "mismatch"]
        assert tuned.best_config == {"tile": 2048, "bufs": 2}
    finally:
        ray.shutdown()
        for sig in (15, 9):  # the head's whole group; once it has gone, there is no group to signal
            try:
                os.killpg(head.pid, sig)
            except ProcessLookupError:
                break
            try:
                head.wait(15)
            except subprocess.TimeoutExpired:
                pass
        head.wait()


def test_worker_processes_are_kept_across_tunings():
    # The pool's workers start once per session; a worker that died between
    # tunings is replaced, and its jobs still run.
    from ascendrtc import _autotune_pool as pool
    configs = [{"tile": 1024, "bufs": 2}, {"tile": 2048, "bufs": 2}]
    x, y, z = data()
    pool.close_pool()

    def tune():
        t = arc.autotune(configs=configs, processes=2)(tuned_kernel())
        best = t.tune(8, x, y, z, N, reps=0, op=0)
        assert [tr.status for tr in t.trials] == ["ok", "ok"] and best == {"tile": 2048, "bufs": 2}
        return sorted(p.pid for _, p in pool._idle)

    first = tune()
    assert len(first) == 2
    assert tune() == first                       # the same processes again
    pool._idle[0][1].kill()
    pool._idle[0][1].wait()
    third = tune()
    assert len(third) == 2 and len(set(third) & set(first)) == 1
    pool.close_pool()
    assert pool._idle == []


def test_worker_digests_say_unchanged_for_arrays_left_as_given():
    # Workers hash only what a launch changed (the inputs come back
    # "unchanged"); the bytes decide, so NaN equals itself here.
    import hashlib
    from ascendrtc._autotune import _digest
    g = np.arange(15, dtype=np.float32).reshape(3, 5)           # 60 bytes: compared a byte at a time
    assert _digest(g.copy(), g) == "unchanged"
    o = g.copy()
    o[2, 4] = -1
    assert _digest(o, g) == hashlib.sha256(o.tobytes()).hexdigest()
    assert _digest(np.float32([np.nan, 1]), np.float32([np.nan, 1])) == "unchanged"
