"""One game on the local playtak server: rules, clocks, offers and results (sans-IO).

Times are plain floats (seconds) passed in by the caller; clocks are kept in ms. The
rules come from the game core (`rules.registry.new_game("tak", ...)`); the server only
adds what playtak adds: first-ply and turn checks with playtak's error texts, clocks
with increment and extra time, draw and undo agreement, resignation, time loss and the
50-ply stale rule.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from adapters.playtak.notation import ServerMove
from adapters.playtak.protocol import GameInfo, GameStart
from adapters.playtak.terms import ClockView, GameTerms
from rules.game import Game, GameError
from rules.registry import new_game
from rules.tak.move import FILES

STALE_PLIES = 50

# what the server's command regexes let through, before any check
_RAW_PLACE = re.compile(r"P ([A-Z])(\d)(?: ([CW]))?")
_RAW_MOVE = re.compile(r"M ([A-Z])(\d) ([A-Z])(\d)((?: \d)+)")


def _stack(game: Game[Any], square: str) -> str:
    """The TPS stack on a square (`A1`): "" when empty, else e.g. `12S` (bottom to top)."""
    rows = game.position_string().split()[0].split("/")
    size = len(rows)
    row = rows[size - int(square[1:])]
    cells: list[str] = []
    for cell in row.split(","):
        if cell.startswith("x"):
            cells.extend([""] * int(cell[1:] or "1"))
        else:
            cells.append(cell)
    return cells[FILES.index(square[0].lower())]


@attrs.define
class ServerGame(ClockView):
    """A running game between two logged-in names."""

    no: int
    white: str
    black: str
    terms: GameTerms
    game: Game[Any] = attrs.field(init=False)
    moves: list[str] = attrs.field(factory=list)
    clocks: list[int] = attrs.field(init=False)  # ms, [white, black]
    started_at: float | None = None  # when the side to move's clock started
    draw_offers: set[int] = attrs.field(factory=set)
    undo_requests: set[int] = attrs.field(factory=set)
    extra_given: list[bool] = attrs.field(factory=lambda: [False, False])
    quiet_plies: int = 0
    result: str | None = None
    #: name -> time by which they must reconnect
    absent: dict[str, float] = attrs.field(factory=dict)
    observers: set[int] = attrs.field(factory=set)
    #: a bot plays in it; a bot playing black wins if white never makes its first ply
    bot_game: bool = False
    black_bot: bool = False
    created_at: float = 0.0

    def __attrs_post_init__(self) -> None:
        options = {
            "size": str(self.size),
            "halfkomi": str(self.komi),
            "flats": str(self.flats),
            "caps": str(self.caps),
        }
        self.game = new_game("tak", options)
        self.clocks = [self.time * 1000, self.time * 1000]

    # ---- facts -------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, str]:
        return (self.white, self.black)

    def seat_of(self, name: str) -> int:
        return 0 if name == self.white else 1

    def opponent_of(self, name: str) -> str:
        return self.black if name == self.white else self.white

    @property
    def turn(self) -> int:
        return len(self.moves) % 2

    def info(self) -> GameInfo:
        return GameInfo(self.no, self.white, self.black, self.terms)

    def start_line(self, name: str) -> GameStart:
        color = "white" if name == self.white else "black"
        return GameStart(self.no, self.white, self.black, color, self.terms, self.bot_game)

    # ---- clocks ------------------------------------------------------------------------
    def remaining(self, now: float) -> tuple[int, int]:
        """Both clocks in ms at `now` (the side to move's clock runs after ply 1)."""
        clocks = list(self.clocks)
        if self.started_at is not None and self.result is None:
            clocks[self.turn] -= int((now - self.started_at) * 1000)
        return max(0, clocks[0]), max(0, clocks[1])

    def flag_deadline(self) -> float | None:
        """When the side to move runs out of time, if its clock runs."""
        if self.started_at is None or self.result is not None:
            return None
        return self.started_at + self.clocks[self.turn] / 1000

    def bot_deadline(self, wait: float) -> float | None:
        """When a bot playing black wins because white has not made its first ply."""
        if not self.black_bot or self.moves or self.result is not None:
            return None
        return self.created_at + wait

    def check_flag(self, now: float) -> bool:
        """End the game on time if the side to move has no time left."""
        deadline = self.flag_deadline()
        if deadline is None or now < deadline:
            return False
        self.clocks = list(self.remaining(now))
        self.result = "0-1" if self.turn == 0 else "1-0"
        return True

    # ---- plies -------------------------------------------------------------------------
    def refuse_reason(self, name: str, text: str) -> str | None:
        """Playtak's error text for a ply this player may not make, else None.

        `text` is what the server's regexes let through (`P <A-Z><digit> [C|W]`,
        `M <A-Z><digit> <A-Z><digit> <digits>`); the checks come in playtak's order,
        so each mistake gets playtak's text (`Square not empty` also for a square off
        the board, `Invalid move.` with a dot for a wrong number of drops)."""
        if self.result is not None:
            return "Game is over"
        if self.seat_of(name) != self.turn:
            return "Not your turn"
        if place := _RAW_PLACE.fullmatch(text):
            square = place[1] + place[2]
            if not self._on_board(square) or _stack(self.game, square):
                return "Square not empty"
            if len(self.moves) < 2 and place[3]:
                return "First move should be flat"
            return None
        move = _RAW_MOVE.fullmatch(text)
        if move is None:
            return "Invalid move"
        if len(self.moves) < 2:
            return "First move should be place"
        start, end = move[1] + move[2], move[3] + move[4]
        if start[0] != end[0] and start[1] != end[1]:
            return "Move should be in straight line"
        if not (self._on_board(start) and self._on_board(end)):
            return "Out of bounds"
        stack = _stack(self.game, start)
        owner = stack.rstrip("SC")[-1:] or "2"  # playtak: black "controls" an empty square
        if owner != str(self.turn + 1):
            return "You don't control stack"
        drops = [int(d) for d in move[5].split()]
        if sum(drops) > min(self.size, len(stack.rstrip("SC"))):
            return "Invalid move"
        distance = abs(ord(end[0]) - ord(start[0])) + abs(int(end[1]) - int(start[1]))
        if len(drops) != distance:
            return "Invalid move."
        if min(drops) < 1:
            return "Should place atleast one tile in rest of the squares"
        return self._path_refusal(start, end, drops, capstone=stack.endswith("C"))

    def _on_board(self, square: str) -> bool:
        file, rank = ord(square[0]) - ord("A"), int(square[1:])
        return 0 <= file < self.size and 1 <= rank <= self.size

    def _path_refusal(self, start: str, end: str, drops: list[int], capstone: bool) -> str | None:
        """What stands in the way of a stack moving from `start` to `end`, if anything."""
        step_file = (ord(end[0]) > ord(start[0])) - (ord(end[0]) < ord(start[0]))
        step_rank = (int(end[1]) > int(start[1])) - (int(end[1]) < int(start[1]))
        file, rank = ord(start[0]), int(start[1])
        for _ in drops:
            file, rank = file + step_file, rank + step_rank
            square = f"{chr(file)}{rank}"
            top = _stack(self.game, square)[-1:]
            if top == "C":
                return "Can't stack over capstones"
            if top == "S":
                if square != end:
                    return "Can't stack over walls"
                if drops[-1] != 1 or not capstone:
                    return "Capstone should be on top to flatten walls"
        return None

    def play(self, name: str, text: str, now: float) -> str | None:
        """Play a ply in server notation; the error text if refused, else None."""
        reason = self.refuse_reason(name, text)
        if reason is not None:
            return reason
        move = ServerMove.parse(text)
        try:
            self.game.play(move.to_move())
        except GameError:
            if move.is_placement and move.piece == "C":
                return "You're out of capstones"
            return "Invalid move"
        action = self.game.history[-1]
        seat = self.turn
        if self.started_at is not None:
            self.clocks[seat] -= int((now - self.started_at) * 1000)
        self.clocks[seat] += self.inc * 1000
        own_moves = len(self.moves) // 2 + 1
        if self.trigger and own_moves == self.trigger and not self.extra_given[seat]:
            self.extra_given[seat] = True
            self.clocks[seat] += self.amount * 1000
        self.moves.append(move.to_text())
        self.started_at = now
        self.draw_offers.clear()
        self.undo_requests.clear()
        crush = bool(getattr(action, "crush", False))
        self.quiet_plies = 0 if move.is_placement or crush else self.quiet_plies + 1
        outcome = self.game.result
        if outcome is not None:
            self.result = outcome.code
        elif not move.is_placement and self.quiet_plies >= STALE_PLIES:
            self.result = "1/2-1/2"
        return None

    def offer_draw(self, name: str) -> bool:
        """Record a draw offer; True when both sides have now offered (a draw)."""
        self.draw_offers.add(self.seat_of(name))
        if len(self.draw_offers) == 2:
            self.result = "1/2-1/2"
            return True
        return False

    def request_undo(self, name: str) -> bool:
        """Record an undo request; True when both agree and the last ply was taken back."""
        self.undo_requests.add(self.seat_of(name))
        if len(self.undo_requests) < 2 or not self.moves:
            return False
        self.undo_requests.clear()
        self.game.undo()
        self.moves.pop()
        return True

    def resign(self, name: str) -> None:
        self.result = "0-1" if self.seat_of(name) == 0 else "1-0"

    def abandon(self, quitter: str) -> None:
        self.result = "0-1" if self.seat_of(quitter) == 0 else "1-0"
