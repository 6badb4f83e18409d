"""One engine process under trio: its own process group, line streams, a shutdown that leaves
nothing behind.

The process is started in a new session (so it has its own process group and a Ctrl-C in
the terminal does not reach it). Stdout lines are read by a background task into a channel;
stderr lines are kept (the last N) for error messages and logged with the engine name.
`shutdown` sends `quit`, waits, then SIGTERM and SIGKILL to the whole group; it runs
shielded from cancellation and always ends with a SIGKILL to the group so that helper
processes the engine started die with it. An `atexit` hook kills groups still alive if the
interpreter exits without running the shutdown.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import logging
import os
import signal
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import trio

from tei.driver_errors import EngineTerminated
from tei.transcript import FROM_ENGINE, STDERR, TO_ENGINE, Transcript

log = logging.getLogger("tei.driver")

#: longest line kept from an engine; the rest of a longer line is dropped
MAX_LINE = 1 << 20

_LIVE_GROUPS: set[int] = set()


def _kill_live_groups() -> None:
    for pgid in list(_LIVE_GROUPS):
        _killpg(pgid, signal.SIGKILL)
    _LIVE_GROUPS.clear()


atexit.register(_kill_live_groups)


def _killpg(pgid: int, sig: int) -> bool:
    """Signal a process group; False when it no longer exists."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:
        return False
    return True


def _group_alive(pgid: int) -> bool:
    """True while a process of the group is alive (zombies, reaped by others, are dead)."""
    try:
        os.killpg(pgid, 0)
    except (ProcessLookupError, PermissionError):
        return False
    proc = Path("/proc")
    if not proc.is_dir():
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] != "Z":
            return True
    return False


async def _wait_group_gone(pgid: int, timeout: float) -> None:
    with trio.move_on_after(timeout):
        while _group_alive(pgid):
            await trio.sleep(0.01)


class LineSplitter:
    """Bytes in, text lines out (sans-IO). `\\r\\n` and `\\n` end lines; bad UTF-8 is replaced;
    a line longer than `max_line` bytes is cut and the rest of it dropped."""

    def __init__(self, max_line: int = MAX_LINE) -> None:
        self.max_line = max_line
        self._buffer = bytearray()
        self._skipping = False

    def feed(self, data: bytes | bytearray) -> list[str]:
        lines: list[str] = []
        self._buffer += data
        while True:
            index = self._buffer.find(b"\n")
            if index < 0:
                if len(self._buffer) > self.max_line:
                    if not self._skipping:
                        lines.append(self._decode(bytes(self._buffer[: self.max_line])))
                    self._skipping = True
                    self._buffer.clear()
                return lines
            raw = bytes(self._buffer[:index])
            del self._buffer[: index + 1]
            if self._skipping:
                self._skipping = False
                continue
            lines.append(self._decode(raw[: self.max_line]))

    def flush(self) -> list[str]:
        """The last, unterminated line at end of stream (if any)."""
        rest, self._buffer = bytes(self._buffer), bytearray()
        if rest and not self._skipping:
            return [self._decode(rest)]
        return []

    @staticmethod
    def _decode(raw: bytes) -> str:
        return raw.decode("utf-8", errors="replace").rstrip("\r")


class EngineProcess:
    """A started engine process with line-based I/O. Create with `start` inside a nursery."""

    def __init__(
        self,
        process: trio.Process,
        name: str,
        transcript: Transcript | None,
        stderr_lines: int,
    ) -> None:
        self.process = process
        self.name = name
        self.transcript = transcript
        self.stderr: collections.deque[str] = collections.deque(maxlen=max(1, stderr_lines))
        self._send_lock = trio.Lock()
        self._lines_in, self._lines_out = trio.open_memory_channel[str](1000)
        self.eof = False
        _LIVE_GROUPS.add(process.pid)

    @classmethod
    async def start(
        cls,
        nursery: trio.Nursery,
        argv: Sequence[str],
        *,
        name: str,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        transcript: Transcript | None = None,
        stderr_lines: int = 200,
    ) -> EngineProcess:
        try:
            process = await trio.lowlevel.open_process(
                list(argv),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                cwd=cwd,
                env=None if env is None else dict(env),
            )
        except OSError as exc:
            raise EngineTerminated(name, None, f"starting {list(argv)!r}", [str(exc)]) from exc
        engine = cls(process, name, transcript, stderr_lines)
        nursery.start_soon(engine._pump_stdout)
        nursery.start_soon(engine._pump_stderr)
        return engine

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    def _record(self, direction: str, line: str) -> None:
        if self.transcript is not None:
            self.transcript.record(self.name, direction, line)

    async def _pump_stdout(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        splitter = LineSplitter()
        try:
            async with self._lines_in:
                while True:
                    try:
                        data = await stream.receive_some(65536)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        data = b""
                    lines = splitter.feed(data) if data else splitter.flush()
                    for line in lines:
                        self._record(FROM_ENGINE, line)
                        await self._lines_in.send(line)
                    if not data:
                        return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return

    async def _pump_stderr(self) -> None:
        stream = self.process.stderr
        assert stream is not None
        splitter = LineSplitter(max_line=4096)
        while True:
            try:
                data = await stream.receive_some(65536)
            except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                data = b""
            for line in splitter.feed(data) if data else splitter.flush():
                self.stderr.append(line)
                self._record(STDERR, line)
                log.debug("%s stderr: %s", self.name, line)
            if not data:
                return

    async def send_line(self, line: str) -> None:
        """Write one line to the engine; EngineTerminated if its input is closed."""
        self._record(TO_ENGINE, line)
        stream = self.process.stdin
        assert stream is not None
        try:
            async with self._send_lock:
                await stream.send_all((line + "\n").encode("utf-8"))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            code = await self.exit_code(0.5)
            raise EngineTerminated(self.name, code, f"sending {line!r}", self.stderr) from exc

    async def receive_line(self) -> str | None:
        """The next stdout line, or None once the engine closed its output."""
        if self.eof:
            return None
        try:
            return await self._lines_out.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            self.eof = True
            return None

    async def exit_code(self, wait: float) -> int | None:
        """The exit code, waiting up to `wait` seconds for the process to end."""
        if self.process.returncode is None:
            with trio.move_on_after(wait):
                await self.process.wait()
        return self.process.returncode

    async def shutdown(
        self, quit_line: str | None = "quit", quit_grace: float = 1.0, term_grace: float = 1.0
    ) -> int | None:
        """quit -> grace -> SIGTERM to the group -> grace -> SIGKILL; returns the exit code.

        Shielded from cancellation; bounded by the two graces plus a few seconds.
        """
        with trio.CancelScope(shield=True):
            process = self.process
            if process.returncode is None and quit_line is not None:
                with trio.move_on_after(quit_grace) as scope:
                    with contextlib.suppress(EngineTerminated):
                        await self.send_line(quit_line)
                    await self._close_stdin()
                    await process.wait()
                if scope.cancelled_caught:
                    log.debug("%s did not exit within %.3g s of quit", self.name, quit_grace)
            else:
                await self._close_stdin()
            if process.returncode is None:
                _killpg(process.pid, signal.SIGTERM)
                with trio.move_on_after(term_grace):
                    await process.wait()
            if process.returncode is None:
                _killpg(process.pid, signal.SIGKILL)
                with trio.move_on_after(5.0):
                    await process.wait()
            # helpers the engine started may outlive it: the group dies with the engine
            if _killpg(process.pid, signal.SIGKILL):
                await _wait_group_gone(process.pid, 1.0)
            _LIVE_GROUPS.discard(process.pid)
            self._lines_out.close()
        return self.process.returncode

    async def _close_stdin(self) -> None:
        stream = self.process.stdin
        if stream is None:
            return
        try:
            with trio.move_on_after(0.2):
                await stream.aclose()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
