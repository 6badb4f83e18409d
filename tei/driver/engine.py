"""The `Engine` handle and `open_engine`: an `EngineConnection` driven over an
`EngineProcess`. This module only moves messages; the protocol state and every decision
about what to send live in the sans-IO connection."""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Coroutine, Mapping
from contextlib import suppress
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

import trio

from rules.game import Game
from tei.driver.analysis import Analysis
from tei.driver.connection import (
    EngineConnection,
    Event,
    Handshaken,
    Ready,
    SearchEnded,
    SearchInfo,
    Violation,
    is_open_ended,
)
from tei.driver.engine_options import OptionRefused
from tei.driver.errors import (
    EngineError,
    EngineOptionError,
    EngineProtocolError,
    EngineStalled,
    EngineTerminated,
    EngineTimeout,
)
from tei.driver.limits import Limits
from tei.driver.play_result import PlayResult
from tei.driver.process import EngineProcess
from tei.game_rules import TeiSettings
from tei.protocol import (
    EngineMessage,
    Go,
    GuiMessage,
    Info,
    IsReady,
    OptionDecl,
    Position,
    SizeDecl,
)

log = logging.getLogger("tei.driver")


#: seconds a line may take to be taken in (an engine that does not read its input)
SEND_TIMEOUT = 10.0

P = ParamSpec("P")
T = TypeVar("T")


def _exclusive(
    method: Callable[Concatenate[Engine, P], Coroutine[Any, Any, T]],
) -> Callable[Concatenate[Engine, P], Coroutine[Any, Any, T]]:
    """Refuse a second task using the engine while a command runs (RuntimeError)."""

    @wraps(method)
    async def guarded(self: Engine, /, *args: P.args, **kwargs: P.kwargs) -> T:
        task = trio.lowlevel.current_task()
        owner = self._owner
        if owner is not None and owner is not task:
            raise RuntimeError(f"engine {self.name!r}: in use by another task")
        self._owner = task
        try:
            return await method(self, *args, **kwargs)
        finally:
            if owner is None:
                self._owner = None

    return guarded


class Engine:
    """A running, handshaken engine. Obtain one from `open_engine`; one caller at a time."""

    def __init__(self, process: EngineProcess[Event], connection: EngineConnection) -> None:
        self._process: EngineProcess[Event] = process
        self.connection = connection
        self.name = process.name
        self._analysis: Analysis | None = None
        self._owner: trio.lowlevel.Task | None = None

    # ---- facts -------------------------------------------------------------------------
    @property
    def id_name(self) -> str | None:
        return self.connection.id_name

    @property
    def id_author(self) -> str | None:
        return self.connection.id_author

    @property
    def id_version(self) -> str | None:
        return self.connection.id_version

    @property
    def options(self) -> dict[str, OptionDecl]:
        """Declared options by declared name."""
        return self.connection.options

    @property
    def sizes(self) -> SizeDecl | None:
        """The TEI v1 `size ... halfkomi ...` declaration, if the engine sent one."""
        return self.connection.sizes

    @property
    def handshake_lines(self) -> list[str]:
        return self.connection.handshake_lines

    @property
    def problems(self) -> list[str]:
        return self.connection.problems

    @property
    def games(self) -> frozenset[str]:
        """Games the engine plays: the values of its `Game` combo, else {"tak"}."""
        return self.connection.games

    @property
    def generation(self) -> int:
        """How many `teinewgame` were sent to this process."""
        return self.connection.generation

    @property
    def returncode(self) -> int | None:
        return self._process.process.returncode

    @property
    def pid(self) -> int:
        return self._process.process.pid

    @property
    def stderr(self) -> tuple[str, ...]:
        """The last lines the engine wrote on stderr."""
        return tuple(self._process.stderr)

    @property
    def searching(self) -> bool:
        """True while a `go` has not been answered with `bestmove`."""
        return self.connection.searching

    async def wait_exit(self, timeout: float) -> int | None:
        """Wait up to `timeout` seconds for the process to end; its exit code or None."""
        return await self._process.exit_code(timeout)

    def option(self, name: str) -> OptionDecl | None:
        """The declared option called `name` (case-insensitive), or None."""
        return self.connection.option(name)

    def value(self, name: str) -> str | None:
        """The value an option has now (declared default or last value sent)."""
        try:
            return self.connection.value(name)
        except KeyError:
            raise EngineOptionError(self.name, name) from None

    def refusal(self, game: str, rules: Mapping[str, str]) -> str | None:
        """Why this engine cannot play `game` under these rules options, or None."""
        return self.connection.refusal(game, rules)

    def option_refusal(self, name: str, value: str) -> str | None:
        """Why the option `name` cannot be set to `value`, or None."""
        return self.connection.option_refusal(name, value)

    def check_bestmove(self, game: Game[Any], line: str) -> tuple[Any, str]:
        """The action of a `bestmove` line, parsed and legality-checked once (the same check
        `play` makes); MalformedMove or IllegalMove."""
        return self.connection.check_bestmove(game, line)

    # ---- raw traffic -------------------------------------------------------------------
    async def send(self, message: GuiMessage | str) -> None:
        """Send one message (or a raw line) as it is.

        The connection counts it sent, so it is written whole even when the caller is
        cancelled meanwhile (a `go` cut off would leave the connection waiting for a
        search the engine never began); the cancellation is delivered after. An engine
        that does not take the line in within SEND_TIMEOUT seconds is EngineStalled."""
        line = message if isinstance(message, str) else message.to_line()
        self.connection.sent(message)
        with trio.CancelScope(shield=True) as scope:
            scope.deadline = trio.current_time() + SEND_TIMEOUT
            await self._process.send_line(line)
        if scope.cancelled_caught:
            stderr = self._process.stderr
            raise EngineStalled(self.name, "reading of its input", SEND_TIMEOUT, stderr)
        await trio.lowlevel.checkpoint_if_cancelled()

    async def receive_line(self, timeout: float | None = None) -> str:
        """The next line from the engine; EngineTerminated at end of output, EngineStalled
        after `timeout` seconds."""
        return (await self.next_event("a line", timeout)).line

    async def receive(self, timeout: float | None = None) -> EngineMessage:
        """The next message; EngineProtocolError for a malformed line of a known command."""
        event = await self.next_event("a line", timeout)
        if event.message is None:
            raise EngineProtocolError(self.name, event.line)
        return event.message

    async def next_event(self, waiting_for: str, timeout: float | None = None) -> Event:
        """The next event of the connection (for the driver's own parts, e.g. `Analysis`):
        EngineTerminated at end of output, EngineStalled after `timeout` seconds waiting
        for `waiting_for`."""
        if timeout is None:
            event = await self._process.receive()
        else:
            event = None
            with trio.move_on_after(timeout) as scope:
                event = await self._process.receive()
            if scope.cancelled_caught:
                raise EngineStalled(self.name, waiting_for, timeout, self._process.stderr)
        if event is None:
            raise await self._terminated(f"waiting for {waiting_for}")
        return event

    async def _terminated(self, doing: str) -> EngineTerminated:
        with trio.CancelScope(shield=True):  # bounded; an outer deadline must not
            code = await self._process.exit_code(1.0)  # turn an exit into a stall
        return EngineTerminated(
            self.name, code, doing, self._process.stderr, still_running=code is None
        )

    def _violation(self, event: Violation) -> EngineProtocolError:
        return EngineProtocolError(self.name, event.line, event.why)

    async def _drain(self) -> None:
        """Take in what already arrived; a protocol violation among it is raised."""
        await trio.lowlevel.checkpoint()
        for event in self._process.receive_ready():
            if isinstance(event, Violation):
                raise self._violation(event)

    # ---- handshake ---------------------------------------------------------------------
    async def handshake(self, timeout: float) -> None:
        """Send `tei` and read up to `teiok` (`open_engine` does it; EngineStalled)."""
        await self._process.send_line(self.connection.handshake())
        with trio.move_on_after(timeout) as scope:
            while not isinstance(await self.next_event("teiok"), Handshaken):
                pass
            return
        assert scope.cancelled_caught
        raise EngineStalled(self.name, "teiok", timeout, self._process.stderr)

    # ---- commands ----------------------------------------------------------------------
    @_exclusive
    async def ping(self, timeout: float = 10.0) -> float:
        """`isready` -> `readyok` within `timeout` (EngineStalled otherwise); returns seconds.
        A `bestmove` while no search runs is an EngineProtocolError."""
        await self._finish_analysis()
        start = trio.current_time()
        with trio.move_on_after(timeout) as scope:
            await self.send(IsReady())
            while True:
                event = await self.next_event("readyok")
                if isinstance(event, Ready):
                    return trio.current_time() - start
                if isinstance(event, Violation):
                    raise self._violation(event)
        assert scope.cancelled_caught
        raise EngineStalled(self.name, "readyok", timeout, self._process.stderr)

    @_exclusive
    async def configure(self, values: Mapping[str, str], *, timeout: float = 10.0) -> None:
        """Set options; only values that differ from the current ones are sent, then a ping.

        Every value is checked first (EngineOptionError for an undeclared option or a value
        its declaration does not allow), so nothing is sent when one is refused.
        """
        await self._finish_analysis()
        try:
            plan = self.connection.setoption_messages(values)
        except OptionRefused as exc:
            raise EngineOptionError(self.name, exc.name, exc.why) from None
        for message in plan:
            await self.send(message)
        if plan:
            await self.ping(timeout)

    @_exclusive
    async def new_game(
        self,
        game: str,
        options: Mapping[str, str] | None = None,
        *,
        game_key: object = None,
        when_needed: bool = False,
        timeout: float = 10.0,
    ) -> bool:
        """Prepare a new game: `Game` (always sent if declared), rules options that changed,
        `teinewgame`, `isready`. `game_key` (a game number, an id) tells it from the next
        game of the same rules; with `when_needed`, nothing is sent when this process was
        last told this very game (the same game, rules and, when given, `game_key`).
        Returns whether a new game was sent.

        EngineOptionError, before anything is sent, when the engine cannot play the game or
        its rules (e.g. komi without a `HalfKomi` option, a value its combo does not list).
        """
        await self._finish_analysis()
        told = self._settings(game, options or {})
        if when_needed and self.connection.was_told(told, game_key):
            return False
        await self._new_game(told, game_key, timeout)
        return True

    def _settings(self, game: Game[Any] | str, rules: Mapping[str, str] | None) -> TeiSettings:
        """What the engine is told of the game (`EngineConnection.settings_for`);
        EngineOptionError for rules it cannot be told."""
        try:
            return self.connection.settings_for(game, rules)
        except OptionRefused as exc:
            raise EngineOptionError(self.name, exc.name, exc.why) from None

    async def _new_game(self, told: TeiSettings, game_key: object, timeout: float) -> None:
        """Send the new game of `told` (OptionRefused before anything is sent)."""
        try:
            messages = self.connection.new_game_messages(told, game_key)
        except OptionRefused as exc:
            raise EngineOptionError(self.name, exc.name, exc.why) from None
        for message in messages:
            await self.send(message)
        await self.ping(timeout)

    @_exclusive
    async def prepare(
        self,
        game: Game[Any],
        rules: Mapping[str, str] | None = None,
        *,
        game_key: object = None,
        timeout: float = 10.0,
    ) -> bool:
        """Send a new game for `game` when the game, `rules` or `game_key` differ from the
        new game last told (what `play` does first; call it before `analyse`). Returns
        whether one was sent."""
        await self._finish_analysis()
        return await self._prepare(game, rules, game_key, timeout)

    async def _prepare(
        self, game: Game[Any], rules: Mapping[str, str] | None, game_key: object, timeout: float
    ) -> bool:
        told = self._settings(game, rules)
        if self.connection.was_told(told, game_key):
            return False
        await self._new_game(told, game_key, timeout)
        return True

    def position_message(self, game: Game[Any]) -> Position:
        """`position startpos|tps ... moves ...` for a game (canonical action texts)."""
        return Position(game.start_position, tuple(game.history_text()))

    def go_message(self, game: Game[Any], limits: Limits) -> Go:
        """The `go` sent for these limits (clamped to what engines can take)."""
        return self._search_messages(game, limits)[1]

    def _search_messages(self, game: Game[Any], limits: Limits) -> tuple[Position, Go]:
        position, go, clamped = self.connection.search_messages(game, limits)
        for note in clamped:
            log.warning("engine %r: %s", self.name, note)
            if self._process.transcript is not None:
                self._process.transcript.note(self.name, note)
        return position, go

    @_exclusive
    async def play(
        self,
        game: Game[Any],
        limits: Limits,
        *,
        rules: Mapping[str, str] | None = None,
        game_key: object = None,
        deadline: float | None = None,
        grace: float = 1.0,
        timeout: float = 10.0,
    ) -> PlayResult:
        """Ask for the next action of `game` and check it (play `result.action` as is).

        A new game (`teinewgame`, within `timeout`) is sent first when the game, `rules`
        or `game_key` differ from the new game last told (`EngineConnection.needs_new_game`:
        a copy of the `Game` with the same key continues the same game).
        `deadline` is an absolute `trio.current_time()`; when it passes, `stop` is sent and
        a `bestmove` within `grace` seconds is still taken (the caller judges the time from
        `elapsed`); after that EngineTimeout. An open-ended search (`go infinite`, or limits
        with no field) needs a deadline. Errors: EngineTerminated, EngineTimeout,
        MalformedMove, IllegalMove, EngineProtocolError (e.g. a `bestmove` while no search
        ran).
        """
        await self._finish_analysis()
        if game.result is not None:
            raise ValueError("play: the game is already over")
        if game.name and game.name not in self.games:
            raise EngineOptionError(self.name, "Game", f"the engine does not play {game.name}")
        await self._drain()
        await self._prepare(game, rules, game_key, timeout)
        await self.send_stop()  # a search left running: its bestmove will be skipped
        position, go = self._search_messages(game, limits)
        if deadline is None and is_open_ended(go):
            raise ValueError(f"play: {go.to_line()!r} only ends with stop; give a deadline")
        infos: list[Info] = []
        start = trio.current_time()
        found: SearchEnded | None = None
        try:
            with trio.CancelScope(deadline=math.inf if deadline is None else deadline):
                await self.send(position)
                start = trio.current_time()
                await self.send(go)
                found = await self._await_bestmove(infos)
            if found is None and self.searching:
                await self.send_stop()
                with trio.move_on_after(grace):
                    found = await self._await_bestmove(infos)
        except trio.Cancelled:
            await self._stop_quietly()
            raise
        except EngineProtocolError:
            await self._stop_quietly()
            raise
        elapsed = trio.current_time() - start
        if found is None:
            waited = (deadline if deadline is not None else start) - start
            raise EngineTimeout(self.name, max(0.0, waited), grace, self._process.stderr)
        action, text = self.check_bestmove(game, found.line)
        return PlayResult.of(action, text, infos, elapsed, found.line)

    async def _await_bestmove(self, infos: list[Info]) -> SearchEnded:
        """Read until the bestmove of the current search (those of abandoned ones are
        skipped); EngineProtocolError on a violation."""
        while True:
            event = await self.next_event("bestmove")
            if isinstance(event, SearchInfo):
                if event.current and isinstance(event.message, Info):
                    infos.append(event.message)
            elif isinstance(event, SearchEnded):
                if event.current:
                    return event
                infos.clear()  # the end of an abandoned search: its infos are not ours
            elif isinstance(event, Violation):
                raise self._violation(event)

    async def send_stop(self) -> None:
        """`stop`, if a search runs that was not told to stop yet."""
        stop = self.connection.stop_message()
        if stop is not None:
            await self.send(stop)

    async def _stop_quietly(self) -> None:
        """Best effort `stop` when the caller gave up on a search (shielded, short)."""
        with trio.move_on_after(0.5) as scope:
            scope.shield = True
            with suppress(EngineError):
                await self.send_stop()

    def analyse(self, game: Game[Any], limits: Limits | None = None) -> Analysis:
        """Stream `info` of a search (default `go infinite`) until `stop` or its end.

        Use as `async with engine.analyse(game) as infos: async for info in infos: ...`;
        leaving the block sends `stop` and reads the `bestmove`. Iterating without the
        block also works: the next command on the engine ends the analysis first.
        """
        position, go = self._search_messages(game, limits or Limits(infinite=True))
        analysis = Analysis(self, position, go)
        self._analysis = analysis
        return analysis

    def release(self, analysis: Analysis) -> None:
        """Forget `analysis` as the running one (its block was left): the next command
        does not stop it."""
        if self._analysis is analysis:
            self._analysis = None

    async def _finish_analysis(self) -> None:
        analysis, self._analysis = self._analysis, None
        if analysis is not None and analysis.started and not analysis.done:
            await analysis.stop()
