"""`SimpleEngine`: the trio driver behind blocking calls, for scripts, notebooks and threads.

    with SimpleEngine.popen(["tiltak"]) as engine:
        result = engine.play(game, Limits(movetime=500))
        info = engine.analyse(game, Limits(depth=8))

The engine lives in a background thread running its own trio loop (`trio.run`); each call
is carried into it with `trio.from_thread.run`, so the driver's errors are raised in the
caller's thread and nothing relies on the main thread or on signal handlers. Calls from
several threads wait their turn. `close()` (or leaving the `with` block, also by an
exception) shuts the process down as `open_engine` does and joins the thread.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Awaitable, Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TypeVar

import trio

from rules.game import Game
from tei.driver.analysis import Analysis
from tei.driver.engine import Engine
from tei.driver.errors import EngineOptionError, EngineTimeout
from tei.driver.launch import open_engine
from tei.driver.limits import Limits
from tei.driver.play_result import PlayResult, informative
from tei.protocol import Info
from tei.transcript import Transcript

T = TypeVar("T")

#: seconds an interrupted call waits for its job to wind down (the search stopped)
INTERRUPT_WAIT = 5.0

#: the option an engine declares when it can report several lines (`info multipv N`)
MULTIPV = "MultiPV"


class _ClosedOnExit:
    """Leaving the `with` block (also by an exception) calls `close()`."""

    def close(self) -> None:
        raise NotImplementedError

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


class SimpleEngine(_ClosedOnExit):
    """A running engine driven by blocking calls; make one with `SimpleEngine.popen`."""

    def __init__(self) -> None:
        self._engine: Engine | None = None
        self._token: trio.lowlevel.TrioToken | None = None
        self._closing: trio.Event | None = None
        self._started = threading.Event()
        self._error: BaseException | None = None
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._closed = False

    # ---- life ---------------------------------------------------------------------------
    @classmethod
    def popen(
        cls,
        argv: Sequence[str],
        *,
        name: str | None = None,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        transcript: Transcript | None = None,
        timeout: float = 10.0,
    ) -> SimpleEngine:
        """Start the engine and shake hands (`open_engine`'s errors: EngineTerminated,
        EngineStalled after `timeout` seconds), in a thread of its own."""
        self = cls()

        async def serve() -> None:
            self._token = trio.lowlevel.current_trio_token()
            self._closing = trio.Event()
            try:
                async with open_engine(
                    argv,
                    name=name,
                    cwd=cwd,
                    env=env,
                    transcript=transcript,
                    handshake_timeout=timeout,
                ) as engine:
                    self._engine = engine
                    self._started.set()
                    await self._closing.wait()
            except BaseException as exc:  # handed to the caller's thread
                if not self._started.is_set():
                    self._error = exc
            finally:
                self._engine = None
                self._started.set()

        def main() -> None:
            trio.run(serve)

        self._thread = threading.Thread(target=main, name=f"tei-engine-{name or argv[0]}")
        self._thread.daemon = True
        self._thread.start()
        self._started.wait()
        if self._error is not None:
            self._thread.join()
            error, self._error = self._error, None
            raise error
        return self

    def close(self) -> None:
        """Shut the engine down (quit, then terminate, then kill) and wait until it and
        its thread are gone; safe to repeat, and from any thread."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            token, closing = self._token, self._closing
            if token is not None and closing is not None:
                with contextlib.suppress(trio.RunFinishedError):
                    trio.from_thread.run_sync(closing.set, trio_token=token)
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> SimpleEngine:
        return self

    def _call(self, job: Callable[[Engine], Awaitable[T]], timeout: float | None = None) -> T:
        """Run `job(engine)` in the engine's trio loop and return its result (its error is
        raised here); with `timeout`, EngineTimeout when it takes longer. A caller
        interrupted meanwhile (Ctrl-C in a notebook) cancels the job and waits for it."""
        with self._lock:
            engine, token = self._engine, self._token
            if self._closed or engine is None or token is None:
                raise RuntimeError("the engine is closed")
            scope = trio.CancelScope()
            ended = threading.Event()

            async def run() -> T:
                try:
                    with scope:
                        if timeout is None:
                            return await job(engine)
                        with trio.move_on_after(timeout):
                            return await job(engine)
                        raise EngineTimeout(engine.name, timeout, 0.0, engine.stderr)
                    raise RuntimeError("the call was interrupted")
                finally:
                    ended.set()

            try:
                return trio.from_thread.run(run, trio_token=token)
            except BaseException:
                if not ended.is_set():  # interrupted here, not by the job's own error
                    with contextlib.suppress(trio.RunFinishedError):
                        trio.from_thread.run_sync(scope.cancel, trio_token=token)
                    ended.wait(INTERRUPT_WAIT)
                raise

    # ---- facts ----------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        """The driver's `Engine` (its facts: `id_name`, `options`, `games`, `pid`, ...)."""
        if self._engine is None:
            raise RuntimeError("the engine is closed")
        return self._engine

    @property
    def id(self) -> dict[str, str]:
        """The `id` lines the engine sent, as python-chess gives them (`name`, ...)."""
        engine = self.engine
        facts = {"name": engine.id_name, "author": engine.id_author, "version": engine.id_version}
        return {key: value for key, value in facts.items() if value is not None}

    @property
    def options(self) -> dict[str, Any]:
        """Declared options by name (`tei.protocol.OptionDecl`)."""
        return dict(self.engine.options)

    # ---- commands -------------------------------------------------------------------------
    def ping(self, timeout: float = 10.0) -> float:
        """`isready` -> `readyok`; the seconds it took (EngineStalled after `timeout`)."""
        return self._call(lambda engine: engine.ping(timeout))

    def configure(self, values: Mapping[str, str], *, timeout: float = 10.0) -> None:
        """Set options (`Engine.configure`: checked first, EngineOptionError)."""
        self._call(lambda engine: engine.configure(values, timeout=timeout))

    def new_game(
        self, game: str, rules: Mapping[str, str] | None = None, *, timeout: float = 10.0
    ) -> None:
        """Tell the engine a new game starts (`play` does it by itself when needed)."""
        self._call(lambda engine: engine.new_game(game, rules, timeout=timeout))

    def play(
        self,
        game: Game[Any],
        limits: Limits,
        *,
        rules: Mapping[str, str] | None = None,
        game_key: object = None,
        timeout: float | None = None,
        grace: float = 1.0,
    ) -> PlayResult:
        """The engine's checked answer for `game` (`Engine.play`). `timeout` seconds: then
        `stop` is sent and a `bestmove` within `grace` still taken, else EngineTimeout."""

        async def job(engine: Engine) -> PlayResult:
            deadline = None if timeout is None else trio.current_time() + timeout
            return await engine.play(
                game, limits, rules=rules, game_key=game_key, deadline=deadline, grace=grace
            )

        return self._call(job)

    def analyse(
        self,
        game: Game[Any],
        limits: Limits,
        *,
        rules: Mapping[str, str] | None = None,
        multipv: int | None = None,
        timeout: float | None = None,
    ) -> Any:
        """Search `game` under `limits` to their end: the last informative `Info`
        (None if the engine sent none). With `multipv=N` the engine's `MultiPV` option is
        set to N first and a list of the last `Info` of each line is returned, best first
        (EngineOptionError when the engine does not declare `MultiPV`). `timeout` seconds
        bound the whole call (EngineTimeout; the search is stopped)."""
        if limits.infinite or not _bounded(limits):
            raise ValueError("analyse: give bounded limits (depth, nodes, movetime)")
        if multipv is not None:
            if self.engine.option(MULTIPV) is None:
                raise EngineOptionError(self.engine.name, MULTIPV, "the engine has no MultiPV")
            self.configure({MULTIPV: str(multipv)})

        async def job(engine: Engine) -> list[Info]:
            lines: dict[int, Info] = {}
            await engine.prepare(game, rules)
            async with engine.analyse(game, limits) as analysis:
                async for info in analysis:
                    if informative(info):
                        lines[info.multipv or 1] = info
            return [lines[key] for key in sorted(lines)]

        found = self._call(job, timeout)
        if multipv is not None:
            return found
        return found[0] if found else None

    def analysis(
        self,
        game: Game[Any],
        limits: Limits | None = None,
        *,
        rules: Mapping[str, str] | None = None,
        timeout: float | None = None,
    ) -> SimpleAnalysis:
        """A live search (default `go infinite`) whose `Info` are iterated as they come;
        leave the `with` block (or `stop()`) to end it. `timeout` seconds: the search is
        stopped then and the iteration ends."""

        async def start(engine: Engine) -> tuple[Analysis, float | None]:
            await engine.prepare(game, rules)
            analysis = engine.analyse(game, limits)
            await analysis.start()
            return analysis, None if timeout is None else trio.current_time() + timeout

        return SimpleAnalysis(self, start)


def _bounded(limits: Limits) -> bool:
    return any(
        value is not None
        for value in (
            limits.depth,
            limits.nodes,
            limits.movetime,
            limits.wtime,
            limits.btime,
        )
    )


class SimpleAnalysis(_ClosedOnExit):
    """The iterator of `SimpleEngine.analysis`: `Info` as the engine sends them; after the
    search ended (by its limits, `stop()` or leaving the `with` block) `bestmove` holds its
    move. Any other call on the engine (from this thread or another) ends the analysis
    first, as the driver does: the iteration then ends."""

    def __init__(
        self,
        owner: SimpleEngine,
        start: Callable[[Engine], Awaitable[tuple[Analysis, float | None]]],
    ) -> None:
        """`start(engine)` starts the search: the analysis and its deadline (None: none)."""
        self._owner = owner
        self._start = start
        self._analysis: Analysis | None = None
        self._deadline: float | None = None
        self.bestmove: str | None = None
        self.last: Info | None = None

    def _begin(self) -> Analysis:
        if self._analysis is None:
            self._analysis, self._deadline = self._owner._call(self._start)
        return self._analysis

    def __iter__(self) -> Iterator[Info]:
        return self

    def __next__(self) -> Info:
        analysis = self._begin()
        if analysis.done:
            self.bestmove = analysis.bestmove
            raise StopIteration

        async def step(engine: Engine) -> Info | None:
            deadline = self._deadline if self._deadline is not None else float("inf")
            with trio.move_on_at(deadline):
                try:
                    return await analysis.__anext__()
                except StopAsyncIteration:
                    return None
            await analysis.stop()
            return None

        info = self._owner._call(step)
        if info is None:
            self.bestmove = analysis.bestmove
            raise StopIteration
        self.last = info
        return info

    def stop(self) -> str | None:
        """End the search (`stop`, then its `bestmove` is read); the best move."""
        analysis = self._analysis
        if analysis is not None and analysis.started and not analysis.done:
            with contextlib.suppress(RuntimeError):  # the engine was closed meanwhile
                self._owner._call(lambda engine: analysis.stop())
        if analysis is not None:
            self.bestmove = analysis.bestmove
        return self.bestmove

    def __enter__(self) -> SimpleAnalysis:
        self._begin()
        return self

    def close(self) -> None:
        """End the search (as `stop`); leaving the `with` block does it."""
        self.stop()
