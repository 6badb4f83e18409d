"""The bridge's finished games and the fate of their records, sans-IO.

Every finished game is listed (its id, result, and the record's path once written); with
records kept, each finished game's record is asked to be written (`WriteRecord`), and one
whose write failed waits for the next try (after the next game, and on the way out), so
no finished game is lost to a full disk or a missing folder.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from adapters.playtak.bridge_events import Outbox, RecordFailed, RecordWritten, WriteRecord
from adapters.playtak.live_game import LiveGame


@attrs.define
class RecordShelf:
    """Finished games and their records (see the module); `keep`: records are written."""

    keep: bool
    #: (game id, result, record path or None) of every finished game
    finished: list[tuple[int, str, Path | None]] = attrs.field(factory=list)
    #: finished games whose record could not be written yet
    unwritten: list[tuple[LiveGame, str]] = attrs.field(factory=list)
    _writing: dict[int, tuple[LiveGame, str]] = attrs.field(factory=dict)
    #: where its log lines go (the state's outbox)
    out: Outbox = attrs.field(factory=Outbox)

    def finish(self, live: LiveGame, result: str) -> list[WriteRecord]:
        """A game is over: list it, and ask for its record (and any still waiting)."""
        self.finished.append((live.start.game_id, result, None))
        if self.keep:
            self.unwritten.append((live, result))
        return self.retry()

    def retry(self) -> list[WriteRecord]:
        """Ask for the records still waiting; a failure keeps one for the next try."""
        if not self.keep:
            return []
        out = []
        for live, result in self.unwritten:
            self._writing[live.start.game_id] = (live, result)
            out.append(WriteRecord(live, result))
        self.unwritten = []
        return out

    def written(self, item: RecordWritten) -> None:
        self._writing.pop(item.game_id, None)
        for i, (game_id, result, path) in enumerate(self.finished):
            if path is None and game_id == item.game_id:
                self.finished[i] = (game_id, result, item.path)

    def failed(self, item: RecordFailed) -> None:
        self.out.error(
            f"cannot write the record of game {item.game_id} (kept, retried after the next"
            f" game): {item.error}"
        )
        kept = self._writing.pop(item.game_id, None)
        if kept is not None:
            self.unwritten.append(kept)
