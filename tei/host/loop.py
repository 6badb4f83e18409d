"""The engine host's I/O loop: stdin lines in, stdout lines out, the bot in a worker thread.

One reader thread turns stdin into events, one worker thread per `go` runs the bot's
`think`; the main thread alone owns the `HostState` and writes stdout, so `isready` and
`stop` are answered at once whatever the bot is doing. Deadlines are kept by waiting on
the event queue with a timeout.
"""

from __future__ import annotations

import os
import queue
import threading
import time
from typing import IO, Any

from bots import base
from bots.base import Bot
from tei.host.state import (
    Effect,
    Exit,
    HostConfig,
    HostSetupError,
    HostState,
    Send,
    StartSearch,
    StopSearch,
)

__all__ = ["HostConfig", "HostSetupError", "HostState", "serve"]

_Event = tuple[Any, ...]


class _TrafficLog:
    """`<monotonic seconds> <name> <'>' received | '<' sent> <line>`, one line per message."""

    def __init__(self, stream: IO[str] | None, name: str) -> None:
        self.stream = stream
        self.name = name

    def write(self, direction: str, line: str) -> None:
        if self.stream is None:
            return
        try:
            self.stream.write(f"{time.monotonic():.3f} {self.name} {direction} {line}\n")
            self.stream.flush()
        except (OSError, ValueError):
            self.stream = None


def _read_lines(stream: IO[bytes], events: queue.Queue[_Event]) -> None:
    """Turn the input into line events. Reads the file descriptor itself when there is
    one: a daemon thread blocked inside a buffered reader would abort the interpreter at
    exit."""
    try:
        fd: int | None = stream.fileno()
    except (OSError, ValueError, AttributeError):
        fd = None
    pending = b""
    try:
        while True:
            chunk = os.read(fd, 65536) if fd is not None else stream.readline()
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                events.put(("line", raw.decode("utf-8", errors="replace")))
    except (OSError, ValueError):
        pass
    if pending:
        events.put(("line", pending.decode("utf-8", errors="replace")))
    events.put(("eof",))


def _thin(infos: list[base.Info], keep: int = 4) -> list[base.Info]:
    """A batch of reports cut to its last few: the bot was faster than stdout."""
    if len(infos) <= keep:
        return infos
    strings = [i for i in infos[:-1] if i.string is not None][-(keep - 1) :]
    return [*strings, infos[-1]]


class _Runner:
    def __init__(self, state: HostState, out: IO[bytes], log: _TrafficLog) -> None:
        self.state = state
        self.out = out
        self.log = log
        self.events: queue.Queue[_Event] = queue.Queue()
        self.stops: dict[int, threading.Event] = {}
        self.done: dict[int, threading.Event] = {}
        self.bot_locks: dict[int, threading.Lock] = {}
        # reports waiting for the main thread, per search: one queue event per batch, so a
        # bot that reports in a tight loop cannot bury `isready` or `stop` under its infos
        self.info_lock = threading.Lock()
        self.pending: dict[int, list[base.Info]] = {}
        self.closed = False

    def send(self, line: str) -> None:
        self.log.write("<", line)
        if self.closed:
            return
        try:
            self.out.write(line.encode("utf-8") + b"\n")
            self.out.flush()
        except (OSError, ValueError):
            self.closed = True

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

    def run(self) -> int:
        state = self.state
        while True:
            deadline = state.next_deadline()
            timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                event = self.events.get(timeout=timeout)
            except queue.Empty:
                event = ("time",)
            now = time.monotonic()
            try:
                effects = self._dispatch(event, now)
            except Exception as exc:  # a safety net: the host keeps serving
                effects = [Send(f"info string error: internal error: {exc!r}")]
                if event[0] == "eof":
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
                    case Exit():
                        self._finish_all()
                        return 0
            if self.closed:  # nobody reads our answers any more
                self._finish_all()
                return 0
            self._finish_stale()

    def _dispatch(self, event: _Event, now: float) -> list[Effect]:
        state = self.state
        match event:
            case ("line", str(line)):
                self.log.write(">", line.rstrip("\r\n"))
                effects = state.on_line(line, now)
            case ("eof",):
                effects = state.on_eof(now)
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

    def _finish_stale(self) -> None:
        current = self.state.search.id if self.state.search is not None else None
        for search_id in [i for i in self.done if i != current]:
            self.done.pop(search_id).set()
            self.stops.pop(search_id).set()

    def _finish_all(self) -> None:
        for event in [*self.done.values(), *self.stops.values()]:
            event.set()


def serve(state: HostState, stdin: IO[bytes], stdout: IO[bytes], log: IO[str] | None = None) -> int:
    """Serve one TEI session until `quit` or end of input; returns the exit status."""
    runner = _Runner(state, stdout, _TrafficLog(log, state.config.name))
    reader = threading.Thread(
        target=_read_lines, args=(stdin, runner.events), name="stdin", daemon=True
    )
    reader.start()
    return runner.run()
