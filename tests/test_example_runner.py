"""tools/example_runner.py, what the example and op-library tools share: the
first-error reason, a command's time limit, the pool's order, the restartable
worker (a crash and a hang are results, the next request gets a fresh
process), the KNOWN summary and the markers' doc update.  No mirror needed."""
import os
import sys
import time

import pytest

from helpers.examples import load_tool

er = load_tool("example_runner")


def test_reason_is_the_first_error_else_the_timeout_else_the_last_line():
    assert er.reason("ok\nx.cpp:3: error: bad thing\nlater error: other") == "error: bad thing"
    assert er.reason("build\nCompare failed. Error count: 7\n") == "Compare failed. Error count: 7"
    assert er.reason("[ERROR] result error\n") == "[ERROR] result error"
    assert er.reason("a\nlast line\n") == "last line"
    assert er.reason("") == "no output"
    assert er.reason("error: " + "x" * 500, 50) == ("error: " + "x" * 500)[:50]
    assert er.reason("warning error: noise\n(run timed out after 5 s)") == "(run timed out after 5 s)"


def test_run_command_keeps_the_output_and_names_a_timeout():
    out, rc = er.run_command([sys.executable, "-c", "print('hi'); import sys; sys.exit(3)"], 60)
    assert (out, rc) == ("hi\n", 3)
    out, rc = er.run_command([sys.executable, "-c", "import time; print('so far', flush=True); time.sleep(30)"],
                             1, "build")
    assert rc == -1 and out.startswith("so far") and out.endswith("(build timed out after 1 s)")
    assert er.reason(out) == "(build timed out after 1 s)"


def test_a_timeout_kills_the_commands_children_too(tmp_path):
    """An example's ./demo under `bash -c` that hangs must not outlive the run."""
    pid_file = tmp_path / "child.pid"
    out, rc = er.run_command(["bash", "-c", "sleep 300 & echo $! > %s; wait" % pid_file], 1, "run")
    assert rc == -1 and out.endswith("(run timed out after 1 s)")
    pid = int(pid_file.read_text())
    for _ in range(50):   # the kill is delivered, the zombie reaped by init
        if not os.path.exists("/proc/%d" % pid) or "Z" in open("/proc/%d/stat" % pid).read().split()[2]:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the command's child %d outlived its timeout" % pid)


def test_run_all_keeps_the_order_and_reports_each():
    seen = []
    got = er.run_all(list(range(20)), lambda i: i * i, jobs=3, progress=lambda n, item, r: seen.append((n, r)))
    assert got == [i * i for i in range(20)]
    assert sorted(n for n, _ in seen) == list(range(1, 21))


WORKER = r'''
import json, os, sys, time
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    req = json.loads(line)
    if req == "crash":
        os._exit(7)
    if req == "hang":
        time.sleep(60)
    print(json.dumps({"ok": True, "pid": os.getpid(), "echo": req}), flush=True)
'''


def test_worker_turns_a_crash_and_a_hang_into_results_and_restarts():
    w = er.Worker(".", 2, WORKER)
    try:
        first = w.run("a")
        assert first["ok"] and first["echo"] == "a" and w.run("b")["pid"] == first["pid"]
        assert w.run("crash") == {"ok": False, "kind": "crash", "ms": 2000.0, "message": "worker died (exit 7)"}
        again = w.run("c")
        assert again["ok"] and again["pid"] != first["pid"]
        assert w.run("hang")["kind"] == "hang" and w.restarts == 2
        assert w.run("d")["echo"] == "d"
    finally:
        w.stop()


def test_known_drift_names_both_directions():
    known = {"a": "why a", "b": "why b"}
    assert er.known_drift([("a", False), ("c", True)], known) == []
    assert er.known_drift([("a", True), ("b", False), ("c", False)], known) == [
        "passes but is in KNOWN (remove it): a", "fails but is not in KNOWN: c"]


def test_update_doc_replaces_between_the_markers_only(tmp_path):
    doc = tmp_path / "d.md"
    doc.write_text("head\n<!-- b -->\nold\n<!-- e -->\ntail\n")
    er.update_doc(str(doc), "| new |", "<!-- b -->", "<!-- e -->", "test")
    assert doc.read_text() == "head\n<!-- b -->\n| new |\n<!-- e -->\ntail\n"
    with pytest.raises(SystemExit, match="has no test markers"):
        er.update_doc(str(doc), "x", "<!-- nope -->", "<!-- e -->", "test")
    assert er.cell("a|b") == "a\\|b"
