"""The state of the live page, built from events alone (a pure reducer).

`LiveState.apply(event)` returns the next state; `snapshot()` is the JSON-able whole a
late joiner receives, `patch(event)` the parts an event changed (what watchers already
holding a snapshot receive). Patches merge key by key: `games` entries replace the game
of that id (None removes it), `finished` entries replace or append by id, every other
key replaces the old value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from adapters.stream.events import (
    EngineInfo,
    Event,
    GameOver,
    GameStarted,
    MatchStarted,
    MatchStopping,
    MovePlayed,
    Standings,
)


@attrs.frozen
class GameView:
    """A running game as the page shows it."""

    start: GameStarted
    moves: tuple[str, ...]
    clocks_ms: tuple[float | None, ...]
    position: str
    svg: str
    turn: int | None = 0
    #: the last engine report per seat
    infos: tuple[EngineInfo | None, ...] = ()

    def to_json(self) -> dict[str, Any]:
        start = self.start
        return {
            "game": start.game,
            "label": start.label,
            "title": start.title,
            "game_name": start.game_name,
            "players": list(start.players),
            "seat_names": list(start.seat_names),
            "moves": list(self.moves),
            "clocks_ms": [None if c is None else round(c) for c in self.clocks_ms],
            "position": self.position,
            "svg": self.svg,
            "turn": self.turn,
            "infos": [None if i is None else i.to_json() for i in self.infos],
        }


@attrs.frozen
class FinishedView:
    """A finished game: its result and its final picture (the record is kept aside)."""

    over: GameOver
    svg: str = ""

    def to_json(self) -> dict[str, Any]:
        over = self.over
        return {
            "game": over.game,
            "label": over.label,
            "players": list(over.players),
            "result": over.result,
            "termination": over.termination,
            "reason": over.reason,
            "plies": over.plies,
            "detail": over.detail,
            "record_format": over.record_format,
            "svg": self.svg,
        }


@attrs.frozen
class LiveState:
    """Everything the page shows. Containers are never changed in place."""

    title: str = ""
    games: Mapping[int, GameView] = attrs.field(factory=dict)
    finished: tuple[FinishedView, ...] = ()
    standings: Standings | None = None
    #: (games done, LLR) after each standings update with an SPRT
    llr: tuple[tuple[int, float], ...] = ()
    #: finished games' records by game id (served as downloads, not in snapshots)
    records: Mapping[int, GameOver] = attrs.field(factory=dict)
    #: events applied so far
    seq: int = 0

    def apply(self, event: Event) -> LiveState:
        """The state after `event`; an event for an unknown game changes only `seq`."""
        seq = self.seq + 1
        if isinstance(event, GameStarted):
            view = GameView(
                event,
                event.moves,
                event.clocks_ms,
                event.position,
                event.svg,
                infos=(None,) * len(event.players),
            )
            return attrs.evolve(self, games={**self.games, event.game: view}, seq=seq)
        if isinstance(event, Standings):
            llr = self.llr
            if event.sprt is not None and (not llr or llr[-1][0] != event.done):
                llr = (*llr, (event.done, event.sprt.llr))
            return attrs.evolve(self, standings=event, llr=llr, seq=seq)
        if isinstance(event, GameOver):
            games = dict(self.games)
            ended = games.pop(event.game) if event.game in games else None
            done = FinishedView(event, ended.svg if ended is not None else "")
            kept = tuple(f for f in self.finished if f.over.game != event.game)
            finished = (*kept, done)
            records = {**self.records, event.game: event}
            return attrs.evolve(self, games=games, finished=finished, records=records, seq=seq)
        if isinstance(event, MatchStarted | MatchStopping):
            return attrs.evolve(self, seq=seq)  # the match's status comes with Standings
        found = self.games.get(event.game)
        if found is None:
            return attrs.evolve(self, seq=seq)
        view = found
        if isinstance(event, MovePlayed):
            view = attrs.evolve(
                view,
                moves=(*view.moves, event.move),
                clocks_ms=event.clocks_ms,
                position=event.position,
                svg=event.svg,
                turn=event.turn,
            )
        else:
            infos = list(view.infos)
            if 0 <= event.seat < len(infos):
                infos[event.seat] = event
            view = attrs.evolve(view, infos=tuple(infos))
        return attrs.evolve(self, games={**self.games, event.game: view}, seq=seq)

    def snapshot(self) -> dict[str, Any]:
        """The whole page state as JSON-able data."""
        return {
            "seq": self.seq,
            "title": self.title,
            "games": {str(k): v.to_json() for k, v in sorted(self.games.items())},
            "finished": [f.to_json() for f in self.finished],
            "standings": None if self.standings is None else self.standings.to_json(),
            "llr": [list(p) for p in self.llr],
        }

    def patch(self, *events: Event) -> dict[str, Any]:
        """The parts of `snapshot()` that `events` (the last applied, in order) changed:
        one patch for a batch, each part as it is now."""
        out: dict[str, Any] = {"seq": self.seq}
        for event in events:
            if isinstance(event, Standings):
                out["standings"] = None if self.standings is None else self.standings.to_json()
                out["llr"] = [list(p) for p in self.llr]
            elif isinstance(event, GameOver):
                out.setdefault("games", {})[str(event.game)] = None
                done = [f.to_json() for f in self.finished if f.over.game == event.game]
                kept = [f for f in out.get("finished", ()) if f["game"] != event.game]
                out["finished"] = kept + done
            elif isinstance(event, MatchStarted | MatchStopping):
                continue
            elif str(event.game) not in out.setdefault("games", {}):  # else: already as now
                view = self.games.get(event.game)
                out["games"][str(event.game)] = None if view is None else view.to_json()
        return out

    def record(self, game: int) -> GameOver | None:
        """The finished game `game` with its record, or None."""
        return self.records.get(game)
