"""Tak bots that fail on purpose, served by a real `tei engine` in tests as
`--bot tests.support.engines.bad_bots:NAME` (the tests folder is on the subprocess's PYTHONPATH)."""

from __future__ import annotations

import os
import threading
import time
from typing import Any, ClassVar

from bots.base import Bot, Info, Limits, Report
from rules.game import Game
from rules.registry import game_class


class RaisingBot(Bot):
    """Raises KeyError on every move (as a bot reading a missing setting would)."""

    name: ClassVar[str] = "raising"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        return self.settings["Pick"]


class NoneBot(Bot):
    """Returns None."""

    name: ClassVar[str] = "none"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        return None


class IllegalBot(Bot):
    """Returns the move just played (its square is taken: illegal now); at the start
    position, the second legal move of the next position."""

    name: ClassVar[str] = "illegal"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        if game.ply:
            return game.copy().undo()
        after = game.copy()
        after.play(after.legal()[0])
        return after.legal()[0]


class OtherGameBot(Bot):
    """Returns an action of another game (Trike)."""

    name: ClassVar[str] = "other-game"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        return game_class("trike").new({"size": "7"}).legal()[0]


class SlowBot(Bot):
    """Ignores the stop flag and answers after 3 s."""

    name: ClassVar[str] = "slow"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        time.sleep(3.0)
        return game.legal()[0]


class LateBot(Bot):
    """Ignores the stop flag and answers 400 ms after its movetime (st=)."""

    name: ClassVar[str] = "late"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        time.sleep(((limits.movetime or 0) + 400) / 1000)
        return game.legal()[0]


class StdoutBot(Bot):
    """Writes a bestmove of its own straight to file descriptor 1, then answers."""

    name: ClassVar[str] = "stdout"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        os.write(1, b"bestmove e5\n")
        print("bestmove e4", flush=True)
        return game.legal()[0]


class InjectingBot(Bot):
    """Reports a pv with a line break and a protocol line after it, then answers."""

    name: ClassVar[str] = "injecting"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        action = game.legal()[0]
        report(Info(depth=1, pv=(f"{game.format_action(action)}\nbestmove e5",)))
        report(Info(depth=1, score_cp=10**30, nodes=-5, string="x\nbestmove e4"))
        return action


class UnhurriedBot(Bot):
    """Thinks until stopped, then takes 20 ms more to answer (within the host's grace):
    a `go` sent right after `stop` finds the stopped search still running."""

    name: ClassVar[str] = "unhurried"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        stop.wait()
        time.sleep(0.02)
        return game.legal()[0]
