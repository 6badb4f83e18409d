"""One engine seat: the engine process that answers for one player, however it is used.

The referee, the playtak bridge and the checker all hold engines the same way: start the
process on demand (with its options), tell it about a new game once per game and per
process, ask it for a move under limits, and when anything goes wrong classify the
failure once (`Fault`: time forfeit, stalled, crashed, illegal, malformed) and know
whether the process must be replaced. `EngineSeat` is that, written once.

The process lives in a task of the nursery the seat is given, so seats can be closed and
restarted in any order; `generation` counts the processes started.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

import attrs
import trio

from rules.game import Game, clock_side
from tei.driver import Engine, Limits, PlayResult, Transcript, open_engine
from tei.driver.errors import (
    EngineError,
    EngineProtocolError,
    EngineStalled,
    EngineTerminated,
    EngineTimeout,
    IllegalMove,
    MalformedMove,
)
from tei.errors import TeiError


class FaultKind(enum.Enum):
    """What went wrong with an engine; the value is the record's termination word."""

    TIME_FORFEIT = "time forfeit"
    STALLED = "stalled"
    CRASHED = "crashed"
    ILLEGAL = "illegal move"
    MALFORMED = "malformed output"
    #: an engine host said its bot raised or returned a bad action (a stand-in answer)
    BOT_ERROR = "bot error"


class SeatFault(TeiError):
    """An engine failed while holding a seat: its fault kind, whether the process must be
    replaced, and the driver's error (`cause`) that says what happened."""

    def __init__(self, label: str, kind: FaultKind, restart: bool, cause: BaseException) -> None:
        super().__init__(f"{label}: {kind.value}: {cause}")
        self.label = label
        self.kind = kind
        self.restart = restart
        self.cause = cause


@attrs.frozen
class Fault:
    """A fault kind and whether the engine process must be replaced."""

    kind: FaultKind
    restart: bool


class SeatUnavailable(SeatFault):
    """The engine could not be started (`start_attempts` times in a row)."""


def classify(exc: BaseException, *, timed: bool = True, starting: bool = False) -> Fault:
    """The fault of a driver error (or OSError): its kind and whether to restart.

    `timed`: the move had a clock (a timeout is then a time forfeit, else a stall).
    `starting`: the error came while starting or preparing a game (no move was asked).
    """
    if isinstance(exc, EngineTimeout):
        return Fault(FaultKind.TIME_FORFEIT if timed else FaultKind.STALLED, True)
    if isinstance(exc, EngineStalled):
        return Fault(FaultKind.STALLED, True)
    if isinstance(exc, EngineTerminated | OSError):
        return Fault(FaultKind.CRASHED, True)
    if isinstance(exc, IllegalMove):
        return Fault(FaultKind.ILLEGAL, False)
    if isinstance(exc, MalformedMove | EngineProtocolError):
        return Fault(FaultKind.MALFORMED, starting)
    return Fault(FaultKind.MALFORMED if starting else FaultKind.CRASHED, True)


@attrs.frozen
class Launch:
    """How to start an engine: its command line, working folder, name and TEI options."""

    argv: tuple[str, ...]
    name: str | None = None
    cwd: str | None = None
    options: tuple[tuple[str, str], ...] = ()


def _sorted_pairs(
    rules: Mapping[str, str] | Iterable[tuple[str, str]],
) -> tuple[tuple[str, str], ...]:
    items = rules.items() if isinstance(rules, Mapping) else rules
    return tuple(sorted(items))


@attrs.frozen
class NewGame:
    """The game an engine must be told about before its next move: the game's name, its
    rules options, and a key that differs for every new game (a game number, an id)."""

    game: str
    rules: tuple[tuple[str, str], ...] = attrs.field(converter=_sorted_pairs)
    key: object = None


def seat_limits(
    seat: int,
    own: tuple[int, int] | None,
    other: tuple[int, int] | None = None,
    *,
    movetime: int | None = None,
    nodes: int | None = None,
    depth: int | None = None,
) -> Limits:
    """`go` limits for the engine in `seat` from clocks as (time left ms, increment ms).

    The mover's clock goes in the w/b slot of its seat's parity (seat 0 = wtime), the
    other slot holds `other` (the opponent's clock, or the mover's own when None). No
    `own` clock: no clock fields.
    """
    times: dict[str, int | None] = {}
    if own is not None:
        theirs = other if other is not None else own
        mine_slot, other_slot = clock_side(seat), clock_side(seat + 1)
        times[f"{mine_slot}time"], times[f"{mine_slot}inc"] = own
        times[f"{other_slot}time"], times[f"{other_slot}inc"] = theirs
    return Limits(
        wtime=times.get("wtime"),
        btime=times.get("btime"),
        winc=times.get("winc"),
        binc=times.get("binc"),
        movetime=movetime,
        nodes=nodes,
        depth=depth,
    )


class EngineSeat:
    """One engine process for one player; opened on demand, replaced after a fault."""

    def __init__(
        self,
        launch: Launch,
        *,
        nursery: trio.Nursery,
        label: str | None = None,
        transcript: Transcript | None = None,
        timeout: float = 10.0,
        start_attempts: int = 1,
    ) -> None:
        self.launch = launch
        self.label = label or launch.name or (launch.argv[0] if launch.argv else "engine")
        self.transcript = transcript
        self.timeout = timeout
        self.start_attempts = max(1, start_attempts)
        self.engine: Engine | None = None
        #: processes started so far
        self.generation = 0
        self._nursery = nursery
        self._close: trio.Event | None = None
        self._closed: trio.Event | None = None
        self._lock = trio.Lock()

    # ---- the process -------------------------------------------------------------------
    async def _host(self, close: trio.Event, closed: trio.Event, task_status: Any) -> None:
        started = False
        try:
            async with open_engine(
                self.launch.argv,
                name=self.label,
                cwd=self.launch.cwd,
                transcript=self.transcript,
                handshake_timeout=self.timeout,
            ) as engine:
                task_status.started(engine)
                started = True
                await close.wait()
        except Exception:
            if not started:
                raise  # nursery.start re-raises it in _start()
            # a failure while shutting down a started engine changes nothing for its user
        finally:
            closed.set()

    async def _start(self) -> Engine:
        close, closed = trio.Event(), trio.Event()
        engine: Engine = await self._nursery.start(self._host, close, closed)
        self.engine, self._close, self._closed = engine, close, closed
        self.generation += 1
        if self.launch.options:
            try:
                await engine.configure(dict(self.launch.options), timeout=self.timeout)
            except BaseException:
                await self.close()
                raise
        return engine

    async def open(self) -> Engine:
        """The running engine, started (and configured) if needed; after
        `start_attempts` failed starts in a row, SeatUnavailable (crashed or stalled)."""
        if self.engine is not None:
            return self.engine
        for attempt in range(1, self.start_attempts + 1):
            try:
                return await self._start()
            except (EngineError, OSError) as exc:
                if attempt == self.start_attempts:
                    fault = classify(exc, starting=True)
                    raise SeatUnavailable(self.label, fault.kind, True, exc) from exc
                await trio.sleep(0.5 * attempt)
        raise AssertionError("unreachable")

    async def close(self) -> None:
        """Shut the process down (quit, terminate, kill) and wait for it; safe to repeat."""
        close, closed = self._close, self._closed
        self.engine, self._close, self._closed = None, None, None
        if close is not None and closed is not None:
            close.set()
            with trio.CancelScope(shield=True):
                await closed.wait()

    async def restart(self) -> Engine:
        """Replace the process by a fresh one."""
        await self.close()
        return await self.open()

    # ---- games and moves ---------------------------------------------------------------
    async def prepare(self, new: NewGame) -> Engine:
        """Open the engine and tell it about `new` unless this process already knows it
        (the driver keeps track; one caller at a time). SeatFault when that fails."""
        async with self._lock:
            engine = await self.open()
            try:
                await engine.new_game(
                    new.game,
                    dict(new.rules),
                    game_key=new.key,
                    when_needed=True,
                    timeout=self.timeout,
                )
            except (EngineError, OSError) as exc:
                fault = classify(exc, starting=True)
                raise SeatFault(self.label, fault.kind, fault.restart, exc) from exc
            return engine

    async def move(
        self,
        game: Game[Any],
        limits: Limits,
        new: NewGame,
        *,
        deadline: float | None,
        grace: float,
        timed: bool = True,
    ) -> PlayResult:
        """The engine's checked answer for `game` (its `action` is legal there): the
        new game is sent first when this process has not been told about it. Every
        failure comes as SeatFault."""
        engine = await self.prepare(new)
        try:
            return await engine.play(game, limits, game_key=new.key, deadline=deadline, grace=grace)
        except (EngineError, OSError) as exc:
            fault = classify(exc, timed=timed)
            raise SeatFault(self.label, fault.kind, fault.restart, exc) from exc

    async def ponder(self, game: Game[Any], new: NewGame, *, grace: float = 2.0) -> None:
        """Search `game` with `go infinite` until cancelled (or until the engine ends the
        search itself); then `stop` and read its `bestmove`, which is discarded (shielded,
        at most `grace` seconds). Standard TEI only: the engine keeps what it learnt for
        its next move in the same game. Every failure comes as SeatFault."""
        engine = await self.prepare(new)
        try:
            analysis = engine.analyse(game)
            try:
                async for _ in analysis:
                    pass
            finally:
                with trio.CancelScope(shield=True):
                    await analysis.stop(grace)
        except (EngineError, OSError) as exc:
            fault = classify(exc, timed=False)
            raise SeatFault(self.label, fault.kind, fault.restart, exc) from exc
