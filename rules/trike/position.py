"""TrikePS, the position string: `<N>:<rank N>/.../<rank 1>:<to-move>:<swap>`.

Ranks are listed from the apex down, files a-> within a rank. `x`/`o` are checkers of
colour X/O, `X`/`O` the checker that carries the pawn, a decimal number a run of empty
cells. `to-move` is `x` or `o`; `swap` is `s` when `swap` is legal now, else `-`.
Example (side 7, after 1.d2 2.c3): `7:1/2/3/4/2O2/3x2/7:x:-`.
"""

from __future__ import annotations

import attrs

from rules.trike.errors import ImpossiblePosition, PositionStringError
from rules.trike.geometry import MAX_SIZE, MIN_SIZE, geometry

EMPTY, X, O = 0, 1, 2  # noqa: E741 - the colours are called X and O
COLOUR_LETTER = {X: "x", O: "o"}


@attrs.frozen
class TrikePosition:
    """A Trike position: board contents, pawn cell (-1: none yet), colour to move, swap."""

    size: int
    #: one entry per cell in position-string order: 0 empty, 1 X, 2 O
    board: tuple[int, ...]
    pawn: int
    to_move: int
    swap: bool

    @classmethod
    def empty(cls, size: int) -> TrikePosition:
        cells = geometry(size).cells
        return cls(size=size, board=(EMPTY,) * cells, pawn=-1, to_move=X, swap=False)

    @classmethod
    def parse(cls, text: str) -> TrikePosition:
        """Parse and check a TrikePS; PositionStringError / ImpossiblePosition name the flaw."""
        fields = text.strip().split(":")
        if len(fields) != 4:
            raise PositionStringError(
                f"position {text!r} needs 4 fields <size>:<ranks>:<to-move>:<swap>"
            )
        size_text, ranks_text, move_text, swap_text = fields
        if (
            not (size_text.isascii() and size_text.isdigit())
            or not MIN_SIZE <= int(size_text) <= MAX_SIZE
        ):
            raise PositionStringError(
                f"position {text!r}: size {size_text!r} is not a number {MIN_SIZE}..{MAX_SIZE}"
            )
        size = int(size_text)
        ranks = ranks_text.split("/")
        if len(ranks) != size:
            raise PositionStringError(
                f"position {text!r}: {len(ranks)} ranks given, a side-{size} board has {size}"
            )
        board: list[int] = []
        pawn = -1
        for number, rank in enumerate(ranks):
            width = number + 1
            row = _parse_rank(rank, text)
            if len(row) != width:
                raise PositionStringError(
                    f"position {text!r}: rank {size - number} ({rank!r}) describes "
                    f"{len(row)} cells, it has {width}"
                )
            for colour, carries_pawn in row:
                if carries_pawn:
                    if pawn >= 0:
                        raise ImpossiblePosition(f"position {text!r} has more than one pawn")
                    pawn = len(board)
                board.append(colour)
        if move_text not in ("x", "o"):
            raise PositionStringError(f"position {text!r}: side to move {move_text!r} is not x/o")
        if swap_text not in ("s", "-"):
            raise PositionStringError(f"position {text!r}: swap flag {swap_text!r} is not s/-")
        position = cls(
            size=size,
            board=tuple(board),
            pawn=pawn,
            to_move=X if move_text == "x" else O,
            swap=swap_text == "s",
        )
        position.check(text)
        return position

    def check(self, text: str) -> None:
        """Raise ImpossiblePosition unless the position can arise in a game."""
        xs = self.board.count(X)
        os_ = self.board.count(O)
        if xs + os_ == 0:
            if self.to_move != X or self.swap:
                raise ImpossiblePosition(
                    f"position {text!r}: on an empty board x is to move and swap is '-'"
                )
            return
        if self.pawn < 0:
            raise ImpossiblePosition(f"position {text!r}: checkers on the board but no pawn (X/O)")
        if self.board[self.pawn] == self.to_move:
            raise ImpossiblePosition(
                f"position {text!r}: the pawn stands on a checker of the colour to move"
            )
        if xs - os_ != (1 if self.to_move == O else 0):
            raise ImpossiblePosition(
                f"position {text!r}: {xs} x and {os_} o checkers do not fit "
                f"{COLOUR_LETTER[self.to_move]} to move"
            )
        if self.swap and (xs, os_) != (1, 0):
            raise ImpossiblePosition(
                f"position {text!r}: swap is only legal right after the first checker"
            )

    def __str__(self) -> str:
        ranks: list[str] = []
        start = 0
        for number in range(self.size):
            width = number + 1
            ranks.append(self._rank_text(start, width))
            start += width
        return (
            f"{self.size}:{'/'.join(ranks)}:{COLOUR_LETTER[self.to_move]}:"
            f"{'s' if self.swap else '-'}"
        )

    def _rank_text(self, start: int, width: int) -> str:
        out: list[str] = []
        run = 0
        for cell in range(start, start + width):
            colour = self.board[cell]
            if colour == EMPTY:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            letter = COLOUR_LETTER[colour]
            out.append(letter.upper() if cell == self.pawn else letter)
        if run:
            out.append(str(run))
        return "".join(out)


def _parse_rank(rank: str, text: str) -> list[tuple[int, bool]]:
    """(colour, carries pawn) per cell of one rank's text."""
    row: list[tuple[int, bool]] = []
    digits = ""

    def flush() -> None:
        if digits:
            run = int(digits)
            if not 1 <= run <= MAX_SIZE:
                raise PositionStringError(f"position {text!r}: empty run {run} in rank {rank!r}")
            row.extend([(EMPTY, False)] * run)

    for char in rank:
        if char.isdigit() and char.isascii():
            digits += char
            continue
        flush()
        digits = ""
        if char in "xX":
            row.append((X, char == "X"))
        elif char in "oO":
            row.append((O, char == "O"))
        else:
            raise PositionStringError(f"position {text!r}: {char!r} in rank {rank!r}")
    flush()
    if not row:
        raise PositionStringError(f"position {text!r}: empty rank")
    return row
