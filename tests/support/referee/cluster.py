"""Real `dask scheduler` and `dask worker` processes on 127.0.0.1 for the cluster tests,
each in its own process group under a group guard."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.support.engines.procs import guarded

DASK = str(Path(sys.executable).with_name("dask"))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Cluster:
    """A scheduler and workers as real processes, each in its own process group."""

    def __init__(self) -> None:
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen[bytes]] = []
        self.scheduler = self._start(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", str(self.port), "--no-dashboard"]
        )
        self.workers: list[subprocess.Popen[bytes]] = []

    def _start(self, argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        # under a group guard: nothing survives this process, even one killed with no
        # finalizer run (a pytest-timeout kill)
        proc = guarded(argv, {**os.environ, **(env or {})})
        self.procs.append(proc)
        return proc

    def add_worker(self, **env: str) -> subprocess.Popen[bytes]:
        argv = [DASK, "worker", self.address, "--nthreads", "1", "--nworkers", "1"]
        argv += ["--host", "127.0.0.1", "--no-dashboard", "--death-timeout", "20"]
        worker = self._start(argv, {"ON_WORKER": "1", **env})
        self.workers.append(worker)
        return worker

    def wait_for_workers(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(count, timeout=60)

    def kill(self, proc: subprocess.Popen[bytes]) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        if proc.stdin is not None:
            proc.stdin.close()

    def close(self) -> None:
        for proc in reversed(self.procs):
            self.kill(proc)
