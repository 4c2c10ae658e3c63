"""Op host code contained like kernel code (issue 29 item 3): a tiling or
InferShape function that dereferences null, calls abort() or never returns
is an OpProjectError naming the op, the function and the fault, Ctrl-C
stops it (and the op_host compile) within a second, and the process goes
on: a good call works afterwards.  Faults run for real in this process;
Ctrl-C is a real SIGINT sent to a child process."""
import os
import select
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

import ascendrtc as arc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "op_projects", "AddSplit")

# What the tiling function does for an input of n elements (else its job).
HOOKS = r"""
#include <cstdlib>
static int arc_test_depth(int n) { volatile char pad[4096]; pad[0] = (char)n; return n ? arc_test_depth(n + 1) + pad[0] : 0; }
static void arc_test_misbehave(unsigned n)
{
    if (n == 7) { volatile int *p = nullptr; *p = 1; }
    if (n == 9) std::abort();
    if (n == 11) { volatile unsigned spin = 1; while (spin) {} }
    if (n == 13) arc_test_depth(1);
}
"""


def files(hooks=HOOKS):
    out = {}
    for d, _, names in os.walk(ROOT):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, ROOT)] = open(p).read()
    host = out["op_host/add_split.cpp"]
    host = host.replace('#include "add_split_tiling.h"', '#include "add_split_tiling.h"\n' + hooks)
    host = host.replace("context->SetBlockDim(CORES);", "arc_test_misbehave(total);\n    context->SetBlockDim(CORES);")
    host = host.replace("*context->GetOutputShape(0) = *context->GetInputShape(0);",
                        "if (context->GetInputShape(0)->GetShapeSize() == 5) "
                        "{ volatile int *q = nullptr; *q = 2; }\n    *context->GetOutputShape(0) = *context->GetInputShape(0);")
    out["op_host/add_split.cpp"] = host
    return out


@pytest.fixture(scope="module")
def op():
    return arc.op_project(files(), host_timeout=2)


def good_call(op):
    x = np.arange(4096, dtype=np.float32)
    np.testing.assert_array_equal(op(x, x), 2 * x)


def ones(n):
    return np.ones(n, np.float32), np.ones(n, np.float32)


@pytest.mark.parametrize("n,fault", [(7, r"SIGSEGV: invalid memory access"), (9, r"SIGABRT: abort\(\)"),
                                     (13, r"SIGSEGV: invalid memory access \(a null or wild pointer, or a stack "
                                          r"overflow\)")])
def test_a_crashing_tiling_function_is_an_error_and_the_process_goes_on(op, n, fault):
    with pytest.raises(arc.OpProjectError, match=r"op AddSplit \(op_host/add_split.cpp\): the tiling function "
                                                 r"\(SetTiling\) crashed \(" + fault) as e:
        op.tiling(*ones(n))
    assert e.value.op == "AddSplit" and e.value.file == "op_host/add_split.cpp"
    good_call(op)
    with pytest.raises(arc.OpProjectError, match="crashed"):  # and again: nothing was left locked
        op.tiling(*ones(n))
    good_call(op)


def test_a_crashing_infer_shape_names_it(op):
    with pytest.raises(arc.OpProjectError, match=r"the InferShape function crashed \(SIGSEGV"):
        op.infer(*ones(5))
    good_call(op)


def test_an_endless_tiling_function_times_out(op):
    t0 = time.monotonic()
    with pytest.raises(arc.OpProjectError, match=r"op AddSplit \(op_host/add_split.cpp\): the tiling function "
                                                 r"\(SetTiling\) did not return within 2 s \(an endless loop\?\) "
                                                 r"and was stopped; op_project\(..., host_timeout=\) or "
                                                 r"ASCENDRTC_HOST_TIMEOUT sets the limit"):
        op.tiling(*ones(11))
    assert time.monotonic() - t0 < 10
    good_call(op)


def test_the_timeout_comes_from_the_environment(monkeypatch):
    op = arc.op_project(files())  # no host_timeout: the environment's, else 60 s
    monkeypatch.setenv("ASCENDRTC_HOST_TIMEOUT", "0.5")
    with pytest.raises(arc.OpProjectError, match=r"did not return within 0.5 s"):
        op.tiling(*ones(11))
    monkeypatch.setenv("ASCENDRTC_HOST_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="ASCENDRTC_HOST_TIMEOUT='soon': expected seconds"):
        op.tiling(*ones(16))
    monkeypatch.delenv("ASCENDRTC_HOST_TIMEOUT")
    good_call(op)


# Static initialisers of an op_host file that misbehave as it is loaded.
BAD_INIT = {
    "segv": ("static int arc_bad = [] { volatile int *p = nullptr; *p = 1; return 0; }();",
             r"crashed \(SIGSEGV: invalid memory access"),
    "abort": ("#include <cstdlib>\nstatic int arc_bad = [] { std::abort(); return 0; }();",
              r"crashed \(SIGABRT: abort\(\)"),
    "throw": ("#include <stdexcept>\nstruct ArcBad { ArcBad() { throw std::runtime_error(\"boom\"); } };\n"
              "static ArcBad arc_bad;", r"threw std::runtime_error: boom"),
    "loop": ("static int arc_bad = [] { volatile unsigned spin = 1; while (spin) {} return 0; }();",
             r"did not return within 2 s \(an endless loop\?\) and were stopped; op_project\(..., host_timeout=\)"),
}


def with_bad_init(what, path="op_host/zz_bad.cpp"):
    f = files()
    f[path] = BAD_INIT[what][0] if path not in f else BAD_INIT[what][0] + "\n" + f[path]
    return f


@pytest.mark.parametrize("what", sorted(BAD_INIT))
def test_a_failing_static_initialiser_names_the_file_and_the_process_goes_on(op, what):
    """They ran under the host JIT's lock, uncontained: a crash killed the
    process, and a loop hung it (and every later op project)."""
    t0 = time.monotonic()
    with pytest.raises(arc.OpProjectError, match=r"op AddSplit \(op_host/zz_bad.cpp\): the static initialisers of "
                                                 r"op_host/zz_bad.cpp " + BAD_INIT[what][1]) as e:
        arc.op_project(with_bad_init(what), host_timeout=2)
    assert e.value.op == "AddSplit" and e.value.file == "op_host/zz_bad.cpp"
    assert time.monotonic() - t0 < 120
    good_call(op)                                # the loader was left usable
    good_call(arc.op_project(files(), options=["-DARC_AFTER_" + what.upper()]))  # and loads new code


def test_a_bad_project_is_not_cached_and_its_own_file_is_named(op):
    bad = with_bad_init("segv", "op_host/add_split.cpp")
    for _ in range(2):       # the same content fails the same way each time: nothing kept
        with pytest.raises(arc.OpProjectError, match=r"\(op_host/add_split.cpp\): the static initialisers of "
                                                     r"op_host/add_split.cpp crashed \(SIGSEGV"):
            arc.op_project(bad)
    good_call(op)


CHILD = r'''
import os, signal, sys, time
import numpy as np
import ascendrtc as arc
signal.signal(signal.SIGINT, signal.default_int_handler)
files = eval(sys.stdin.read())
what = sys.argv[1]
if what == "init":
    files["op_host/zz_bad.cpp"] = ("#include <cstdio>\nstatic int arc_bad = [] { std::printf(\"spinning\\n\"); "
                                   "std::fflush(stdout); volatile unsigned spin = 1; while (spin) {} return 0; }();")
if what == "compile":
    files["op_host/add_split.cpp"] = "#include <iostream>\n#include <regex>\n#include <map>\n" + files["op_host/add_split.cpp"]
    files["op_host/add_split.cpp"] += "\n// %f\n" % time.time()   # never compiled before in this process
op = arc.op_project(files, host_timeout=0) if what == "tiling" else None
x = np.ones(11, np.float32)
print("go", flush=True)
t0 = time.monotonic()
try:
    if what == "tiling":
        op.tiling(x, x)
    else:
        arc.op_project(files, host_timeout=0)
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted %.2f" % (time.monotonic() - t0), flush=True)
files.pop("op_host/zz_bad.cpp", None)
good = arc.op_project(eval(repr(files)) if what == "tiling" else files)
y = np.arange(4096, dtype=np.float32)
assert np.array_equal(good(y, y), 2 * y)
print("good", flush=True)
'''


def interrupt_child(what, delay):
    env = dict(os.environ)
    p = subprocess.Popen([sys.executable, "-c", CHILD, what], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env, cwd=os.path.dirname(HERE))
    p.stdin.write(repr(files()))
    p.stdin.close()
    p.stdin = None
    assert select.select([p.stdout], [], [], 240)[0], "the child never got going"
    assert p.stdout.readline().strip() == "go"
    time.sleep(delay)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=240)
    return out.split("\n"), err, sent


def test_ctrl_c_stops_an_endless_tiling_function_within_a_second():
    lines, err, _ = interrupt_child("tiling", 1.0)
    assert lines[0].startswith("interrupted"), (lines, err)
    assert float(lines[0].split()[1]) < 1.0 + 1.0 + 0.5  # the delay, then at most a second
    assert lines[1] == "good", err


def test_ctrl_c_stops_the_op_host_compile_within_a_second():
    lines, err, _ = interrupt_child("compile", 0.3)
    if lines[0] == "finished":
        pytest.skip("the host compile finished before the interrupt arrived")
    assert lines[0].startswith("interrupted"), (lines, err)
    assert float(lines[0].split()[1]) < 0.3 + 1.0 + 0.5
    assert lines[1] == "good", err


def test_ctrl_c_stops_an_endless_static_initialiser_within_a_second():
    p = subprocess.Popen([sys.executable, "-c", CHILD, "init"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, cwd=os.path.dirname(HERE))
    p.stdin.write(repr(files()))
    p.stdin.close()
    p.stdin = None
    for want in ("go", "spinning"):             # compiled, and now in the initialiser's loop
        assert select.select([p.stdout], [], [], 240)[0], f"the child never said {want!r}"
        assert p.stdout.readline().strip() == want
    time.sleep(0.3)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    assert select.select([p.stdout], [], [], 60)[0]
    line = p.stdout.readline()
    took = time.monotonic() - sent
    out, err = p.communicate(timeout=240)
    assert line.startswith("interrupted"), (line, out, err)
    assert took < 1.5, took
    assert out.split("\n")[0] == "good", err


# Destructors of an op_host file's static objects and destructor functions,
# run as the op's host code is unloaded.  They ran uncontained (a crash
# killed the process at `del op` or at exit).
BAD_FINI = {
    "segv": ("struct ArcBad { ~ArcBad() { volatile int *p = nullptr; *p = 1; } };\nstatic ArcBad arc_bad;",
             r"destructors crashed \(SIGSEGV"),
    "abort": ("#include <cstdlib>\n__attribute__((destructor)) static void arc_bad() { std::abort(); }",
              r"destructors crashed \(SIGABRT"),
    "loop": ("struct ArcBad { ~ArcBad() { volatile unsigned spin = 1; while (spin) {} } };\nstatic ArcBad arc_bad;",
             r"destructors did not return within 2 s"),
}


@pytest.mark.parametrize("what", sorted(BAD_FINI))
def test_a_failing_destructor_is_a_warning_and_the_process_goes_on(op, what):
    f = files()
    f["op_host/zz_fini.cpp"] = BAD_FINI[what][0]
    bad = arc.op_project(f, host_timeout=2)
    good_call(bad)                               # loads, initialises and runs
    with pytest.warns(RuntimeWarning, match=BAD_FINI[what][1]):
        bad.close()
    with pytest.raises(arc.OpProjectError, match=r"op AddSplit \(op_host/add_split.cpp\): the op was closed"):
        good_call(bad)
    good_call(op)
    good_call(arc.op_project(files(), options=["-DARC_AFTER_FINI_" + what.upper()]))


def test_destructors_run_once_in_order_when_the_code_is_unloaded(tmp_path):
    import gc
    log = tmp_path / "fini.log"
    f = files()
    f["op_host/zz_fini.cpp"] = (
        "#include <cstdio>\n"
        f"static void arc_note(const char *s) {{ FILE *f = std::fopen(\"{log}\", \"a\"); std::fputs(s, f); std::fclose(f); }}\n"
        "struct ArcNote { const char *s; ~ArcNote() { arc_note(s); } };\n"
        "static ArcNote arc_first{\"first \"}, arc_second{\"second \"};\n"
        "__attribute__((destructor)) static void arc_last() { arc_note(\"function\"); }\n")
    one = arc.op_project(f)
    good_call(one)
    assert not log.exists()                     # nothing runs while the op is alive
    with one:
        good_call(one)
    assert one.closed and log.read_text() == "second first function"  # objects newest first, then functions
    one.close()                                 # idempotent: nothing runs twice
    assert log.read_text() == "second first function"
    again = arc.op_project(f)                   # closed ones are forgotten: a fresh load
    assert again is not one
    good_call(again)
    del again
    gc.collect()
    assert log.read_text() == "second first function"   # still cached: alive


def test_the_project_cache_is_bounded_and_del_then_unloads(tmp_path, monkeypatch):
    import gc
    log = tmp_path / "fini.log"
    monkeypatch.setenv("ASCENDRTC_OP_PROJECTS", "2")
    f = files()
    f["op_host/zz_fini.cpp"] = (
        "#include <cstdio>\n"
        f"struct ArcNote {{ ~ArcNote() {{ FILE *f = std::fopen(\"{log}\", \"a\"); std::fputs(\"gone \", f); "
        "std::fclose(f); } };\nstatic ArcNote arc_note;\n")
    first = arc.op_project(f)
    assert arc.op_project(f) is first           # cached
    del first
    for i in range(2):                          # two other projects push it out of the cache
        arc.op_project(files(), options=[f"-DARC_LRU_{i}"])
    gc.collect()
    assert log.read_text() == "gone "           # nothing held it: unloaded, its destructor ran
    monkeypatch.setenv("ASCENDRTC_OP_PROJECTS", "0")
    with pytest.raises(ValueError, match=r"ASCENDRTC_OP_PROJECTS='0': expected a number of op projects"):
        arc.op_project(files())
