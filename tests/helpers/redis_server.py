"""A real redis-server on loopback for the remote-cache tests.

`tools/install_deps.sh` installs Debian's redis-server; each server here
gets its own free port and directory, keeps nothing on disk, and is
stopped when the test ends.  Tests talk to it with redis-cli, independently
of ascendrtc's own client.
"""
import shutil
import socket
import subprocess
import time

import pytest


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RedisServer:
    """One redis-server process; ``url`` is its redis:// URL."""

    def __init__(self, workdir):
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.fail("redis-server is not installed: `make test` installs it (tools/install_deps.sh)")
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(workdir), "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 20
        while True:  # poll until it accepts connections (bounded)
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail(f"redis-server did not start: {self.proc.stderr.read().decode(errors='replace')}")
                time.sleep(0.02)

    def cli(self, *args, stdin=None):
        """stdout of `redis-cli -p PORT args...` (bytes)."""
        return subprocess.run(["redis-cli", "-p", str(self.port), *args], input=stdin, capture_output=True,
                              check=True, timeout=30).stdout

    def keys(self):
        return [k for k in self.cli("--scan", "--pattern", "ascendrtc:*").decode().split() if k]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
