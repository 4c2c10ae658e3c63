"""What the tools that run a mirror's items on ascendrtc share (the items:
CATLASS's examples, asc-devkit's examples, the op libraries' op directories,
the samples' kernel files): the restartable worker process, one command
under a time limit, the pool that runs the items, the first-error reason of
a failed run, the PASS/FAIL progress line, the markdown cells, the summary
against a tool's KNOWN failures, and the doc update between markers.

A tool keeps only its catalog (which items), how to run one item and its
KNOWN table; tests/helpers/examples.py turns a catalog and KNOWN into
pytest parameters (strict expected failures).
"""
from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time

#: The ascendrtc checkout these tools belong to.
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Worker:
    """A restartable process running `script` (given the checkout as argv[1])
    on JSON lines: one request in, one result out; a crash or a hang past
    `timeout` seconds is a result, and the next request starts a fresh process."""

    def __init__(self, checkout, timeout, script):
        self.checkout, self.timeout, self.p, self.info, self.restarts = checkout, timeout, None, None, 0
        self.script = script

    def start(self):
        self.err = tempfile.TemporaryFile()
        self.p = subprocess.Popen([sys.executable, "-c", self.script, self.checkout], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=self.err, bufsize=0)
        line = self._readline(120)
        if line is None:
            self.err.seek(0)
            raise SystemExit("worker did not start: " + self.err.read().decode("utf-8", "replace")[-3000:])
        self.info = json.loads(line)

    def _readline(self, timeout):
        buf, end, fd = b"", time.monotonic() + timeout, self.p.stdout.fileno()
        while True:
            left = end - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:  # the process closed its output: it is ending
                try:
                    self.p.wait(5)
                except subprocess.TimeoutExpired:
                    pass
                return None
            buf += chunk
            if buf.endswith(b"\n"):
                return buf.decode("utf-8", "replace")

    def stop(self):
        if self.p and self.p.poll() is None:
            self.p.kill()
            self.p.wait()
        self.p = None

    def run(self, req):
        if self.p is None or self.p.poll() is not None:
            self.start()
        self.p.stdin.write((json.dumps(req) + "\n").encode())
        line = self._readline(self.timeout)
        if line is None:
            alive = self.p.poll() is None
            rc = None if alive else self.p.returncode
            self.stop()
            self.restarts += 1
            return {"ok": False, "kind": "hang" if alive else "crash", "ms": self.timeout * 1000.0,
                    "message": "no result after %ds" % self.timeout if alive else "worker died (exit %s)" % rc}
        return json.loads(line)


def env_with_checkout(root=REPO):
    """os.environ with `root` first on PYTHONPATH (the child imports this checkout's ascendrtc)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def run_command(cmd, timeout, what="", **kw):
    """Runs cmd with stdout and stderr together; returns (output, exit code):
    past `timeout`, the output so far, a "(<what> timed out after N s)" line and -1.
    The command runs in its own session, killed whole at the timeout: an
    example's `./demo` under `bash -c` must not outlive it."""
    with subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace",
                          start_new_session=True, **kw) as p:
        try:
            out, _ = p.communicate(timeout=timeout)
            return out, p.returncode
        except subprocess.TimeoutExpired:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, _ = p.communicate()
            return (out or "") + f"\n({what + ' ' if what else ''}timed out after {timeout:.0f} s)", -1


_TIMED_OUT = re.compile(r"^\((?:\w+ )?timed out after \d+ s\)$")
_FIRST_ERROR = (r"error: .*", r".*\berror\b.*", r".*[Ff]ailed.*", r".*Error.*")


def reason(output, width=200):
    """One line saying why a run failed: that it timed out, else its first error, else its last line."""
    last = (output.strip().splitlines() or ["no output"])[-1]
    if _TIMED_OUT.match(last):
        return last
    for pat in _FIRST_ERROR:
        m = re.search(pat, output)
        if m:
            return m.group(0).strip()[:width]
    return last[:width]


def run_all(items, one, jobs=1, worker=None, progress=None):
    """Runs one(item) (one(item, w) with w = worker() per thread, stopped at
    the end) for every item on `jobs` threads; progress(n_done, item, result)
    is called as each finishes.  Returns the results in the items' order."""
    todo, results, lock, done = list(enumerate(items)), [None] * len(items), threading.Lock(), [0]

    def drain():
        w = worker() if worker else None
        try:
            while True:
                with lock:
                    if not todo:
                        return
                    i, item = todo.pop(0)
                r = one(item, w) if worker else one(item)
                with lock:
                    results[i] = r
                    done[0] += 1
                    if progress:
                        progress(done[0], item, r)
        finally:
            if w:
                w.stop()

    threads = [threading.Thread(target=drain) for _ in range(max(1, jobs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def progress_line(name, ok, seconds, why=""):
    """The PASS/FAIL line printed on stderr as an item finishes."""
    print(f"{'PASS' if ok else 'FAIL'} {name} ({seconds:.1f} s){'' if ok else ': ' + why}", file=sys.stderr, flush=True)


def cell(text):
    """Text for a markdown table cell (its pipes escaped)."""
    return text.replace("|", "\\|")


def known_drift(results, known):
    """Lines on how (name, ok) results disagree with a tool's KNOWN failures:
    passing ones still listed (they must leave, as the strict tests say) and
    failing ones not listed."""
    out = []
    now_pass = sorted(n for n, ok in results if ok and n in known)
    new_fail = sorted(n for n, ok in results if not ok and n not in known)
    if now_pass:
        out.append("passes but is in KNOWN (remove it): " + ", ".join(now_pass))
    if new_fail:
        out.append("fails but is not in KNOWN: " + ", ".join(new_fail))
    return out


def update_doc(path, table, begin, end, what):
    """Replaces what stands between the `begin` and `end` markers of `path` with `table`."""
    with open(path) as f:
        doc = f.read()
    if begin not in doc or end not in doc:
        raise SystemExit("%s has no %s markers (%s ... %s)" % (path, what, begin, end))
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + table + "\n" + end + tail)
