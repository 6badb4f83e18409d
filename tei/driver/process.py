"""One engine process under trio: its own process group, line streams, a shutdown that leaves
nothing behind.

The process is started in a new session (so it has its own process group and a Ctrl-C in
the terminal does not reach it), with a parent-death signal (SIGKILL when our process
dies, on Linux) and a marker in its environment that its descendants inherit. Stdout lines
are read by a background task, fed to `on_line` in the order they arrive, and the results
queued; stderr lines are kept (the last N) for error messages and logged with the engine
name. A third task waits for the process itself to exit: then everything it started is
killed, so that its output ends even when a descendant held it open. `shutdown` sends
`quit`, waits, then SIGTERM and SIGKILL to the whole group, and kills every descendant
(see `tei.driver.reaper`); it runs shielded from cancellation. An `atexit` hook kills what
is still alive if the interpreter exits without running the shutdown.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import logging
import os
import signal
import subprocess
import uuid
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Generic, TypeVar

import trio

from tei.driver.errors import EngineTerminated
from tei.driver.reaper import MARKER, kill_tree, preexec, wait_gone
from tei.lines import LineSplitter
from tei.transcript import FROM_ENGINE, STDERR, TO_ENGINE, Transcript

log = logging.getLogger("tei.driver")


#: seconds the output of an engine that exited may take to end after its descendants
#: were killed, before it is closed by force
EXIT_DRAIN = 1.0

E = TypeVar("E")

#: (process group, marker) of engines not shut down yet
_LIVE: dict[int, str] = {}


def _kill_live() -> None:
    for pgid, marker in list(_LIVE.items()):
        kill_tree(pgid, marker)
    _LIVE.clear()


atexit.register(_kill_live)


class Child:
    """A child process with trio streams on its stdin, stdout and stderr.

    It is started from the thread running trio (not a worker thread), so that its
    parent-death signal fires only when that thread ends. One task (`watch`) waits for
    its exit; `wait` waits for that.
    """

    def __init__(self, popen: subprocess.Popen[bytes], fds: tuple[int, int, int]) -> None:
        self.popen = popen
        self.pid = popen.pid
        self.stdin = trio.lowlevel.FdStream(fds[0])
        self.stdout = trio.lowlevel.FdStream(fds[1])
        self.stderr = trio.lowlevel.FdStream(fds[2])
        self.exited = trio.Event()

    @classmethod
    def spawn(cls, argv: Sequence[str], **options: Any) -> Child:
        ours: list[int] = []
        theirs: list[int] = []
        try:
            for to_child in (True, False, False):
                read, write = os.pipe()
                ours.append(write if to_child else read)
                theirs.append(read if to_child else write)
            popen = subprocess.Popen(
                list(argv), stdin=theirs[0], stdout=theirs[1], stderr=theirs[2], **options
            )
        except BaseException:
            for fd in ours:
                os.close(fd)
            raise
        finally:
            for fd in theirs:
                os.close(fd)
        return cls(popen, (ours[0], ours[1], ours[2]))

    @property
    def returncode(self) -> int | None:
        return self.popen.returncode

    async def watch(self) -> None:
        """Wait for the process to exit and reap it; `exited` is set then."""
        try:
            await self._exit()
        finally:
            if self.popen.poll() is not None:
                self.exited.set()

    async def _exit(self) -> None:
        if self.popen.poll() is not None:
            return
        if hasattr(os, "pidfd_open"):
            try:
                fd = os.pidfd_open(self.pid)
            except ProcessLookupError:  # already reaped
                return
            try:
                await trio.lowlevel.wait_readable(fd)
            finally:
                os.close(fd)
            self.popen.wait()
        else:
            await trio.to_thread.run_sync(self.popen.wait, abandon_on_cancel=True)

    async def wait(self) -> int:
        """The exit code, once the process has exited. It waits on the process itself
        when the watching task is gone (cancelled with its nursery, as in a shutdown)."""
        if not self.exited.is_set():
            await self._exit()
            self.exited.set()
        assert self.popen.returncode is not None
        return self.popen.returncode


class EngineProcess(Generic[E]):
    """A started engine process with line-based I/O. Create with `start` inside a nursery;
    each stdout line goes through `on_line` and what it returns is queued for `receive`."""

    def __init__(
        self,
        process: Child,
        name: str,
        marker: str,
        on_line: Callable[[str], E],
        transcript: Transcript | None,
        stderr_lines: int,
    ) -> None:
        self.process = process
        self.name = name
        self.marker = marker
        self.transcript = transcript
        self.stderr: collections.deque[str] = collections.deque(maxlen=max(1, stderr_lines))
        self._on_line = on_line
        self._send_lock = trio.Lock()
        self._lines_in, self._lines_out = trio.open_memory_channel[E](1000)
        self._stdout_done = trio.Event()
        self.eof = False
        _LIVE[process.pid] = marker

    @classmethod
    async def start(
        cls,
        nursery: trio.Nursery,
        argv: Sequence[str],
        *,
        on_line: Callable[[str], E],
        name: str,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        transcript: Transcript | None = None,
        stderr_lines: int = 200,
    ) -> EngineProcess[E]:
        marker = uuid.uuid4().hex
        environment = dict(os.environ if env is None else env)
        environment[MARKER] = marker
        try:
            process = Child.spawn(
                argv,
                start_new_session=True,
                preexec_fn=preexec(os.getpid()),
                cwd=cwd,
                env=environment,
            )
        except OSError as exc:
            raise EngineTerminated(name, None, f"starting {list(argv)!r}", [str(exc)]) from exc
        engine = cls(process, name, marker, on_line, transcript, stderr_lines)
        nursery.start_soon(engine._pump_stdout)
        nursery.start_soon(engine._pump_stderr)
        nursery.start_soon(process.watch)
        nursery.start_soon(engine._watch_exit)
        return engine

    def _record(self, direction: str, line: str) -> None:
        if self.transcript is not None:
            self.transcript.record(self.name, direction, line)

    async def _pump_stdout(self) -> None:
        stream = self.process.stdout
        splitter = LineSplitter()
        try:
            async with self._lines_in:
                while True:
                    try:
                        data = await stream.receive_some(65536)
                    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
                        data = b""
                    events = []
                    for line in splitter.feed(data) if data else splitter.flush():
                        # the whole chunk is taken in before anything is handed on, so
                        # that nothing sent meanwhile seems to come before these lines
                        self._record(FROM_ENGINE, line)
                        events.append(self._on_line(line))
                    for event in events:
                        await self._lines_in.send(event)
                    if not data:
                        return
        except (trio.BrokenResourceError, trio.ClosedResourceError):
            return
        finally:
            self._stdout_done.set()

    async def _pump_stderr(self) -> None:
        stream = self.process.stderr
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

    async def _watch_exit(self) -> None:
        """When the process itself exits, its output must end even if a descendant holds
        it: kill what it started, let the pump read what is left, then close the pipe."""
        await self.process.wait()
        if self._stdout_done.is_set():
            return
        kill_tree(self.process.pid, self.marker)
        with trio.move_on_after(EXIT_DRAIN):
            await self._stdout_done.wait()
        if not self._stdout_done.is_set():
            log.warning("%s exited but its output stays open; closing it", self.name)
            with contextlib.suppress(trio.ClosedResourceError, OSError):
                await self.process.stdout.aclose()

    async def send_line(self, line: str) -> None:
        """Write one line to the engine; EngineTerminated if its input is closed."""
        self._record(TO_ENGINE, line)
        stream = self.process.stdin
        try:
            async with self._send_lock:
                await stream.send_all((line + "\n").encode("utf-8"))
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            code = await self.exit_code(0.5)
            raise EngineTerminated(self.name, code, f"sending {line!r}", self.stderr) from exc

    async def receive(self) -> E | None:
        """What `on_line` made of the next stdout line, or None once the output ended."""
        if self.eof:
            return None
        try:
            return await self._lines_out.receive()
        except (trio.EndOfChannel, trio.ClosedResourceError):
            self.eof = True
            return None

    def receive_ready(self) -> list[E]:
        """Everything already queued, without waiting."""
        ready: list[E] = []
        while not self.eof:
            try:
                ready.append(self._lines_out.receive_nowait())
            except trio.WouldBlock:
                break
            except (trio.EndOfChannel, trio.ClosedResourceError):
                self.eof = True
        return ready

    async def exit_code(self, wait: float) -> int | None:
        """The exit code, waiting up to `wait` seconds for the process to end."""
        if self.process.returncode is None:
            with trio.move_on_after(wait):
                await self.process.wait()
        return self.process.returncode

    async def shutdown(
        self, quit_line: str | None = "quit", quit_grace: float = 1.0, term_grace: float = 1.0
    ) -> int | None:
        """quit -> grace -> SIGTERM to the group -> grace -> SIGKILL to the group and every
        descendant; returns the exit code.

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
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(process.pid, signal.SIGTERM)
                with trio.move_on_after(term_grace):
                    await process.wait()
            # helpers the engine started may outlive it: they die with the engine
            killed = kill_tree(process.pid, self.marker)
            with trio.move_on_after(5.0):
                await process.wait()
            await wait_gone(killed, 1.0)
            _LIVE.pop(process.pid, None)
            self._lines_out.close()
        return self.process.returncode

    async def _close_stdin(self) -> None:
        stream = self.process.stdin
        try:
            with trio.move_on_after(0.2):
                await stream.aclose()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass
