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

from bots.limits import Info, Limits
from rules.game import Game

__all__ = ["Bot", "BotOption", "Info", "Limits", "Report", "SeededBot"]


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


#: the option of each searching bot: how long it thinks (ms) when `go` gives no limit
DEFAULT_MS = BotOption("DefaultMs", "spin", default="1000", min=1, max=3_600_000)


class SearchBot(Bot):
    """A searching bot (`name` "search"); it thinks `DefaultMs` when `go` gives no limit
    at all (`bots.timing.plan`)."""

    name: ClassVar[str] = "search"
    options: ClassVar[tuple[BotOption, ...]] = (DEFAULT_MS,)


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
