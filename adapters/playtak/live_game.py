"""Our side of one server game: the rules game, clocks, and its PTN record.

Also the pure helpers the bridge needs: the rules game of a `Game Start` line, the rules
action of a server move (restoring the crush mark the server does not send), and a short
description of the engine's last search info.
"""

from __future__ import annotations

import itertools
import logging
import random
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from adapters.playtak import protocol as p
from adapters.playtak.notation import ServerMove
from adapters.playtak.repeats import Repeats
from adapters.referee.records import GameRecord, MoveNote
from rules.game import Game
from rules.registry import new_game
from rules.tak.game import komi_text
from tei.driver import MAX_TIME_MS
from tei.lines import printable

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
    #: the moves played, in server notation
    moves: list[str] = attrs.field(factory=list)
    #: the record's comment after each move (our engine's score, depth and time; None
    #: for the opponent's moves)
    comments: list[str | None] = attrs.field(factory=list)
    awaiting_replay: bool = False
    move_in_flight: str | None = None
    rejected: set[str] = attrs.field(factory=set)
    failures: int = 0
    resigned: bool = False
    #: begun before the login burst was over and not yet resumed by the server: a game
    #: the server never resumes was not ours
    unconfirmed: bool = False
    #: the lines of this game a server may repeat without end (draw offers, undo
    #: requests), each said once
    said: Repeats = attrs.field(factory=Repeats)

    @classmethod
    def begin(
        cls, start: p.GameStart, inc: int, game: Game[Any], now: float, wall: datetime, late: bool
    ) -> LiveGame:
        """A game the server started (`inc` in seconds) at monotonic `now` and wall time
        `wall`; `late`: joined while it runs (before the login burst was over), so it
        waits for the server's replay of its moves."""
        clock = server_clock_ms((start.time or 0) * 1000)
        log.info(
            "game %d: %s vs %s, %dx%d, %s+%s s, komi %d, we are %s",
            *(start.game_id, start.white, start.black, start.size, start.size),
            *(start.time, inc, start.komi, start.color),
        )
        clocks = [clock, clock]
        return cls(start, inc * 1000, game, clocks, now, late, wall, late, unconfirmed=late)

    def replayed(self, game: Game[Any]) -> None:
        """The server replays this game from its start (to `game`, its start position)."""
        log.info("game %d is being replayed by the server", self.start.game_id)
        self.game = game
        self.moves.clear()
        self.comments.clear()
        self.resuming = True
        self.awaiting_replay = False

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

    @property
    def opponent(self) -> str:
        return self.start.black if self.seat == 0 else self.start.white

    def set_clocks(self, white_ms: int, black_ms: int, now: float, wall: datetime) -> None:
        """The server's clocks (`Time` line) at monotonic `now` and wall time `wall`: a
        game joined late learns when it began; our move is no longer in flight."""
        self.clocks = [server_clock_ms(white_ms), server_clock_ms(black_ms)]
        if self.joined_late:
            white, black = self.clocks
            self.began = estimated_start(self, white, black, wall)
            self.joined_late = False
        self.clock_at = now
        self.move_in_flight = None

    def played(self, move: str, comment: str | None = None) -> None:
        """A move (server notation) was played in `game`; `comment` goes into the record."""
        self.moves.append(move)
        self.comments.append(comment)

    def take_back(self) -> str:
        """Undo the last move (an undo both sides agreed to); its server text."""
        self.game.undo()
        self.comments.pop()
        return self.moves.pop()

    def refused(self) -> str:
        """The server refused our move in flight: take it back, never play it again in
        this position, count the failure; the move."""
        move = self.move_in_flight
        assert move is not None
        self.move_in_flight = None
        self.take_back()
        self.rejected.add(move)
        self.failures += 1
        return move

    def unrefused_move(self, rng: random.Random) -> tuple[Any, str]:
        """A random legal move the server has not refused, and its server text (None and
        "" when there is none)."""
        options = [(a, ServerMove.from_move(a).to_text()) for a in self.game.legal()]
        options = [(a, m) for a, m in options if m not in self.rejected]
        if not options:
            return None, ""
        log.warning("game %d: playing a random move instead of a refused one", self.start.game_id)
        return rng.choice(options)


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


#: the results that are a win of white, of black
WHITE_WINS = ("R-0", "F-0", "1-0")
BLACK_WINS = ("0-R", "0-F", "0-1")
_WIN_BY = {"R": " by road", "F": " on flats"}


def result_words(result: str, seat: int) -> str:
    """`R-0, we won by road` (for the bot in `seat`, 0 white): a server result in words."""
    how = next((_WIN_BY[c] for c in result if c in _WIN_BY), "")
    if result in (WHITE_WINS, BLACK_WINS)[seat]:
        return f"{result}, we won{how}"
    if result in WHITE_WINS + BLACK_WINS:
        return f"{result}, we lost{how}"
    return f"{result}, a draw" if result == "1/2-1/2" else f"{result}, unfinished"


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
    text = ptn_record(live, result, site)
    directory.mkdir(parents=True, exist_ok=True)
    name = record_file_name(live.start, live.began)
    for number in itertools.count(1):
        # created exclusively: a name taken (a server restart reuses game ids) gets -2, -3
        path = directory / (name if number == 1 else name.replace(".ptn", f"-{number}.ptn"))
        try:
            handle = open(path, "x", encoding="utf-8")  # noqa: SIM115
        except FileExistsError:
            continue
        try:
            with handle:
                handle.write(text)
        except BaseException:
            path.unlink(missing_ok=True)  # no half record: the retry writes it whole
            raise
        break
    log.info("wrote %s", path)
    return path


def ptn_record(live: LiveGame, result: str, site: str) -> str:
    """The PTN text of a finished game with playtak's tags, our engine's score, depth
    and time after each of our moves (as `tei match` writes them)."""
    start = live.start
    minutes, seconds = divmod(max(0, start.time or 0), 60)
    flats, caps = start.pieces
    tags = [
        ("Site", site),
        ("Event", "Online Play"),
        ("Date", live.began.strftime("%Y.%m.%d")),
        ("Time", live.began.strftime("%H:%M:%S")),
        ("Player1", printable(start.white)),  # a server's names: no control character
        ("Player2", printable(start.black)),
        ("Size", str(start.size)),
        *([("Komi", komi_text(start.komi))] if start.komi else []),
        ("Flats", str(flats)),
        ("Caps", str(caps)),
        ("Clock", f"{minutes}:{seconds:02d} +{max(0, live.inc_ms) // 1000}"),
        ("PlayTakID", str(start.game_id)),
        ("Result", result),
    ]
    history = live.game.history
    comments = [*live.comments, *[None] * len(history)]
    notes = [
        MoveNote(live.game.format_action(action), comments[ply], ply % 2)
        for ply, action in enumerate(history)
    ]
    return GameRecord("tak", tuple(tags), tuple(notes), result).render()
