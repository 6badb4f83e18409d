"""Tak positions as value objects: TPS in and out, validation, a board picture."""

from __future__ import annotations

import re

import attrs

from rules.game import NotationError, PositionError
from rules.tak.tables import RESERVES

FILES = "abcdefgh"
_STACK_RE = re.compile(r"[12]+[SC]?")


@attrs.frozen
class Position:
    """A board, the side to move and the move number, as TPS describes them.

    `stacks[sq]` is the TPS text of the stack on square ``sq = rank * size + file``
    (bottom to top, ``1`` white, ``2`` black, then ``S``/``C`` for a wall/capstone top;
    ``""`` when empty). `turn` 0 = white to move. `move` is the full-move number (from 1).
    """

    size: int
    stacks: tuple[str, ...]
    turn: int = 0
    move: int = 1

    @property
    def ply(self) -> int:
        """Plies played since the start (plies 0 and 1 place an opponent flat)."""
        return 2 * (self.move - 1) + self.turn

    @classmethod
    def empty(cls, size: int) -> Position:
        return cls(size, ("",) * (size * size))

    @classmethod
    def from_tps(cls, text: str) -> Position:
        """Parse TPS (``x5/x5/x5/x5/x5 1 1``); raises NotationError naming the problem."""
        words = text.split()
        if len(words) != 3:
            raise NotationError(
                f"TPS needs 3 fields (rows, side, move), got {len(words)}: {text!r}"
            )
        rows_text, side, move_text = words
        rows = rows_text.split("/")
        size = len(rows)
        if not 3 <= size <= 8:
            raise NotationError(f"TPS has {size} rows, a board has 3 to 8: {text!r}")
        if side not in ("1", "2"):
            raise NotationError(f"TPS side to move must be 1 or 2, not {side!r}")
        if not move_text.isdigit() or int(move_text) < 1:
            raise NotationError(f"TPS move number must be a positive integer, not {move_text!r}")
        stacks: list[str] = [""] * (size * size)
        for row_index, row in enumerate(rows):
            rank = size - 1 - row_index
            squares: list[str] = []
            for item in row.split(","):
                if item == "x":
                    squares.append("")
                elif item.startswith("x") and item[1:].isdigit() and int(item[1:]) >= 1:
                    squares.extend([""] * int(item[1:]))
                elif _STACK_RE.fullmatch(item):
                    squares.append(item)
                else:
                    raise NotationError(
                        f"unknown piece or square {item!r} in TPS row {row_index + 1} ({row!r})"
                    )
            if len(squares) != size:
                raise NotationError(
                    f"TPS row {row_index + 1} ({row!r}) has {len(squares)} squares, expected {size}"
                )
            for file, stack in enumerate(squares):
                stacks[rank * size + file] = stack
        return cls(size, tuple(stacks), 0 if side == "1" else 1, int(move_text))

    def tps(self) -> str:
        rows = []
        n = self.size
        for rank in range(n - 1, -1, -1):
            items: list[str] = []
            run = 0
            for file in range(n):
                stack = self.stacks[rank * n + file]
                if not stack:
                    run += 1
                    continue
                if run:
                    items.append("x" if run == 1 else f"x{run}")
                    run = 0
                items.append(stack)
            if run:
                items.append("x" if run == 1 else f"x{run}")
            rows.append(",".join(items))
        return f"{'/'.join(rows)} {self.turn + 1} {self.move}"

    def pieces(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Pieces on the board: ((white stones, white caps), (black stones, black caps))."""
        stones = [0, 0]
        caps = [0, 0]
        for stack in self.stacks:
            colours = stack.rstrip("SC")
            if stack.endswith("C"):
                caps[int(colours[-1]) - 1] += 1
                colours = colours[:-1]
            stones[0] += colours.count("1")
            stones[1] += colours.count("2")
        return (stones[0], caps[0]), (stones[1], caps[1])

    def check_reserves(self, stones: int, caps: int) -> None:
        """Raise PositionError if a side has more pieces on the board than it owns."""
        for name, (on_stones, on_caps) in zip(("white", "black"), self.pieces(), strict=True):
            if on_stones > stones:
                raise PositionError(
                    f"{name} has {on_stones} stones on the board, more than the {stones} "
                    f"of a {self.size}x{self.size} game"
                )
            if on_caps > caps:
                raise PositionError(
                    f"{name} has {on_caps} capstones on the board, more than the {caps} "
                    f"of a {self.size}x{self.size} game"
                )

    def render(self, reserves: tuple[tuple[int, int], tuple[int, int]] | None = None) -> str:
        """A board picture: ranks top to bottom, stacks written bottom to top."""
        n = self.size
        width = max([3, *(len(s) for s in self.stacks)])
        lines = []
        border = "   +" + "+".join("-" * (width + 2) for _ in range(n)) + "+"
        lines.append(border)
        for rank in range(n - 1, -1, -1):
            cells = [f" {self.stacks[rank * n + f] or '.':<{width}} " for f in range(n)]
            lines.append(f"{rank + 1:>2} |" + "|".join(cells) + "|")
            lines.append(border)
        lines.append("    " + " ".join(f" {FILES[f]:<{width}} " for f in range(n)).rstrip())
        if reserves is not None:
            (ws, wc), (bs, bc) = reserves
            lines.append(f"white (1) in hand: {ws} stones, {wc} caps")
            lines.append(f"black (2) in hand: {bs} stones, {bc} caps")
        side = "white" if self.turn == 0 else "black"
        lines.append(f"{side} to move, move {self.move}")
        return "\n".join(lines)


def standard_reserves(size: int) -> tuple[int, int]:
    """(stones, capstones) each side starts with on a board of this size."""
    if size not in RESERVES:
        raise PositionError(f"board size must be 3 to 8, not {size}")
    return RESERVES[size]
