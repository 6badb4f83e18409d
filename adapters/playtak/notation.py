"""Moves in playtak server notation, converted straight to and from the Tak core's `Move`.

Server notation: `P A1` (flat), `P A1 W` (wall), `P A1 C` (capstone), and
`M A1 C1 1 2` (from, last square reached, stones dropped on each square passed). The
server has no crush mark: it is dropped on the way to the server, and the Tak core adds
it back when a move without it is played (`TakGame.play`).
"""

from __future__ import annotations

import re

import attrs

from adapters.playtak.errors import PlaytakError
from rules.game import NotationError
from rules.tak.move import FILES, Move

_SERVER_PLACE = re.compile(r"P ([A-H])([1-8])(?: ([WC]))?")
_SERVER_MOVE = re.compile(r"M ([A-H])([1-8]) ([A-H])([1-8])((?: [1-8])+)")
_PIECE_OF_SERVER = {"": "F", "W": "S", "C": "C"}
_SERVER_OF_PIECE = {v: k for k, v in _PIECE_OF_SERVER.items()}
_DIRECTIONS = {(0, 1): "+", (0, -1): "-", (-1, 0): "<", (1, 0): ">"}
_STEPS = {v: k for k, v in _DIRECTIONS.items()}


class MoveNotationError(PlaytakError, NotationError):
    """A move text that is not valid server notation (the message quotes it)."""


@attrs.frozen
class ServerMove:
    """One ply in server notation: a placement or a stack movement."""

    square: str  # upper case, "A1"
    piece: str = ""  # "", "W" or "C" for placements
    to: str | None = None  # last square of a movement
    drops: tuple[int, ...] = ()

    @property
    def is_placement(self) -> bool:
        return self.to is None

    @classmethod
    def parse(cls, text: str) -> ServerMove:
        """Parse `P A1 W` or `M A1 C1 1 2` (surrounding spaces ignored)."""
        stripped = text.strip()
        place = _SERVER_PLACE.fullmatch(stripped)
        if place:
            return cls(place[1] + place[2], place[3] or "")
        move = _SERVER_MOVE.fullmatch(stripped)
        if not move:
            raise MoveNotationError(f"not a server move: {text!r}")
        start, end = move[1] + move[2], move[3] + move[4]
        drops = tuple(int(d) for d in move[5].split())
        df, dr = _delta(start, end)
        if (df != 0) == (dr != 0) or max(abs(df), abs(dr)) != len(drops):
            raise MoveNotationError(
                f"server move {text!r}: the drops must cover a straight line from {start} to {end}"
            )
        if sum(drops) > len(FILES):
            raise MoveNotationError(f"server move {text!r}: no board holds {sum(drops)} stones")
        return cls(start, "", end, drops)

    def to_text(self) -> str:
        if self.to is None:
            return f"P {self.square}" + (f" {self.piece}" if self.piece else "")
        return f"M {self.square} {self.to} " + " ".join(str(d) for d in self.drops)

    def __str__(self) -> str:
        return self.to_text()

    def to_move(self) -> Move:
        """The core's move (never with a crush mark: the game adds it when it applies)."""
        file, rank = FILES.index(self.square[0].lower()), int(self.square[1:]) - 1
        if self.to is None:
            return Move(file, rank, _PIECE_OF_SERVER[self.piece])
        df, dr = _delta(self.square, self.to)
        direction = _DIRECTIONS[((df > 0) - (df < 0), (dr > 0) - (dr < 0))]
        return Move(file, rank, "F", direction, self.drops)

    @classmethod
    def from_move(cls, move: Move) -> ServerMove:
        """The server notation of a core move (its crush mark dropped)."""
        square = move.square.upper()
        if move.direction is None:
            return cls(square, _SERVER_OF_PIECE[move.piece])
        step_file, step_rank = _STEPS[move.direction]
        end_file = move.file + step_file * len(move.drops)
        end_rank = move.rank + step_rank * len(move.drops)
        if not (0 <= end_file < len(FILES) and 0 <= end_rank < len(FILES)):
            raise MoveNotationError(f"move {move.ptn()!r} leaves the largest board")
        return cls(square, "", f"{FILES[end_file].upper()}{end_rank + 1}", move.drops)


def server_move(value: ServerMove | str) -> ServerMove:
    """A server move from its text (or itself): the converter of move fields."""
    return value if isinstance(value, ServerMove) else ServerMove.parse(value)


def _delta(start: str, end: str) -> tuple[int, int]:
    return ord(end[0]) - ord(start[0]), int(end[1:]) - int(start[1:])
