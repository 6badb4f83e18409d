"""A uniformly random legal action, for any game. Seedable for reproducible matches."""

from __future__ import annotations

import random
import threading
from typing import Any, ClassVar

from bots.base import Bot, BotOption, Info, Limits, Report
from rules.game import Game


class RandomBot(Bot):
    name: ClassVar[str] = "random"
    games: ClassVar[tuple[str, ...]] = ("tak", "trike", "traxit")
    options: ClassVar[tuple[BotOption, ...]] = (
        BotOption("Seed", "spin", default="0", min=0, max=2**31 - 1),
    )

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self._rng: random.Random | None = None

    def _random(self) -> random.Random:
        if self._rng is None:
            seed = int(self.settings["Seed"])
            self._rng = random.Random(seed) if seed else random.Random()
        return self._rng

    def set_option(self, name: str, value: str) -> None:
        super().set_option(name, value)
        self._rng = None

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        actions = game.legal()
        if not actions:
            raise ValueError("no legal action: the game is over")
        action = self._random().choice(actions)
        report(Info(depth=1, nodes=len(actions), pv=(game.format_action(action),)))
        return action
