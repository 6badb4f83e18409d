"""Our side of one server game: the rules game, clocks, and its PTN record.

Also the pure helpers the bridge needs: the rules game of a `Game Start` line, the rules
action of a server move (restoring the crush mark the server does not send), and a short
description of the engine's last search info.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from adapters.playtak import protocol as p
from adapters.playtak.notation import ServerMove
from rules.game import Game
from rules.registry import new_game
from rules.tak.ptn import PtnGame
from tei.driver import MAX_TIME_MS

log = logging.getLogger("playtak.bridge")


@attrs.define
class LiveGame:
    """Our view of one server game."""

    start: p.GameStart
    inc_ms: int
    game: Game[Any]
    clocks: list[int]
    clock_at: float
    resuming: bool
    began: datetime
    #: joined while the game was already running (a resume): `began` is estimated from
    #: the first clocks the server sends
    joined_late: bool = False
    moves: list[str] = attrs.field(factory=list)
    awaiting_replay: bool = False
    move_in_flight: str | None = None
    rejected: set[str] = attrs.field(factory=set)
    failures: int = 0
    resigned: bool = False

    @property
    def seat(self) -> int:
        return 0 if self.start.color == "white" else 1

    @property
    def our_turn(self) -> bool:
        return self.game.result is None and self.game.turn == self.seat

    def clock_ms(self, now: float) -> tuple[int, int]:
        """(our time, opponent's time) in ms at `now` (our clock runs since the last
        clocks once the game has moves), before any move overhead."""
        ours, theirs = self.clocks[self.seat], self.clocks[1 - self.seat]
        if self.moves:
            ours -= int((now - self.clock_at) * 1000)
        return ours, theirs


def server_clock_ms(value: int) -> int:
    """A clock from the server in ms, clamped to 0..MAX_TIME_MS (the driver's ceiling for
    times sent to engines), logged when clamped."""
    clamped = min(max(0, value), MAX_TIME_MS)
    if clamped != value:
        log.warning("clock %d ms from the server clamped to %d ms", value, clamped)
    return clamped


def estimated_start(live: LiveGame, white_ms: int, black_ms: int, now: datetime) -> datetime:
    """When a game joined late began: now, less the time both clocks have used (their
    base and the increments of the moves played, less what they have left)."""
    base_ms = (live.start.time or 0) * 1000
    used_ms = 2 * base_ms + live.inc_ms * len(live.moves) - white_ms - black_ms
    return now - timedelta(milliseconds=max(0, used_ms))


def rules_game(start: p.GameStart) -> Game[Any]:
    flats, caps = start.pieces
    options = {"size": str(start.size), "halfkomi": str(start.komi)}
    options.update(flats=str(flats), caps=str(caps))
    return new_game("tak", options)


def play_server_move(game: Game[Any], move: ServerMove) -> Any:
    """Play a server move (the core restores the crush mark the server does not send);
    the action played. Raises the core's GameError when it does not fit the game."""
    game.play(move.to_move())
    return game.history[-1]


def describe_info(info: Any) -> str:
    """` (depth 7, score cp 35)` from the engine's last informative info line."""
    if info is None:
        return ""
    parts = []
    if info.depth is not None:
        parts.append(f"depth {info.depth}")
    if info.score is not None:
        score = info.score
        value = "" if score.value is None else f" {score.value}"
        bound = f" {score.bound}" if score.bound else ""
        parts.append(f"score {score.kind}{value}{bound}")
    return f" ({', '.join(parts)})" if parts else ""


#: longest part of a file name made from a remote name
NAME_PART_CHARS = 32
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")


def file_name_part(text: str, limit: int = NAME_PART_CHARS) -> str:
    """Remote text (a player name) as a safe part of a file name: ASCII letters, digits,
    `_` and `-` kept, every other character `_` (no `/`, `..`, NUL or control character
    gets through), at most `limit` characters, never empty."""
    return _UNSAFE.sub("_", text[:limit]) or "_"


def record_file_name(start: p.GameStart, began: datetime) -> str:
    """`playtak-ID-STAMP-WHITE-vs-BLACK.ptn`: the game id (unique on a server) and the
    start time, the names made safe by `file_name_part` (the tags keep them whole)."""
    stamp = began.strftime("%Y%m%d-%H%M%S")
    white, black = file_name_part(start.white), file_name_part(start.black)
    return f"playtak-{start.game_id}-{stamp}-{white}-vs-{black}.ptn"


def write_record(live: LiveGame, result: str, directory: Path, site: str) -> Path:
    """Write a finished game as a PTN file with playtak's tags; its path."""
    record = ptn_record(live, result, site)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / record_file_name(live.start, live.began)
    path.write_text(record.text(), encoding="utf-8")
    log.info("wrote %s", path)
    return path


def ptn_record(live: LiveGame, result: str, site: str) -> PtnGame:
    """The PTN record of a finished game with playtak's tags."""
    start = live.start
    minutes, seconds = divmod(start.time or 0, 60)
    tags = {
        "Site": site,
        "Event": "Online Play",
        "Date": live.began.strftime("%Y.%m.%d"),
        "Time": live.began.strftime("%H:%M:%S"),
        "Player1": start.white,
        "Player2": start.black,
        "Clock": f"{minutes}:{seconds:02d} +{live.inc_ms // 1000}",
        "PlayTakID": str(start.game_id),
        "Result": result,
    }
    record = PtnGame.from_game(live.game, tags)  # type: ignore[arg-type]
    record.result = result
    record.set_tag("Result", result)
    return record
