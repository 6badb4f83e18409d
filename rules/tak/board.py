"""The fast Tak board: bitboards and int-coded moves, made and unmade in place.

This is the hot path behind `TakGame` and the search bots. State (all public, read-only
for callers; change it only through `make`/`unmake`):

* ``heights[sq]``, ``colors[sq]``: stack height and its colours as bits, bit i = the
  piece at height i (0 = bottom), 0 white, 1 black.
* ``white``, ``black``: bitboards of the squares whose top piece has that colour.
* ``walls``, ``caps``: bitboards of the squares whose top piece is a wall / capstone.
* ``stones[c]``, ``capstones[c]``: reserves in hand of colour c (0 white, 1 black).
* ``turn`` (0 white to move), ``ply`` (plies since the game start; < 2 = opening plies,
  which place an opponent flat), ``hash`` (Zobrist key, kept incrementally).

Square ``sq = rank * size + file`` (0-based; bit ``1 << sq``). Move codes: see `tables`.
"""

from __future__ import annotations

from typing import Final

from rules.tak.movegen import MoveGenerator
from rules.tak.position import Position
from rules.tak.roads import road
from rules.tak.tables import (
    DIRECTIONS,
    SLIDE_INFO,
    SizeTables,
    tables,
)

DRAW: Final = -1
ROAD: Final = "road"
FLATS: Final = "flats"

_COLOUR: Final = "12"
_KIND = ("", "S", "C")


def square_name(sq: int, size: int) -> str:
    rank, file = divmod(sq, size)
    return f"{'abcdefgh'[file]}{rank + 1}"


def code_ptn(code: int, size: int) -> str:
    """Minimal PTN of a move code (no position needed: the crush flag is in the code)."""
    sq = code & 63
    kind = (code >> 6) & 3
    name = square_name(sq, size)
    if kind != 3:
        return _KIND[kind] + name
    direction, count, drops, crush = SLIDE_INFO[code >> 8]
    text = (str(count) if count > 1 else "") + name + DIRECTIONS[direction]
    if len(drops) > 1:
        text += "".join(map(str, drops))
    return text + "*" if crush else text


class Board(MoveGenerator):
    """A Tak position with fast move generation, make/unmake, road and result checks."""

    __slots__ = (
        "black",
        "caps",
        "capstones",
        "colors",
        "half_komi",
        "hash",
        "heights",
        "ply",
        "size",
        "stones",
        "t",
        "turn",
        "undo_stack",
        "walls",
        "white",
    )

    def __init__(
        self,
        size: int,
        stones: int,
        capstones: int,
        half_komi: int = 0,
        shared: SizeTables | None = None,
    ) -> None:
        """An empty board, white to move, each side holding `stones` and `capstones`
        (`shared`: the size's tables, when the caller has them already)."""
        self.size = size
        # typed once, in MoveGenerator: annotated here too, mypyc 2.4 reports `t` twice
        # to the garbage collector, which may then clear tables still in use
        self.t = shared or tables(size, 2 * (stones + capstones) + 1)
        self.heights = [0] * (size * size)
        self.colors = [0] * (size * size)
        self.white = self.black = self.walls = self.caps = 0
        self.stones = [stones, stones]
        self.capstones = [capstones, capstones]
        self.half_komi = half_komi
        self.turn = 0
        self.ply = 0
        self.hash = 0
        #: saved (white, black, walls, caps, hash, source colours) of the slides made
        self.undo_stack: list[tuple[int, int, int, int, int, int]] = []

    def copy(self) -> Board:
        other = Board(self.size, 0, 0, self.half_komi, self.t)
        other.white = self.white
        other.black = self.black
        other.walls = self.walls
        other.caps = self.caps
        other.turn = self.turn
        other.ply = self.ply
        other.hash = self.hash
        other.heights = self.heights[:]
        other.colors = self.colors[:]
        other.stones = self.stones[:]
        other.capstones = self.capstones[:]
        other.undo_stack = self.undo_stack[:]
        return other

    # ---- setting up ----------------------------------------------------------------
    def put_stack(self, sq: int, stack: str) -> None:
        """Place a TPS stack (``"12S"``) on an empty square of a board being set up.

        Reserves are not touched; `set_turn` and the caller's reserve bookkeeping finish
        the set-up. Used by `TakGame.from_position_string`.
        """
        t = self.t
        kind = 1 if stack.endswith("S") else 2 if stack.endswith("C") else 0
        colours = stack.rstrip("SC")
        bits = 0
        base = sq * t.z_stride
        self.hash ^= t.z_height[base + len(colours)]
        for height, ch in enumerate(colours):
            if ch == "2":
                bits |= 1 << height
                self.hash ^= t.z_black_piece[base + height]
        self.heights[sq] = len(colours)
        self.colors[sq] = bits
        bit = 1 << sq
        if colours:
            if colours[-1] == "2":
                self.black |= bit
            else:
                self.white |= bit
        if kind == 1:
            self.walls |= bit
            self.hash ^= t.z_wall[sq]
        elif kind == 2:
            self.caps |= bit
            self.hash ^= t.z_cap[sq]

    def set_turn(self, turn: int, ply: int) -> None:
        if self.turn != turn:
            self.hash ^= self.t.z_black
        self.turn = turn
        self.ply = ply

    # ---- reading ---------------------------------------------------------------------
    def stack(self, sq: int) -> str:
        """The TPS text of one square's stack ("" when empty)."""
        h = self.heights[sq]
        if not h:
            return ""
        bits = self.colors[sq]
        text = "".join(_COLOUR[(bits >> i) & 1] for i in range(h))
        bit = 1 << sq
        return text + ("S" if self.walls & bit else "C" if self.caps & bit else "")

    def tps(self) -> str:
        """The position as TPS (for logs and debugging; not a hot path)."""
        n = self.size
        rows = []
        for rank in range(n - 1, -1, -1):
            rows.append(",".join(self.stack(rank * n + f) or "x" for f in range(n)))
        return Position.from_tps(f"{'/'.join(rows)} {self.turn + 1} {self.ply // 2 + 1}").tps()

    def __repr__(self) -> str:
        return f"Board({self.tps()!r})"

    def flat_counts(self) -> tuple[int, int]:
        """Flats on top of stacks (what a flat win counts): (white, black)."""
        standing = self.walls | self.caps
        return (self.white & ~standing).bit_count(), (self.black & ~standing).bit_count()

    def road_bits(self, colour: int) -> int:
        """Squares counting towards a road of `colour` (top flats and capstones)."""
        return (self.black if colour else self.white) & ~self.walls

    def has_road(self, colour: int) -> bool:
        return road(self.t, (self.black if colour else self.white) & ~self.walls)

    def result(self) -> tuple[int, str] | None:
        """None while the game goes on, else (winner, reason): winner 0, 1 or DRAW."""
        t = self.t
        walls = self.walls
        white_road = road(t, self.white & ~walls)
        black_road = road(t, self.black & ~walls)
        if white_road or black_road:
            if white_road and black_road:
                return 1 - self.turn, ROAD
            return (0 if white_road else 1), ROAD
        stones, capstones = self.stones, self.capstones
        if (
            (self.white | self.black) == t.full
            or not stones[0] + capstones[0]
            or not stones[1] + capstones[1]
        ):
            white, black = self.flat_counts()
            diff = 2 * white - self.half_komi - 2 * black
            return (0 if diff > 0 else 1 if diff < 0 else DRAW), FLATS
        return None

    def make(self, code: int) -> None:
        """Play a legal move code (unchecked: pass only codes from `moves()`)."""
        t = self.t
        sq = code & 63
        kind = (code >> 6) & 3
        turn = self.turn
        if kind != 3:
            colour = turn if self.ply >= 2 else 1 - turn
            bit = 1 << sq
            self.heights[sq] = 1
            self.colors[sq] = colour
            h = self.hash ^ t.z_place[2 * sq + colour] ^ t.z_black
            if colour:
                self.black |= bit
            else:
                self.white |= bit
            if kind == 0:
                self.stones[colour] -= 1
            elif kind == 1:
                self.stones[colour] -= 1
                self.walls |= bit
                h ^= t.z_wall[sq]
            else:
                self.capstones[colour] -= 1
                self.caps |= bit
                h ^= t.z_cap[sq]
            self.hash = h
            self.turn = 1 - turn
            self.ply += 1
            return
        _direction, count, drops, crush = SLIDE_INFO[code >> 8]
        step = t.steps[_direction]
        heights = self.heights
        colors = self.colors
        zh = t.z_height
        zb4 = t.z_black4
        stride = t.z_stride
        white = self.white
        black = self.black
        walls = self.walls
        caps = self.caps
        hsh = self.hash
        bits = colors[sq]
        self.undo_stack.append((white, black, walls, caps, hsh, bits))
        hsh ^= t.z_black
        height = heights[sq]
        rem = height - count
        carried = bits >> rem
        base = sq * stride
        index = (base + rem) << 4
        hsh ^= zh[base + height] ^ zh[base + rem] ^ zb4[index | (carried & 15)]
        if carried >> 4:
            hsh ^= zb4[(index + 64) | (carried >> 4)]
        bit = 1 << sq
        if (walls | caps) & bit:
            if walls & bit:
                top = 1
                walls ^= bit
                hsh ^= t.z_wall[sq]
            else:
                top = 2
                caps ^= bit
                hsh ^= t.z_cap[sq]
        else:
            top = 0
        heights[sq] = rem
        if rem:
            rest = bits & ((1 << rem) - 1)
            colors[sq] = rest
            if rest >> (rem - 1):
                black |= bit
                white &= ~bit
            else:
                white |= bit
                black &= ~bit
        else:
            colors[sq] = 0
            white &= ~bit
            black &= ~bit
        dest = sq
        changed = 0
        new_black = 0
        for d in drops:
            dest += step
            hd = heights[dest]
            pb = carried & ((1 << d) - 1)
            carried >>= d
            colors[dest] |= pb << hd
            heights[dest] = hd + d
            dbit = 1 << dest
            changed |= dbit
            if pb >> (d - 1):
                new_black |= dbit
            base = dest * stride + hd
            index = base << 4
            hsh ^= zh[base] ^ zh[base + d] ^ zb4[index | (pb & 15)]
            if pb >> 4:
                hsh ^= zb4[(index + 64) | (pb >> 4)]
        self.white = (white & ~changed) | (changed ^ new_black)
        self.black = (black & ~changed) | new_black
        if top:
            dbit = 1 << dest
            if top == 1:
                walls |= dbit
                hsh ^= t.z_wall[dest]
            else:
                if crush:
                    walls ^= dbit
                    hsh ^= t.z_wall[dest]
                caps |= dbit
                hsh ^= t.z_cap[dest]
        self.walls = walls
        self.caps = caps
        self.hash = hsh
        self.turn = 1 - turn
        self.ply += 1

    def unmake(self, code: int) -> None:
        """Take back `code`, which must be the last move made."""
        sq = code & 63
        kind = (code >> 6) & 3
        self.turn = 1 - self.turn
        self.ply -= 1
        if kind != 3:
            t = self.t
            colour = self.colors[sq]
            nbit = ~(1 << sq)
            self.heights[sq] = 0
            self.colors[sq] = 0
            h = self.hash ^ t.z_place[2 * sq + colour] ^ t.z_black
            if colour:
                self.black &= nbit
            else:
                self.white &= nbit
            if kind == 0:
                self.stones[colour] += 1
            elif kind == 1:
                self.stones[colour] += 1
                self.walls &= nbit
                h ^= t.z_wall[sq]
            else:
                self.capstones[colour] += 1
                self.caps &= nbit
                h ^= t.z_cap[sq]
            self.hash = h
            return
        self.white, self.black, self.walls, self.caps, self.hash, bits = self.undo_stack.pop()
        direction, count, drops, _crush = SLIDE_INFO[code >> 8]
        step = self.t.steps[direction]
        heights = self.heights
        colors = self.colors
        dest = sq
        for d in drops:
            dest += step
            hd = heights[dest] - d
            heights[dest] = hd
            colors[dest] &= (1 << hd) - 1
        heights[sq] += count
        colors[sq] = bits
