"""A uniformly random legal action, for any game. Seedable for reproducible matches."""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from bots.base import Info, Limits, Report, SeededBot
from rules.game import Game


class RandomBot(SeededBot):
    name: ClassVar[str] = "random"
    games: ClassVar[tuple[str, ...]] = ("tak", "trike", "traxit")

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        actions = game.legal()
        if not actions:
            raise ValueError("no legal action: the game is over")
        action = self.rng().choice(actions)
        report(Info(depth=1, nodes=len(actions), pv=(game.format_action(action),)))
        return action
