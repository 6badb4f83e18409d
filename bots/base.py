"""The Bot interface: given a game and limits, return an action, optionally reporting info.

Bots know rules only. They run in a worker thread of the engine host; `stop` is set when
the host wants an answer now, and a bot must then return its best action promptly.
A bot never writes to stdout.
"""

from __future__ import annotations

import random
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import attrs

from rules.game import Game


@attrs.frozen
class Limits:
    """The limits of one search, as TEI `go` gives them (times in milliseconds)."""

    wtime: int | None = None
    btime: int | None = None
    winc: int | None = None
    binc: int | None = None
    movestogo: int | None = None
    depth: int | None = None
    nodes: int | None = None
    movetime: int | None = None
    infinite: bool = False

    def clock(self, seat: int) -> tuple[int | None, int]:
        """(time left, increment) of a seat: even seats read w*, odd seats b*."""
        if seat % 2 == 0:
            return self.wtime, self.winc or 0
        return self.btime, self.binc or 0

    def budget_ms(self, seat: int, moves_left: int = 20) -> float | None:
        """A simple time budget for this move, or None when only stop/depth/nodes end it."""
        if self.infinite:
            return None
        budgets: list[float] = []
        if self.movetime is not None:
            budgets.append(max(1.0, self.movetime * 0.95))
        left, inc = self.clock(seat)
        if left is not None:
            togo = self.movestogo or moves_left
            share = left / max(1, togo) + inc * 0.8
            budgets.append(max(1.0, min(share, left * 0.5)))
        return min(budgets) if budgets else None


@attrs.frozen
class Info:
    """One progress report of a search; every field optional."""

    depth: int | None = None
    seldepth: int | None = None
    score_cp: int | None = None
    #: "win" / "loss" / "draw" when the search proved the result
    solved: str | None = None
    nodes: int | None = None
    nps: int | None = None
    time_ms: int | None = None
    pv: tuple[str, ...] = ()
    string: str | None = None


@attrs.frozen
class BotOption:
    """An option a bot declares (turned into a TEI `option` line by the host)."""

    name: str
    type: str  # check | spin | combo | button | string
    default: str = ""
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()


Report = Callable[[Info], None]


class Bot(ABC):
    """A player. Subclasses set `name`, `games`, optionally `options`, and implement think."""

    name: ClassVar[str] = ""
    games: ClassVar[tuple[str, ...]] = ()
    options: ClassVar[tuple[BotOption, ...]] = ()

    def __init__(self, settings: Mapping[str, str] | None = None) -> None:
        self.settings: dict[str, str] = {o.name: o.default for o in self.options}
        for key, value in (settings or {}).items():
            self.set_option(key, value)

    def set_option(self, name: str, value: str) -> None:
        """Set a declared option (names are case-insensitive); ValueError otherwise."""
        for option in self.options:
            if option.name.lower() == name.lower():
                self.settings[option.name] = value
                return
        raise ValueError(f"bot {self.name!r} has no option {name!r}")

    def new_game(self) -> None:  # noqa: B027 - optional hook
        """Forget anything learnt in the previous game."""

    @abstractmethod
    def think(
        self,
        game: Game[Any],
        limits: Limits,
        stop: threading.Event,
        report: Report,
    ) -> Any:
        """Return a legal action of `game` (the bot may play/undo on it freely)."""


class SeededBot(Bot):
    """A bot with a `Seed` option for reproducible choices (0: a fresh seed)."""

    options: ClassVar[tuple[BotOption, ...]] = (
        BotOption("Seed", "spin", default="0", min=0, max=2**31 - 1),
    )

    def __init__(self, settings: Mapping[str, str] | None = None) -> None:
        self._rng: random.Random | None = None
        super().__init__(settings)

    def set_option(self, name: str, value: str) -> None:
        super().set_option(name, value)
        self._rng = None

    def rng(self) -> random.Random:
        """The bot's random source, made from the Seed option on first use."""
        if self._rng is None:
            seed = int(self.settings["Seed"])
            self._rng = random.Random(seed) if seed else random.Random()
        return self._rng
