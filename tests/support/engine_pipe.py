"""`tei engine` as a real subprocess, driven line by line from a test."""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from tests.support import ROOT

WAIT = 30.0  # liveness limit only: a hung engine fails the test instead of blocking it


class TeiExchanges:
    """The two exchanges most TEI tests start with, on top of `send` and `expect`."""

    def send(self, *lines: str) -> None:
        raise NotImplementedError

    def expect(self, match: str) -> list[str]:
        raise NotImplementedError

    def handshake(self) -> list[str]:
        self.send("tei")
        return self.expect("teiok")

    def ping(self) -> list[str]:
        self.send("isready")
        return self.expect("readyok")


class EnginePipe(TeiExchanges):
    """`python -m tei engine ARGS`, with the tests folder on PYTHONPATH (for test bots)."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tei", "engine", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        # stderr is drained so a chatty engine never blocks on a full pipe
        threading.Thread(target=self._drain_stderr, daemon=True).start()
        self.stderr: list[str] = []

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def _drain_stderr(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.stderr.append(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        assert self.proc.stdin is not None
        for line in lines:
            self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def expect(self, match: Callable[[str], bool] | str) -> list[str]:
        """Lines up to and including the first that matches (a prefix or a predicate)."""
        test = match if callable(match) else (lambda line: line.startswith(match))
        got: list[str] = []
        end = time.monotonic() + WAIT
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, end - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no line matching {match!r}; got {got}") from None
            if line is None:
                raise AssertionError(f"engine exited before {match!r}; got {got}")
            got.append(line)
            self.seen.append(line)
            if test(line):
                return got

    until = expect

    def wait_exit(self) -> int:
        return self.proc.wait(timeout=WAIT)

    def close(self) -> None:
        if self.proc.poll() is None:
            with contextlib.suppress(BrokenPipeError, ValueError, OSError):
                self.send("quit")
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                stream.close()
