"""Start and control any TEI engine process from trio.

    async with open_engine(["tiltak"], transcript=Transcript(sys.stderr)) as engine:
        await engine.new_game("tak", {"size": "6", "halfkomi": "4"})
        result = await engine.play(game, Limits(wtime=60000, btime=60000),
                                   deadline=trio.current_time() + 61)

The engine runs in its own process group; `open_engine` shakes hands (`tei` ... `teiok`)
within a deadline and on exit sends `quit`, waits, then terminates and kills the group,
also when the caller is cancelled or an error flies. Each engine is sent only what it
understands: options it declared, `Game` only if declared, minimal PTN, `go` with the
fields the caller's limits set. Failures raise distinct `EngineError` subclasses.
See docs/driver.md.
"""

from __future__ import annotations

import math
import os
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager, suppress
from functools import wraps
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import attrs
import trio

from bots.base import Limits
from rules.game import Game, GameError, IllegalAction
from tei.driver_analysis import Analysis
from tei.driver_errors import (
    EngineError,
    EngineOptionError,
    EngineProtocolError,
    EngineStalled,
    EngineTerminated,
    EngineTimeout,
    IllegalMove,
    MalformedMove,
)
from tei.driver_options import (
    OptionRefused,
    build_go,
    declared_games,
    find_option,
    initial_value,
    is_open_ended,
    normalize_value,
    plan_new_game,
)
from tei.driver_process import EngineProcess
from tei.protocol import (
    BestMove,
    EngineMessage,
    Go,
    GuiMessage,
    Id,
    Info,
    IsReady,
    OptionDecl,
    Position,
    ProtocolError,
    ReadyOk,
    SetOption,
    SizeDecl,
    Stop,
    TeiOk,
    parse_engine_line,
)
from tei.transcript import Transcript

__all__ = [
    "Analysis",
    "Engine",
    "EngineError",
    "EngineOptionError",
    "EngineProtocolError",
    "EngineStalled",
    "EngineTerminated",
    "EngineTimeout",
    "IllegalMove",
    "Limits",
    "MalformedMove",
    "PlayResult",
    "Transcript",
    "open_engine",
]


@attrs.frozen
class PlayResult:
    """The answer to one `play`: the checked action and its text, the last informative
    `info` (one with a score, depth or pv; else the last one), all infos, and the seconds
    from sending `go` to reading `bestmove`."""

    action: Any
    text: str
    info: Info | None
    infos: tuple[Info, ...]
    elapsed: float
    #: the `bestmove` line as the engine wrote it
    line: str = ""


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


def _informative(info: Info) -> bool:
    return info.score is not None or info.depth is not None or bool(info.pv)


class Engine:
    """A running, handshaken engine. Obtain one from `open_engine`; one caller at a time."""

    def __init__(self, process: EngineProcess) -> None:
        self._process = process
        self.name = process.name
        self.id_name: str | None = None
        self.id_author: str | None = None
        self.id_version: str | None = None
        #: declared options by declared name
        self.options: dict[str, OptionDecl] = {}
        #: TEI v1 `size ... halfkomi ...` declaration, if the engine sent one
        self.sizes: SizeDecl | None = None
        #: every line of the handshake, and lines that did not parse (and, once per word,
        #: the unknown or malformed `info` fields that were skipped)
        self.handshake_lines: list[str] = []
        self.problems: list[str] = []
        self._skipped_words: set[str] = set()
        self._values: dict[str, str | None] = {}
        self._open_searches = 0
        self._analysis: Analysis | None = None
        self._owner: trio.lowlevel.Task | None = None

    # ---- facts -------------------------------------------------------------------------
    @property
    def games(self) -> frozenset[str]:
        """Games the engine plays: the values of its `Game` combo, else {"tak"}."""
        return declared_games(self.options)

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def stderr(self) -> tuple[str, ...]:
        """The last lines the engine wrote on stderr."""
        return tuple(self._process.stderr)

    @property
    def searching(self) -> bool:
        """True while a `go` has not been answered with `bestmove`."""
        return self._open_searches > 0

    async def wait_exit(self, timeout: float) -> int | None:
        """Wait up to `timeout` seconds for the process to end; its exit code or None."""
        return await self._process.exit_code(timeout)

    def value(self, name: str) -> str | None:
        """The value an option has now (declared default or last value sent)."""
        decl = find_option(self.options, name)
        if decl is None:
            raise EngineOptionError(self.name, name)
        return self._values.get(decl.name)

    # ---- raw traffic -------------------------------------------------------------------
    async def send(self, message: GuiMessage | str) -> None:
        """Send one message (or a raw line) as it is."""
        line = message if isinstance(message, str) else message.to_line()
        if isinstance(message, Go) or line.strip().split()[:1] == ["go"]:
            self._open_searches += 1
        await self._process.send_line(line)

    async def receive_line(self, timeout: float | None = None) -> str:
        """The next line from the engine; EngineTerminated at end of output, EngineStalled
        after `timeout` seconds."""
        line, _ = await self._next("a line", timeout)
        return line

    async def receive(self, timeout: float | None = None) -> EngineMessage:
        """The next message; EngineProtocolError for a malformed line of a known command."""
        line, message = await self._next("a line", timeout)
        if message is None:
            raise EngineProtocolError(self.name, line)
        return message

    async def _next(
        self, waiting_for: str, timeout: float | None = None
    ) -> tuple[str, EngineMessage | None]:
        if timeout is None:
            line = await self._process.receive_line()
        else:
            line = None
            with trio.move_on_after(timeout) as scope:
                line = await self._process.receive_line()
            if scope.cancelled_caught:
                raise EngineStalled(self.name, waiting_for, timeout, self._process.stderr)
        if line is None:
            with trio.CancelScope(shield=True):  # bounded; an outer deadline must not
                code = await self._process.exit_code(1.0)  # turn an exit into a stall
            raise EngineTerminated(
                self.name, code, f"waiting for {waiting_for}", self._process.stderr
            )
        try:
            message: EngineMessage | None = parse_engine_line(line)
        except ProtocolError as exc:
            self.problems.append(f"{exc}")
            if line.split()[:1] == ["bestmove"]:
                self._open_searches = max(0, self._open_searches - 1)
            return line, None
        if isinstance(message, BestMove):
            self._open_searches = max(0, self._open_searches - 1)
        elif isinstance(message, Info) and message.skipped:
            self._log_skipped(line, message.skipped)
        elif isinstance(message, OptionDecl):
            self._declare(message)
        elif isinstance(message, SizeDecl):
            self._declare_sizes(message)
        return line, message

    def _log_skipped(self, line: str, skipped: tuple[str, ...]) -> None:
        """Unknown or malformed info fields are skipped; each new word is logged once (as a
        problem, and as a note in the transcript)."""
        words = [w for w in skipped if not w.lstrip("-").isdigit()]
        new = [w for w in dict.fromkeys(words) if w not in self._skipped_words]
        if not new:
            return
        self._skipped_words.update(new)
        text = f"info: skipped {', '.join(map(repr, new))} in {line!r}"
        self.problems.append(text)
        transcript = self._process.transcript
        if transcript is not None:
            transcript.note(self.name, text)

    def _declare(self, decl: OptionDecl) -> None:
        if decl.name not in self.options:
            self._values[decl.name] = initial_value(decl)
        self.options[decl.name] = decl

    def _declare_sizes(self, decl: SizeDecl) -> None:
        if self.sizes is None:
            self.sizes = decl
        else:
            self.sizes = SizeDecl(
                tuple(sorted({*self.sizes.sizes, *decl.sizes})),
                tuple(sorted({*self.sizes.halfkomis, *decl.halfkomis})),
            )

    # ---- handshake ---------------------------------------------------------------------
    async def _handshake(self, timeout: float) -> None:
        await self._process.send_line("tei")
        with trio.move_on_after(timeout) as scope:
            while True:
                line, message = await self._next("teiok")
                self.handshake_lines.append(line)
                if isinstance(message, Id):
                    key = message.key.lower()
                    if key == "name":
                        self.id_name = message.value
                    elif key == "author":
                        self.id_author = message.value
                    elif key == "version":
                        self.id_version = message.value
                elif isinstance(message, TeiOk):
                    return
        if scope.cancelled_caught:
            raise EngineStalled(self.name, "teiok", timeout, self._process.stderr)

    # ---- commands ----------------------------------------------------------------------
    @_exclusive
    async def ping(self, timeout: float = 10.0) -> float:
        """`isready` -> `readyok` within `timeout` (EngineStalled otherwise); returns seconds."""
        await self._finish_analysis()
        start = trio.current_time()
        with trio.move_on_after(timeout) as scope:
            await self.send(IsReady())
            while True:
                _, message = await self._next("readyok")
                if isinstance(message, ReadyOk):
                    return trio.current_time() - start
        assert scope.cancelled_caught
        raise EngineStalled(self.name, "readyok", timeout, self._process.stderr)

    @_exclusive
    async def configure(self, values: Mapping[str, str], *, timeout: float = 10.0) -> None:
        """Set options; only values that differ from the current ones are sent, then a ping.

        Every value is checked first (EngineOptionError for an undeclared option or a value
        its declaration does not allow), so nothing is sent when one is refused.
        """
        await self._finish_analysis()
        plan: list[SetOption] = []
        for name, value in values.items():
            decl = find_option(self.options, name)
            if decl is None:
                raise EngineOptionError(self.name, name)
            try:
                text = normalize_value(decl, value)
            except OptionRefused as exc:
                raise EngineOptionError(self.name, decl.name, exc.why) from None
            if text is not None and self._values.get(decl.name) == text:
                continue
            plan.append(SetOption(decl.name, text))
        for message in plan:
            await self.send(message)
            if message.value is not None:
                self._values[message.name] = message.value
        if plan:
            await self.ping(timeout)

    @_exclusive
    async def new_game(
        self, game: str, options: Mapping[str, str] | None = None, *, timeout: float = 10.0
    ) -> None:
        """Prepare a new game: `Game` (always sent if declared), rules options that changed,
        `teinewgame`, `isready`.

        EngineOptionError, before anything is sent, when the engine cannot play the game or
        its rules (e.g. komi without a `HalfKomi` option, a value its combo does not list).
        """
        try:
            plan = plan_new_game(game, options or {}, self.options, self.sizes)
        except OptionRefused as exc:
            raise EngineOptionError(self.name, exc.name, exc.why) from None
        settings = dict(plan.settings)
        game_decl = find_option(self.options, "Game")
        if game_decl is not None:
            # always selected, even when it seems unchanged: the game is the one thing a
            # multi-game engine must never guess
            value = settings.pop(game_decl.name)
            await self._finish_analysis()
            await self.send(SetOption(game_decl.name, value))
            self._values[game_decl.name] = value
        await self.configure(settings, timeout=timeout)
        await self.send(plan.teinewgame)
        await self.ping(timeout)

    def position_message(self, game: Game[Any]) -> Position:
        """`position startpos|tps ... moves ...` for a game (canonical action texts)."""
        return Position(game.start_position, tuple(game.history_text()))

    def go_message(self, game: Game[Any], limits: Limits) -> Go:
        return build_go(limits, game.turn, game.players)

    @_exclusive
    async def play(
        self,
        game: Game[Any],
        limits: Limits,
        *,
        deadline: float | None = None,
        grace: float = 1.0,
    ) -> PlayResult:
        """Ask for the next action of `game` and check it.

        `deadline` is an absolute `trio.current_time()`; when it passes, `stop` is sent and
        a `bestmove` within `grace` seconds is still taken (the caller judges the time from
        `elapsed`); after that EngineTimeout. An open-ended search (`go infinite`, or limits
        with no field) needs a deadline. Errors: EngineTerminated, EngineTimeout,
        MalformedMove, IllegalMove.
        """
        await self._finish_analysis()
        if game.result is not None:
            raise ValueError("play: the game is already over")
        if game.name and game.name not in self.games:
            raise EngineOptionError(self.name, "Game", f"the engine does not play {game.name}")
        go = self.go_message(game, limits)
        if deadline is None and is_open_ended(go):
            raise ValueError(f"play: {go.to_line()!r} only ends with stop; give a deadline")
        infos: list[Info] = []
        start = trio.current_time()
        found: tuple[str, BestMove | None] | None = None
        try:
            with trio.CancelScope(deadline=math.inf if deadline is None else deadline):
                await self.send(self.position_message(game))
                start = trio.current_time()
                await self.send(go)
                found = await self._await_bestmove(infos)
            if found is None and self.searching:
                await self.send(Stop())
                with trio.move_on_after(grace):
                    found = await self._await_bestmove(infos)
        except trio.Cancelled:
            await self._stop_quietly()
            raise
        elapsed = trio.current_time() - start
        if found is None:
            waited = (deadline if deadline is not None else start) - start
            raise EngineTimeout(self.name, max(0.0, waited), grace, self._process.stderr)
        line, best = found
        action, text = self._check_move(game, line, best)
        informative = [i for i in infos if _informative(i)]
        last = informative[-1] if informative else (infos[-1] if infos else None)
        return PlayResult(action, text, last, tuple(infos), elapsed, line)

    async def _await_bestmove(self, infos: list[Info]) -> tuple[str, BestMove | None]:
        """Read until the bestmove of the current search (stale ones are skipped)."""
        while True:
            line, message = await self._next("bestmove")
            if isinstance(message, Info):
                infos.append(message)
            elif isinstance(message, BestMove) or (
                message is None and line.split()[:1] == ["bestmove"]
            ):
                if not self.searching:
                    return line, message if isinstance(message, BestMove) else None
                infos.clear()  # the end of an abandoned search: its infos are not ours

    def _check_move(self, game: Game[Any], line: str, best: BestMove | None) -> tuple[Any, str]:
        if best is None:
            raise MalformedMove(self.name, line, "no move on the bestmove line")
        if best.move is None:
            raise IllegalMove(self.name, line, "no move given but the game is not over")
        try:
            action = game.parse_action(best.move)
        except IllegalAction as exc:
            raise IllegalMove(self.name, line, str(exc)) from None
        except GameError as exc:
            raise MalformedMove(self.name, line, str(exc)) from None
        if action not in game.legal():
            raise IllegalMove(self.name, line, "not among the legal actions")
        return action, best.move

    async def _stop_quietly(self) -> None:
        """Best effort `stop` when the caller gave up on a search (shielded, short)."""
        if not self.searching:
            return
        with trio.move_on_after(0.5) as scope:
            scope.shield = True
            with suppress(EngineError):
                await self.send(Stop())

    def analyse(self, game: Game[Any], limits: Limits | None = None) -> Analysis:
        """Stream `info` of a search (default `go infinite`) until `stop` or its end.

        Use as `async with engine.analyse(game) as infos: async for info in infos: ...`;
        leaving the block sends `stop` and reads the `bestmove`. Iterating without the
        block also works: the next command on the engine ends the analysis first.
        """
        analysis = Analysis(self, game, limits or Limits(infinite=True))
        self._analysis = analysis
        return analysis

    async def _finish_analysis(self) -> None:
        analysis, self._analysis = self._analysis, None
        if analysis is not None and analysis.started and not analysis.done:
            await analysis.stop()


def _default_name(argv: Sequence[str]) -> str:
    """The program's base name; for `python -m mod ...` or `python script.py` the module
    or script name."""
    base = os.path.basename(argv[0])
    if base.startswith("python") and len(argv) > 1:
        if argv[1] == "-m" and len(argv) > 2:
            return argv[2]
        if not argv[1].startswith("-"):
            return Path(argv[1]).stem
    return base or "engine"


@asynccontextmanager
async def open_engine(
    argv: Sequence[str],
    *,
    name: str | None = None,
    cwd: str | Path | None = None,
    env: Mapping[str, str] | None = None,
    transcript: Transcript | None = None,
    handshake_timeout: float = 10.0,
    stderr_lines: int = 200,
    quit_grace: float = 1.0,
    term_grace: float = 1.0,
) -> AsyncIterator[Engine]:
    """Start an engine, shake hands, yield the `Engine`; on exit shut it down for good.

    Raises EngineTerminated (it could not start or exited), EngineStalled (no `teiok`
    within `handshake_timeout`). The shutdown (quit, `quit_grace`, SIGTERM to the process
    group, `term_grace`, SIGKILL) runs whatever happens, shielded from cancellation.
    """
    if not argv:
        raise ValueError("open_engine: empty command")
    label = name or _default_name(argv)
    error: BaseException | None = None
    async with trio.open_nursery() as nursery:
        process: EngineProcess | None = None
        try:
            process = await EngineProcess.start(
                nursery,
                argv,
                name=label,
                cwd=cwd,
                env=env,
                transcript=transcript,
                stderr_lines=stderr_lines,
            )
            engine = Engine(process)
            await engine._handshake(handshake_timeout)
            yield engine
        except BaseException as exc:  # re-raised below, outside the nursery
            error = exc
        finally:
            if process is not None:
                await process.shutdown("quit", quit_grace, term_grace)
            nursery.cancel_scope.cancel()
    if error is not None:
        raise error
