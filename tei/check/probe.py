"""The session helpers of the compliance checker: one engine, its transcript, and careful
reading with deadlines (every failure becomes a `CheckFailed` naming what was missing)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import attrs
import trio

from rules.game import Game, GameError
from rules.registry import new_game
from tei.driver import Engine, EngineError, EngineTerminated, IllegalMove, MalformedMove
from tei.errors import TeiError
from tei.protocol import EngineMessage, Info, IsReady, ReadyOk, parse_engine_line
from tei.transcript import Transcript

Line = tuple[str, EngineMessage | None]


class CheckFailed(TeiError):
    """A check did not pass; the message says what was expected and what came."""


def parse(line: str) -> EngineMessage | None:
    try:
        return parse_engine_line(line)
    except ValueError:
        return None


def is_bestmove(line: str) -> bool:
    return line.split()[:1] == ["bestmove"]


@attrs.define
class Probe:
    """What a check works with: the engine, the game setup and the time limits."""

    engine: Engine
    transcript: Transcript
    game: str
    rules: Mapping[str, str]
    timeout: float
    #: set once `new_game` went through for this engine process
    prepared: bool = False
    #: set by a check that leaves the engine in an unknown state
    dirty: bool = False
    #: (position searched, info line, its pv) of every search, shared across engine restarts
    pvs: list[tuple[Game[Any], str, tuple[str, ...]]] = attrs.Factory(list)

    # ---- reading -----------------------------------------------------------------------
    async def collect(
        self, done: Callable[[str, EngineMessage | None], bool], what: str, seconds: float
    ) -> list[Line]:
        """Lines up to and including the first for which `done` is true."""
        lines: list[Line] = []
        with trio.move_on_after(seconds):
            while True:
                line = await self._line(what)
                message = parse(line)
                lines.append((line, message))
                if done(line, message):
                    return lines
        self.dirty = True
        raise CheckFailed(f"no {what} within {seconds:.3g} s")

    async def quiet(self, seconds: float) -> list[Line]:
        """Whatever the engine writes within `seconds` (nothing expected)."""
        lines: list[Line] = []
        with trio.move_on_after(seconds):
            while True:
                line = await self._line("the search to go on")
                lines.append((line, parse(line)))
        return lines

    async def _line(self, what: str) -> str:
        try:
            return await self.engine.receive_line()
        except EngineTerminated as exc:
            self.dirty = True
            if exc.still_running:
                raise CheckFailed(
                    f"engine closed its output while waiting for {what} (it still runs)"
                ) from None
            raise CheckFailed(
                f"engine terminated while waiting for {what} (exit code {exc.exit_code})"
            ) from None

    async def send(self, line: str) -> None:
        try:
            await self.engine.send(line)
        except EngineError as exc:
            self.dirty = True
            raise CheckFailed(f"could not send {line!r}: {exc}") from None

    async def sync(self, what: str = "readyok") -> list[Line]:
        """isready -> readyok; fails if a `bestmove` comes in between."""
        await self.send(IsReady().to_line())
        lines = await self.collect(lambda _, m: isinstance(m, ReadyOk), what, self.timeout)
        extra = [line for line, _ in lines if is_bestmove(line)]
        if extra:
            self.dirty = True
            raise CheckFailed(f"unexpected {extra[0]!r} (no search was running)")
        return lines

    # ---- games and searches ------------------------------------------------------------
    def fresh_game(self, rules: Mapping[str, str] | None = None) -> Game[Any]:
        return new_game(self.game, dict(self.rules if rules is None else rules))

    async def prepare(self, rules: Mapping[str, str] | None = None) -> None:
        """`new_game` through the driver (Game, options, teinewgame, isready)."""
        try:
            await self.engine.new_game(
                self.game, dict(self.rules if rules is None else rules), timeout=self.timeout
            )
        except EngineError as exc:
            self.dirty = True
            raise CheckFailed(f"new game failed: {exc}") from None
        self.prepared = True

    async def ready(self) -> None:
        if not self.prepared:
            await self.prepare()

    async def search(self, game: Game[Any], go: str, seconds: float) -> tuple[str, list[Line]]:
        """Send the position and `go`, read to the bestmove, check it and that no second one
        follows; returns (move text, lines read)."""
        await self.send(self.engine.position_message(game).to_line())
        await self.send(go)
        lines = await self.collect(lambda line, _: is_bestmove(line), "bestmove", seconds)
        self.note_pvs(game, lines)
        move = self.check_bestmove(game, lines[-1][0])
        await self.sync("readyok after bestmove")
        return move, lines

    def note_pvs(self, game: Game[Any], lines: list[Line]) -> None:
        """Keep the pv of each info line read during a search of `game` (judged later)."""
        for line, message in lines:
            if isinstance(message, Info) and message.pv:
                self.pvs.append((game.copy(), line, message.pv))

    def check_bestmove(self, game: Game[Any], line: str) -> str:
        """The move of a `bestmove` line, checked by the driver's one bestmove check."""
        try:
            return str(self.engine.check_bestmove(game, line)[1])
        except (IllegalMove, MalformedMove) as exc:
            raise CheckFailed(str(exc)) from None


def played_out(game: Game[Any], plies: int, seed: int = 7) -> Game[Any]:
    """`game` after up to `plies` random legal actions (fewer if it ends)."""
    rng = random.Random(seed)
    for _ in range(plies):
        actions = game.legal()
        if game.result is not None or not actions:
            break
        game.play(rng.choice(actions))
    return game


def second_seat_game(game: Game[Any], seed: int = 11) -> Game[Any]:
    """A position (reached by random legal actions) where a seat other than 0 acts."""
    rng = random.Random(seed)
    for _ in range(60):
        if game.turn != 0 and game.ply >= 3 and game.result is None:
            return game
        actions = game.legal()
        if not actions:
            break
        game.play(rng.choice(actions))
    if game.turn == 0 or game.result is not None:
        raise CheckFailed("could not reach a position with another seat to act")
    return game


def pv_problems(pvs: list[tuple[Game[Any], str, tuple[str, ...]]]) -> list[str]:
    """For each pv that cannot be played from its position: the info line and why."""
    problems = []
    for game, line, pv in pvs:
        board = game.copy()
        for text in pv:
            if board.result is not None:
                break
            try:
                board.play_text(text)
            except GameError as exc:
                problems.append(f"{line!r}: {text!r} cannot be played ({exc})")
                break
    return problems
