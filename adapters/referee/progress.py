"""What a match knows so far: its finished games and where it stands. The runner keeps
it up to date; the summary (adapters.referee.summary) is built from it."""

from __future__ import annotations

import collections

import attrs

from adapters.referee.config import MatchConfig
from adapters.referee.facts import Status, status_text
from adapters.referee.state import FinishedGame
from adapters.referee.stats import GameScore


@attrs.define
class MatchProgress:
    """What the match knows so far (its events go to the subscribers after every game)."""

    config: MatchConfig
    total: int
    finished: dict[int, FinishedGame] = attrs.field(factory=dict)
    running: int = 0
    status: Status = Status.RUNNING
    #: what went wrong when the status is Status.ERROR
    error: str = ""
    #: the most recent game (None before the first)
    last: FinishedGame | None = None
    restarts: collections.Counter[int] = attrs.field(factory=collections.Counter)

    @property
    def status_text(self) -> str:
        return status_text(self.status, self.error)

    def stop(self, status: Status, error: str = "") -> None:
        """The match stops with `status` (and, for an error, what went wrong)."""
        self.status, self.error = status, error

    def scores(self) -> list[GameScore]:
        return [GameScore(g.seats, g.winners, g.group) for _, g in sorted(self.finished.items())]
