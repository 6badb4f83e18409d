"""The bridge's engine work, sans-IO: one piece at a time, each under its own ticket.

A `Think`, `Ponder` or `Restart` gets the next ticket; the engine's answer for that
ticket (`EngineAnswered`, `EngineFailed`, `EngineIdle`) ends it. Work can be cancelled
while it runs (its answer is then discarded), and work for a game that is no longer
the live one is unwanted.
"""

from __future__ import annotations

import attrs

from adapters.playtak.bridge_events import CancelThinking
from adapters.playtak.live_game import LiveGame


@attrs.define
class Work:
    """The engine work running: its ticket, game, kind, and whether it was cancelled
    (`expected`: a ponder search, on this reply of the opponent in server notation;
    `plies`: the game's length when its move was asked for)."""

    ticket: int
    live: LiveGame
    restart: bool = False
    expected: str | None = None
    plies: int | None = None
    cancelled: bool = False

    @property
    def pondering(self) -> bool:
        return self.expected is not None


@attrs.define
class EngineWork:
    """The one piece of work running (`current`, None when the engine is idle)."""

    current: Work | None = None
    _tickets: int = 0

    def start(
        self,
        live: LiveGame,
        restart: bool = False,
        expected: str | None = None,
        plies: int | None = None,
    ) -> int:
        """Start work for `live`; its ticket."""
        self._tickets += 1
        self.current = Work(self._tickets, live, restart, expected=expected, plies=plies)
        return self._tickets

    def cancel(self) -> list[CancelThinking]:
        """Cancel the running work (once); what to tell the engine's side."""
        work = self.current
        if work is None or work.cancelled:
            return []
        work.cancelled = True
        return [CancelThinking(work.ticket)]

    def of(self, ticket: int) -> Work | None:
        """The running work of `ticket`, if it is the one running."""
        work = self.current
        return work if work is not None and work.ticket == ticket else None

    def wanted(self, ticket: int, live: LiveGame | None) -> bool:
        """The work of `ticket` is still wanted: not cancelled, and its game is `live`."""
        work = self.of(ticket)
        return work is not None and not work.cancelled and work.live is live

    def end(self, ticket: int) -> Work | None:
        """End the work of `ticket` (its answer came); the work, or None when another
        runs."""
        work = self.of(ticket)
        if work is not None:
            self.current = None
        return work
