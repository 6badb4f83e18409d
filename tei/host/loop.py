"""The engine host's I/O loop: lines in, lines out, the bot in a worker thread.

One thread (the runner) alone owns the `HostState` and sends lines; one worker thread per
`go` runs the bot's `think`, so `isready` and `stop` are answered at once whatever the bot
is doing. Deadlines are kept by waiting on the event queue with a timeout.

The loop does not know its transport. `serve` feeds it from stdin (a reader thread) and
writes to stdout; `serve_lines` feeds it from an async line source and sends through an
async sink (a websocket session, say) under trio. Either way a line longer than
`MAX_LINE` bytes is answered with an error and dropped, and at most `QUEUED_LINES` lines
wait unread: a reader that is faster than the host is held back.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from collections.abc import AsyncIterable, Awaitable, Callable
from typing import IO, Any, TextIO

from bots import base
from bots.base import Bot
from tei import protocol as p
from tei.host.effects import Effect, Exit, Log, Send, StartSearch, StopSearch
from tei.host.setup import HostConfig, HostSetupError
from tei.host.state import HostState
from tei.lines import MAX_LINE, LineSplitter, LongLine, bound
from tei.transcript import FROM_ENGINE, STDERR, TO_ENGINE, Transcript

__all__ = ["HostConfig", "HostSetupError", "HostState", "serve", "serve_lines"]

#: input lines that may wait unread before the reader is held back
QUEUED_LINES = 256
#: the longest single wait (seconds) on the event queue; a later deadline is waited for again
_MAX_WAIT = 3600.0

_Event = tuple[Any, ...]
#: what a line source yields: a line, or a line that was too long
Incoming = str | LongLine


def _thin(infos: list[base.Info], keep: int = 4) -> list[base.Info]:
    """A batch of reports cut to its last few: the bot was faster than the output."""
    if len(infos) <= keep:
        return infos
    strings = [i for i in infos[:-1] if i.string is not None][-(keep - 1) :]
    return [*strings, infos[-1]]


class _Runner:
    """The host's main loop over one session; `write(line)` raises OSError when the other
    side is gone."""

    def __init__(
        self,
        state: HostState,
        write: Callable[[str], None],
        transcript: Transcript | None,
        log_name: str | None = None,
    ) -> None:
        self.state = state
        self.write = write
        self.transcript = transcript
        self.log_name = log_name or state.config.name
        self.events: queue.Queue[_Event] = queue.Queue()
        self.line_slots = threading.Semaphore(QUEUED_LINES)
        self.stops: dict[int, threading.Event] = {}
        self.done: dict[int, threading.Event] = {}
        self.bot_locks: dict[int, threading.Lock] = {}
        # reports waiting for the runner, per search: one queue event per batch, so a bot
        # that reports in a tight loop cannot bury `isready` or `stop` under its infos
        self.info_lock = threading.Lock()
        self.pending: dict[int, list[base.Info]] = {}
        self.closed = False

    # ---- input, from any thread ----------------------------------------------------------
    def put(self, item: Incoming, block: bool = True) -> bool:
        """Queue one input line; False (not queued) when `block` is off and the queue is full."""
        if not self.line_slots.acquire(blocking=block):
            return False
        self.events.put(("line", item))
        return True

    def end(self, hang_up: bool = False) -> None:
        """No more input. At end of stdin a timed search still runs to its deadline; on a
        hang-up nobody waits for the answer, so the search is stopped at once."""
        self.events.put(("hangup",) if hang_up else ("eof",))

    # ---- the loop -----------------------------------------------------------------------
    def send(self, line: str) -> None:
        self._record(FROM_ENGINE, line)
        if self.closed:
            return
        try:
            self.write(line)
        except (OSError, ValueError):
            self.closed = True

    def log(self, text: str) -> None:
        """A report for the engine's operator (a bot's traceback): on stderr and, line by
        line, in the transcript."""
        for line in text.splitlines():
            self._record(STDERR, line)
        try:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def _record(self, direction: str, line: str) -> None:
        if self.transcript is not None:
            self.transcript.record(self.log_name, direction, line)

    def run(self) -> int:
        state = self.state
        while True:
            deadline = state.next_deadline()
            timeout = None
            if deadline is not None:
                timeout = min(_MAX_WAIT, max(0.0, deadline - time.monotonic()))
            try:
                event = self.events.get(timeout=timeout)
            except queue.Empty:
                event = ("time",)
            now = time.monotonic()
            try:
                effects = self._dispatch(event, now)
            except Exception as exc:  # a safety net: the host keeps serving
                effects = [Send(f"info string error: internal error: {exc!r}")]
                if event[0] in ("eof", "hangup"):
                    effects.append(Exit())
            for effect in effects:
                match effect:
                    case Send(line=text):
                        self.send(text)
                    case StartSearch():
                        self.start(effect)
                    case StopSearch(search_id=search_id):
                        stop = self.stops.get(search_id)
                        if stop is not None:
                            stop.set()
                    case Log(text=text):
                        self.log(text)
                    case Exit(code=code):
                        self._finish_all()
                        return code
            if self.closed:  # nobody reads our answers any more
                self._finish_all()
                return 0
            self._finish_stale()

    def _dispatch(self, event: _Event, now: float) -> list[Effect]:
        state = self.state
        match event:
            case ("line", item):
                self.line_slots.release()
                if isinstance(item, LongLine):
                    self._record(TO_ENGINE, item.prefix[:200] + "...")
                    effects: list[Effect] = [
                        Send(p.Info(string=f"error: {item.describe()}").to_line())
                    ]
                else:
                    self._record(TO_ENGINE, item.rstrip("\r\n"))
                    effects = state.on_line(item, now)
            case ("eof",):
                effects = state.on_eof(now)
            case ("hangup",):
                effects = state.on_line("quit", now)
            case ("info", int(search_id)):
                with self.info_lock:
                    infos = self.pending.pop(search_id, [])
                effects = []
                for info in _thin(infos):
                    effects += state.on_info(search_id, info, now)
            case ("result", int(search_id), action, error):
                effects = state.on_result(search_id, action, error, now)
            case _:
                effects = []
        deadline = state.next_deadline()
        if deadline is not None and now >= deadline:
            effects = [*effects, *state.on_time(now)]
        return effects

    # ---- searches -----------------------------------------------------------------------
    def start(self, effect: StartSearch) -> None:
        stop = threading.Event()
        done = threading.Event()
        self.stops[effect.search_id] = stop
        self.done[effect.search_id] = done
        lock = self.bot_locks.setdefault(id(effect.bot), threading.Lock())
        thread = threading.Thread(
            target=self._work,
            args=(effect, effect.bot, stop, done, lock),
            name=f"search-{effect.search_id}",
            daemon=True,
        )
        thread.start()

    def _work(
        self,
        effect: StartSearch,
        bot: Bot,
        stop: threading.Event,
        done: threading.Event,
        lock: threading.Lock,
    ) -> None:
        search_id = effect.search_id

        def report(info: base.Info) -> None:
            with self.info_lock:
                pending = self.pending.setdefault(search_id, [])
                pending.append(info)
                wake = len(pending) == 1
            if wake:
                self.events.put(("info", search_id))

        with lock:
            if done.is_set():
                return
            try:
                action = bot.think(effect.game, effect.limits, stop, report)
            except BaseException as exc:
                self.events.put(("result", search_id, None, exc))
            else:
                self.events.put(("result", search_id, action, None))

    def _finish_stale(self) -> None:
        current = self.state.search.id if self.state.search is not None else None
        for search_id in [i for i in self.done if i != current]:
            self.done.pop(search_id).set()
            self.stops.pop(search_id).set()

    def _finish_all(self) -> None:
        for event in [*self.done.values(), *self.stops.values()]:
            event.set()


def _read_lines(stream: IO[bytes], runner: _Runner) -> None:
    """Feed the runner from the input. Reads the file descriptor itself when there is one:
    a daemon thread blocked inside a buffered reader would abort the interpreter at exit."""
    try:
        fd: int | None = stream.fileno()
    except (OSError, ValueError, AttributeError):
        fd = None
    splitter = LineSplitter(MAX_LINE)
    try:
        while True:
            chunk = os.read(fd, 1 << 16) if fd is not None else stream.readline()
            if not chunk:
                break
            for item in splitter.feed_marked(chunk):
                runner.put(item)
    except (OSError, ValueError):
        pass
    for line in splitter.flush():
        runner.put(line)
    runner.end()


def _open_transcript(log: TextIO | Transcript | None) -> Transcript | None:
    if log is None or isinstance(log, Transcript):
        return log
    return Transcript(log, keep=0)


def serve(
    state: HostState,
    stdin: IO[bytes],
    stdout: IO[bytes],
    log: TextIO | Transcript | None = None,
) -> int:
    """Serve one TEI session until `quit` or end of input; returns the exit status. `log`
    gets the traffic in the transcript format (`>` received, `<` sent)."""

    def write(line: str) -> None:
        stdout.write(line.encode("utf-8") + b"\n")
        stdout.flush()

    runner = _Runner(state, write, _open_transcript(log))
    reader = threading.Thread(target=_read_lines, args=(stdin, runner), name="stdin", daemon=True)
    reader.start()
    return runner.run()


async def serve_lines(
    state: HostState,
    lines: AsyncIterable[Incoming],
    send: Callable[[str], Awaitable[None]],
    transcript: Transcript | None = None,
    log_name: str | None = None,
) -> int:
    """Serve one TEI session under trio: lines from `lines` (text lines without newline,
    or `LongLine`s), answers through `send`. Ends on `quit`, when `lines` ends (a hang-up:
    a running search is stopped), when `send` raises, or when cancelled. The transcript
    names the session `log_name` (default: the engine name)."""
    import trio  # only the async transports need trio

    token = trio.lowlevel.current_trio_token()

    def write(line: str) -> None:
        try:
            trio.from_thread.run(send, line, trio_token=token)
        except (trio.RunFinishedError, trio.Cancelled) as exc:
            raise OSError("the session is gone") from exc
        except Exception as exc:  # the transport failed: nobody reads any more
            raise OSError(f"cannot send: {exc!r}") from exc

    runner = _Runner(state, write, transcript, log_name)

    async def pump() -> None:
        try:
            async for item in lines:
                if isinstance(item, str):
                    item = bound(item, MAX_LINE)
                if not runner.put(item, block=False):
                    await trio.to_thread.run_sync(runner.put, item)
        finally:
            runner.end(hang_up=True)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(pump)
        code = await trio.to_thread.run_sync(runner.run)
        nursery.cancel_scope.cancel()
    return code
