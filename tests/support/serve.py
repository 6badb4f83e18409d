"""`tei serve` as a real subprocess on 127.0.0.1, and a websocket client for it."""

from __future__ import annotations

import contextlib
import os
import queue
import re
import select
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import websocket

from tests.support import ROOT
from tests.support.engine_pipe import TeiExchanges

WAIT = 30.0  # liveness limit only: a hung server fails the test instead of blocking it
_LISTENING = re.compile(r"tei serve: .* on ws://127\.0\.0\.1:(\d+)")


class Server:
    """`python -m tei serve --host 127.0.0.1 --port 0 -v ARGS`; `url` once it listens."""

    def __init__(self, *args: str) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tei",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "-v",
                *args,
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        self.stderr: list[str] = []
        self._news = threading.Condition()
        ports: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._read_stderr, args=(ports,), daemon=True).start()
        try:
            port = ports.get(timeout=WAIT)
        except queue.Empty:
            port = None
        if port is None:
            self.close()
            raise AssertionError(f"tei serve did not start: {self.stderr}")
        self.url = f"ws://127.0.0.1:{port}/"

    def _read_stderr(self, ports: queue.Queue[str | None]) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            with self._news:
                self.stderr.append(line.rstrip("\n"))
                self._news.notify_all()
            match = _LISTENING.search(line)
            if match:
                ports.put(match.group(1))
        ports.put(None)

    def wait_log(self, pattern: str) -> str:
        """The first stderr line that matches `pattern` (a regular expression)."""
        regex = re.compile(pattern)

        def found() -> str | None:
            return next((line for line in self.stderr if regex.search(line)), None)

        with self._news:
            if not self._news.wait_for(lambda: found() is not None, timeout=WAIT):
                raise AssertionError(f"no server line {pattern!r}; got {self.stderr}")
            line = found()
        assert line is not None
        return line

    def children(self) -> list[int]:
        """Pids of the server's live child processes."""
        found: list[int] = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            try:
                found += [int(p) for p in (task / "children").read_text().split()]
            except OSError:
                continue
        return found

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Client(TeiExchanges):
    """A websocket client that reads the server's messages as lines."""

    def __init__(self, url: str, origin: str | None = None) -> None:
        options: dict[str, Any] = {"timeout": WAIT}
        if origin is not None:
            options["origin"] = origin
        self.ws = websocket.create_connection(url, **options)
        self.pending: list[str] = []
        self.seen: list[str] = []

    def send(self, *messages: str) -> None:
        for message in messages:
            self.ws.send(message)

    def line(self) -> str:
        while not self.pending:
            message = self.ws.recv()
            assert isinstance(message, str), message
            self.pending += re.split(r"\r?\n", message)
        line = self.pending.pop(0)
        self.seen.append(line)
        return line

    def expect(self, prefix: str) -> list[str]:
        """Lines up to and including the first that starts with `prefix`."""
        got: list[str] = []
        while True:
            try:
                line = self.line()
            except (websocket.WebSocketException, OSError) as exc:
                raise AssertionError(f"no line {prefix!r} ({exc!r}); got {got}") from None
            got.append(line)
            if line.startswith(prefix):
                return got

    def close_frame(self) -> tuple[int, str]:
        """Read up to the server's close frame: (code, reason)."""
        while True:
            opcode, data = self.ws.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return int.from_bytes(data[:2], "big"), data[2:].decode("utf-8")

    def vanish(self) -> None:
        """Drop the connection without a close frame, as a client that is gone."""
        self.ws.sock.shutdown(socket.SHUT_RDWR)
        self.ws.sock.close()

    def close(self) -> None:
        with contextlib.suppress(websocket.WebSocketException, OSError):
            self.ws.close(timeout=2)


def wait_gone(pid: int, timeout: float = WAIT) -> bool:
    """Wait for a process to end (through a pidfd, no polling); True if it ended."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
        return bool(ready)
    finally:
        os.close(fd)
