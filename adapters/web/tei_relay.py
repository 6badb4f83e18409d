"""Between a websocket client and an engine subprocess: one `bestmove` per `go` (pure).

The relay counts the `go` commands the client sent and the `bestmove` lines the engine
gave. A `bestmove` with no search pending (an engine that answers twice) is dropped, so
the client never takes a stale answer for its next search; when the engine exits, each
search still pending is ended with `bestmove --` after an error line.
"""

from __future__ import annotations

import attrs

from tei import protocol as p


def _first_word(line: str) -> str:
    words = line.split(maxsplit=1)
    return words[0] if words else ""


@attrs.define
class RelayState:
    """Searches asked for and not yet answered."""

    pending: int = 0
    dropped: int = 0

    def from_client(self, line: str) -> None:
        """A line going to the engine."""
        if _first_word(line) == "go":
            self.pending += 1

    def from_engine(self, line: str) -> bool:
        """A line from the engine: True if it goes on to the client."""
        if _first_word(line) != "bestmove":
            return True
        if self.pending == 0:
            self.dropped += 1
            return False
        self.pending -= 1
        return True

    def on_engine_exit(self, why: str) -> list[str]:
        """The lines that end the pending searches of an engine that is gone."""
        lines = [p.Info(string=f"error: {why}").to_line()]
        lines += [p.BestMove(None).to_line()] * self.pending
        self.pending = 0
        return lines
