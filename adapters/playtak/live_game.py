"""Our side of one server game: its phase (`live_phase`), the rules game, clocks, and
its PTN record (`write_record`, the one function here that does I/O: the bridge calls it).

Also the pure helpers the bridge needs: the rules game of a `Game Start` line, the rules
action of a server move (restoring the crush mark the server does not send), and a short
description of the engine's last search info.
"""

from __future__ import annotations

import itertools
import random
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import attrs

from adapters.playtak import protocol as p
from adapters.playtak.live_phase import (
    AwaitingReplay,
    MoveSent,
    Phase,
    PhaseError,
    Playing,
    Replaying,
    unconfirmed,
)
from adapters.playtak.notation import ServerMove
from adapters.playtak.repeats import Repeats
from adapters.referee.records import GameRecord, MoveNote
from rules.game import Game
from rules.registry import new_game
from rules.tak.game import komi_text
from rules.tak.move import Move
from tei.driver import MAX_TIME_MS
from tei.lines import printable
from tei.protocol import Info


@attrs.define
class LiveGame:
    """Our view of one server game: its phase (`live_phase`), rules game, clocks and
    record comments. Its methods are the transitions; each changes only the fields it
    owns, and one the phase does not allow raises `PhaseError`."""

    start: p.GameStart
    inc_ms: int
    game: Game[Any]
    clocks: list[int]
    clock_at: float
    began: datetime
    phase: Phase
    #: joined while the game was already running (a resume): `began` is estimated from
    #: the first clocks the server sends
    joined_late: bool = False
    #: the record's comment after each move (our engine's score, depth and time; None
    #: for the opponent's moves)
    comments: list[str | None] = attrs.field(factory=list)
    #: our moves the server refused in this position (never sent again)
    rejected: set[str] = attrs.field(factory=set)
    #: the engine's failures in this game
    failures: int = 0
    #: we resigned: nothing more is thought, whatever the phase
    resigned: bool = False
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
        phase: Phase = Replaying(unconfirmed=True) if late else Playing()
        return cls(start, inc * 1000, game, [clock, clock], now, wall, phase, joined_late=late)

    # ---- what the phase says -------------------------------------------------------------
    @property
    def seat(self) -> int:
        return 0 if self.start.color == "white" else 1

    @property
    def our_turn(self) -> bool:
        return self.game.result is None and self.game.turn == self.seat

    @property
    def may_think(self) -> bool:
        """Our engine may search our move now: the game runs, nothing is in flight, it is
        our turn and we have not resigned."""
        return isinstance(self.phase, Playing) and not self.resigned and self.our_turn

    @property
    def replaying(self) -> bool:
        """The server replays the game (or the replay is awaited)."""
        return isinstance(self.phase, Replaying | AwaitingReplay)

    @property
    def awaiting_replay(self) -> bool:
        """The connection is new and the server has not begun the game's replay."""
        return isinstance(self.phase, AwaitingReplay)

    @property
    def move_sent(self) -> str | None:
        """Our move sent and not yet confirmed (server notation), or None."""
        return self.phase.move if isinstance(self.phase, MoveSent) else None

    @property
    def unconfirmed(self) -> bool:
        """Begun in the login burst and not resumed yet (`live_phase.unconfirmed`)."""
        return unconfirmed(self.phase)

    @property
    def moves(self) -> list[str]:
        """The moves played, in server notation (from the game's history)."""
        return [ServerMove.from_move(action).to_text() for action in self.game.history]

    @property
    def opponent(self) -> str:
        return self.start.black if self.seat == 0 else self.start.white

    def clock_ms(self, now: float) -> tuple[int, int]:
        """(our time, opponent's time) in ms at `now` (our clock runs since the last
        clocks once the game has moves), before any move overhead."""
        ours, theirs = self.clocks[self.seat], self.clocks[1 - self.seat]
        if self.game.ply:
            ours -= int((now - self.clock_at) * 1000)
        return ours, theirs

    def unrefused_move(self, rng: random.Random) -> tuple[Move, str] | None:
        """A random legal move the server has not refused, and its server text (None
        when there is none)."""
        options = [(a, ServerMove.from_move(a).to_text()) for a in self.game.legal()]
        options = [(a, m) for a, m in options if m not in self.rejected]
        return rng.choice(options) if options else None

    # ---- transitions ---------------------------------------------------------------------
    def lost(self) -> None:
        """The connection is lost, or new (any phase): the server's replay is awaited."""
        self.phase = AwaitingReplay(unconfirmed(self.phase))

    def replayed(self, game: Game[Any]) -> None:
        """The server replays this game from its start (to `game`, its start position),
        in any phase: the moves and comments so far are dropped."""
        self.game = game
        self.comments.clear()
        self.phase = Replaying(unconfirmed(self.phase))

    def resumed(self) -> None:
        """`Your game is resumed`: a replay (or the wait for one) is over; in another
        phase, nothing changes."""
        if self.replaying:
            self.phase = Playing()

    def set_clocks(self, white_ms: int, black_ms: int, now: float, wall: datetime) -> None:
        """The server's clocks (`Time` line, any phase) at monotonic `now` and wall time
        `wall`: a game joined late learns when it began; our move sent is confirmed."""
        self.clocks = [server_clock_ms(white_ms), server_clock_ms(black_ms)]
        if self.joined_late:
            white, black = self.clocks
            self.began = estimated_start(self, white, black, wall)
            self.joined_late = False
        self.clock_at = now
        if isinstance(self.phase, MoveSent):
            self.phase = Playing()

    def server_played(self, move: ServerMove) -> Move:
        """A move from the server (the opponent's, or one of a replay; any phase) is played
        in `game`: the refused moves of the last position are forgotten. The action
        played; the core's GameError when it does not fit the game."""
        action: Move = play_server_move(self.game, move)
        self.comments.append(None)
        self.rejected.clear()
        return action

    def we_played(self, action: Move, comment: str | None) -> str:
        """Our engine's `action` is played and sent (`comment` goes into the record):
        Playing -> MoveSent; its server text."""
        if not self.may_think:
            phase = self.phase
            why = "we resigned" if self.resigned else f"in {phase}"
            why = "not our turn" if isinstance(phase, Playing) and not self.resigned else why
            raise PhaseError(f"our move {action.ptn()!r} in game {self.start.game_id}: {why}")
        move = ServerMove.from_move(action).to_text()
        self.game.play(action)
        self.comments.append(comment)
        self.phase = MoveSent(move)
        return move

    def refused(self) -> str:
        """The server refused our move sent (MoveSent -> Playing): take it back, never
        play it again in this position, count the failure; the move."""
        phase = self.phase
        if not isinstance(phase, MoveSent):
            raise PhaseError(f"game {self.start.game_id}: a refusal in {phase}, no move sent")
        self.take_back()
        self.rejected.add(phase.move)
        self.failures += 1
        self.phase = Playing()
        return phase.move

    def take_back(self) -> None:
        """Undo the last move (an undo both sides agreed to; the phase stays)."""
        if not self.game.ply:
            raise PhaseError(f"game {self.start.game_id}: no move to take back")
        self.game.undo()
        self.comments.pop()

    def engine_failed(self) -> None:
        """The engine failed on a move of this game (any phase)."""
        self.failures += 1

    def resign(self) -> bool:
        """We resign (any phase; the thinking stops until the server ends the game):
        True the first time, when the resignation is to be sent."""
        first, self.resigned = not self.resigned, True
        return first


def server_clock_ms(value: int) -> int:
    """A clock from the server in ms, clamped to 0..MAX_TIME_MS (the driver's ceiling for
    times sent to engines)."""
    return min(max(0, value), MAX_TIME_MS)


def clamped_clocks(*values: int) -> list[str]:
    """What to say of the clocks from the server among `values` (ms) that are clamped."""
    return [
        f"clock {value} ms from the server clamped to {server_clock_ms(value)} ms"
        for value in values
        if server_clock_ms(value) != value
    ]


def estimated_start(live: LiveGame, white_ms: int, black_ms: int, now: datetime) -> datetime:
    """When a game joined late began: now, less the time both clocks have used (their
    base and the increments of the moves played, less what they have left)."""
    base_ms = (live.start.time or 0) * 1000
    used_ms = 2 * base_ms + live.inc_ms * live.game.ply - white_ms - black_ms
    return now - timedelta(milliseconds=max(0, used_ms))


def rules_game(start: p.GameStart) -> Game[Any]:
    flats, caps = start.pieces
    options = {"size": str(start.size), "halfkomi": str(start.komi)}
    options.update(flats=str(flats), caps=str(caps))
    return new_game("tak", options)


def play_server_move(game: Game[Any], move: ServerMove) -> Move:
    """Play a server move (the core restores the crush mark the server does not send);
    the action played. Raises the core's GameError when it does not fit the game."""
    game.play(move.to_move())
    action: Move = game.history[-1]
    return action


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


def describe_info(info: Info | None) -> str:
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
    """Write a finished game as a PTN file with playtak's tags (file I/O: the bridge
    calls it); its path."""
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
