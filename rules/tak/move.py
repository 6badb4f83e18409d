"""Tak moves as value objects: PTN in (every form seen in the wild), minimal PTN out."""

from __future__ import annotations

import re

import attrs

from rules.game import NotationError
from rules.tak.tables import (
    COMPOSITION_INDEX,
    DIR_SHIFT,
    DIRECTIONS,
    KIND_SHIFT,
    MAX_SIZE,
    SLIDE_INFO,
    slide_code,
)

FILES = "abcdefgh"
PIECES = "FSC"

_MOVE_RE = re.compile(
    r"(?P<count>[0-9]?)(?P<piece>[FSC]?)(?P<file>[a-h])(?P<rank>[1-8])"
    r"(?:(?P<dir>[-+<>])(?P<drops>[0-9]*)(?P<crush>\*?))?"
)
#: the annotations a PTN move may carry (tak and tinue marks, !, ?)
ANNOTATION_RE = re.compile(r"['\"!?]+$")


@attrs.frozen(repr=False)
class Move:
    """One ply: a placement (`piece` F, S or C) or a slide (`direction` and `drops`).

    `file` and `rank` are 0-based (a1 = (0, 0)). A slide picks up ``sum(drops)`` pieces
    and drops ``drops[0]`` on the next square, and so on. `crush` marks a slide whose
    capstone flattens a wall (written ``*``).
    """

    file: int
    rank: int
    piece: str = "F"
    direction: str | None = None
    drops: tuple[int, ...] = ()
    crush: bool = False

    @property
    def is_placement(self) -> bool:
        return self.direction is None

    @property
    def count(self) -> int:
        """Pieces picked up (0 for a placement)."""
        return sum(self.drops)

    @property
    def square(self) -> str:
        if not (0 <= self.file < 8 and 0 <= self.rank < 8):
            return f"({self.file},{self.rank})"
        return f"{FILES[self.file]}{self.rank + 1}"

    @classmethod
    def placement(cls, square: str, piece: str = "F") -> Move:
        file, rank = _square(square)
        return cls(file, rank, piece)

    @classmethod
    def from_ptn(cls, text: str) -> Move:
        """Parse any PTN move (``a1 Fa1 Sb2 Cc3 c2+ 1c2+1 3c3>12 e1<* a1'' b2!?``).

        Annotations (``'``, ``''``, ``"``, ``!``, ``?``) are ignored. When the count is
        left out but drops are given, the count is their sum.
        """
        raw = text
        text = ANNOTATION_RE.sub("", text.strip())
        m = _MOVE_RE.fullmatch(text)
        if m is None:
            raise NotationError(f"not a Tak move: {raw!r}")
        file, rank = FILES.index(m["file"]), int(m["rank"]) - 1
        if m["dir"] is None:
            if m["count"]:
                raise NotationError(f"a placement has no count: {raw!r}")
            return cls(file, rank, m["piece"] or "F")
        if m["piece"]:
            raise NotationError(f"a stack move has no piece letter: {raw!r}")
        drops = tuple(int(ch) for ch in m["drops"])
        if 0 in drops:
            raise NotationError(f"every drop must be at least 1: {raw!r}")
        if m["count"]:
            count = int(m["count"])
            if count == 0:
                raise NotationError(f"a slide moves at least one piece: {raw!r}")
        else:
            count = sum(drops) if drops else 1
        if not drops:
            drops = (count,)
        if sum(drops) != count:
            raise NotationError(f"drops {m['drops']} do not add up to {count}: {raw!r}")
        if count > MAX_SIZE:
            raise NotationError(f"cannot carry {count} pieces: {raw!r}")
        if len(drops) >= MAX_SIZE:
            raise NotationError(f"no board has {len(drops) + 1} squares in a line: {raw!r}")
        if m["crush"] and drops[-1] != 1:
            raise NotationError(f"a crush ends with a capstone alone, not {drops[-1]}: {raw!r}")
        return cls(file, rank, "F", m["dir"], drops, bool(m["crush"]))

    def ptn(self) -> str:
        """Minimal canonical PTN: no F, count and drops left out where implied."""
        if self.direction is None:
            return ("" if self.piece == "F" else self.piece) + self.square
        count = self.count
        text = (str(count) if count > 1 else "") + self.square + self.direction
        if len(self.drops) > 1:
            text += "".join(map(str, self.drops))
        return text + "*" if self.crush else text

    def __str__(self) -> str:
        return self.ptn()

    def __repr__(self) -> str:
        return f"Move({self.ptn()!r})"

    # ---- move codes (the fast board's ints) ------------------------------------------
    def code(self, size: int) -> int:
        """The board's move code of this move on a `size` board (raises if off board)."""
        if self.file >= size or self.rank >= size:
            raise NotationError(f"{self.square} is off the {size}x{size} board")
        if not (self.file >= 0 and self.rank >= 0):
            raise NotationError(f"bad square ({self.file}, {self.rank}) in {self!r}")
        sq = self.rank * size + self.file
        if self.direction is None:
            if self.piece not in PIECES or len(self.piece) != 1:
                raise NotationError(f"unknown piece {self.piece!r}: use F, S or C")
            return sq | PIECES.index(self.piece) << KIND_SHIFT
        if len(self.direction) != 1 or self.direction not in DIRECTIONS:
            raise NotationError(f"unknown direction {self.direction!r}: use + - < >")
        if self.drops not in COMPOSITION_INDEX:
            raise NotationError(f"bad drops {self.drops!r}: 1 to 8 pieces, each drop >= 1")
        return slide_code(sq, DIRECTIONS.index(self.direction), self.drops, self.crush)

    @classmethod
    def from_code(cls, code: int, size: int) -> Move:
        """The move of a board move code."""
        rank, file = divmod(code & 63, size)
        kind = (code >> KIND_SHIFT) & 3
        if kind != 3:
            return cls(file, rank, PIECES[kind])
        direction, _count, drops, crush = SLIDE_INFO[code >> DIR_SHIFT]
        return cls(file, rank, "F", DIRECTIONS[direction], drops, crush)


def _square(text: str) -> tuple[int, int]:
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise NotationError(f"not a square: {text!r}")
    return FILES.index(text[0]), int(text[1]) - 1
