"""Moves in playtak server notation and in PTN, both ways (pure string functions).

Server notation: `P A1` (flat), `P A1 W` (wall), `P A1 C` (capstone), and
`M A1 C1 1 2` (from, last square reached, stones dropped on each square passed). PTN:
`a1`, `Sa1`, `Ca1`, `3a1>12`. The server has no crush mark, so `*` is dropped on the
way to the server and never produced on the way back.
"""

from __future__ import annotations

import re

import attrs

FILES = "abcdefgh"
_DIRECTIONS = {(0, 1): "+", (0, -1): "-", (-1, 0): "<", (1, 0): ">"}
_STEPS = {v: k for k, v in _DIRECTIONS.items()}

_SERVER_PLACE = re.compile(r"P ([A-H])([1-8])(?: ([WC]))?")
_SERVER_MOVE = re.compile(r"M ([A-H])([1-8]) ([A-H])([1-8])((?: [1-8])+)")
_PTN = re.compile(r"([1-8])?([FSC])?([a-h])([1-8])(?:([<>+-])([1-8]*))?(\*)?")
_ANNOTATION = re.compile(r"['\"!?]+$")


class MoveNotationError(ValueError):
    """A move text that is neither valid server notation nor valid PTN."""


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
        return cls(start, "", end, drops)

    def to_text(self) -> str:
        if self.to is None:
            return f"P {self.square}" + (f" {self.piece}" if self.piece else "")
        return f"M {self.square} {self.to} " + " ".join(str(d) for d in self.drops)

    def to_ptn(self) -> str:
        """Minimal PTN: `a1`, `Sa1`, `Ca1`, `c2+`, `3a1>12`."""
        square = self.square.lower()
        if self.to is None:
            return {"": "", "W": "S", "C": "C"}[self.piece] + square
        df, dr = _delta(self.square, self.to)
        direction = _DIRECTIONS[((df > 0) - (df < 0), (dr > 0) - (dr < 0))]
        count = sum(self.drops)
        prefix = "" if count == 1 else str(count)
        drops = "" if len(self.drops) == 1 else "".join(str(d) for d in self.drops)
        return f"{prefix}{square}{direction}{drops}"

    @classmethod
    def from_ptn(cls, text: str) -> ServerMove:
        """Parse a PTN ply (annotations and crush mark allowed) into server notation."""
        core = _ANNOTATION.sub("", text.strip())
        match = _PTN.fullmatch(core)
        if not match:
            raise MoveNotationError(f"not a PTN move: {text!r}")
        count_text, piece, file, rank, direction, drops_text, _crush = match.groups()
        square = f"{file.upper()}{rank}"
        if direction is None:
            if count_text is not None:
                raise MoveNotationError(f"PTN move {text!r}: a placement has no count")
            return cls(square, {None: "", "F": "", "S": "W", "C": "C"}[piece])
        if piece is not None:
            raise MoveNotationError(f"PTN move {text!r}: a movement has no piece letter")
        count = int(count_text) if count_text else 1
        drops = tuple(int(d) for d in drops_text) if drops_text else (count,)
        if sum(drops) != count:
            raise MoveNotationError(f"PTN move {text!r}: drops {drops_text} do not sum to {count}")
        step_file, step_rank = _STEPS[direction]
        end_file = FILES.index(file) + step_file * len(drops)
        end_rank = int(rank) + step_rank * len(drops)
        if not (0 <= end_file < 8 and 1 <= end_rank <= 8):
            raise MoveNotationError(f"PTN move {text!r} leaves the largest board")
        return cls(square, "", f"{FILES[end_file].upper()}{end_rank}", drops)


def _delta(start: str, end: str) -> tuple[int, int]:
    return ord(end[0]) - ord(start[0]), int(end[1:]) - int(start[1:])


def server_to_ptn(text: str) -> str:
    """`M A1 C1 1 2` -> `3a1>12`; raises MoveNotationError naming the text."""
    return ServerMove.parse(text).to_ptn()


def ptn_to_server(text: str) -> str:
    """`3a1>12*` -> `M A1 C1 1 2`; raises MoveNotationError naming the text."""
    return ServerMove.from_ptn(text).to_text()
