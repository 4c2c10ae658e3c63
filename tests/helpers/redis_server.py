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

    def __init__(self, workdir, password=None, tls=False):
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.fail("redis-server is not installed: `make test` installs it (tools/install_deps.sh)")
        self.port = _free_port()
        self.password = password
        auth = f":{password}@" if password else ""
        self.url = f"{'rediss' if tls else 'redis'}://{auth}127.0.0.1:{self.port}/0"
        args = [exe, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                "--dir", str(workdir), "--daemonize", "no", "--loglevel", "warning"]
        args += ["--requirepass", password] if password else []
        self.tls_args = []
        if tls:  # a throwaway self-signed certificate for 127.0.0.1; clients trust it through `ca`
            self.ca = self.key = str(workdir / "redis-tls.pem")
            subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                            "-keyout", self.key, "-out", self.ca], check=True, capture_output=True, timeout=60)
            args += ["--port", "0", "--tls-port", str(self.port), "--tls-cert-file", self.ca,
                     "--tls-key-file", self.key, "--tls-auth-clients", "no"]
            self.tls_args = ["--tls", "--cacert", self.ca]
        else:
            args += ["--port", str(self.port)]
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
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
        auth = ["-a", self.password, "--no-auth-warning"] if self.password else []
        return subprocess.run(["redis-cli", "-p", str(self.port), *self.tls_args, *auth, *args], input=stdin,
                              capture_output=True, check=True, timeout=30).stdout

    def keys(self):
        return [k for k in self.cli("--scan", "--pattern", "ascendrtc:*").decode().split() if k]

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)
