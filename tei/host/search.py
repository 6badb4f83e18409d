"""The engine host's bookkeeping of searches: the one running, and the `go`s waiting for
their turn."""

from __future__ import annotations

from typing import Any

import attrs

from bots.base import Bot
from rules.game import Game
from tei import protocol as p


@attrs.define
class Search:
    id: int
    root: Game[Any]
    started: float
    soft: float | None
    hard: float | None
    held: bool
    bot_name: str = ""
    depth: int | None = None
    nodes: int | None = None
    stopped: bool = False
    answer: str | None = None
    last_pv: str | None = None

    def stand_in(self) -> str | None:
        """The answer for a bot that failed or overran: the first move of its last pv if
        legal, else the first legal action (None when there is none)."""
        if self.last_pv is not None:
            try:
                self.root.parse_action(self.last_pv)
                return self.last_pv
            except Exception:
                pass
        try:
            actions = self.root.legal()
            return self.root.format_action(actions[0]) if actions else None
        except Exception:
            return None


@attrs.frozen
class Waiting:
    """A `go` that came while a search ran, to be answered in turn: searched on `game`
    (its position when it came) by `bot`, or (`go` None: it was refused with an error
    line) answered with `bestmove --`. `stopped`: a `stop` came after it."""

    go: p.Go | None
    game: Game[Any] | None
    bot: Bot
    stopped: bool = False
