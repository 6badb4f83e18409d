"""The Trike evaluation on bitboards: the same numbers as `bots.trike.eval.evaluate`, faster.

Cells are mapped to bits of a Python int in a padded layout: row y (0 = apex) holds
files x = 0..y at bit y*(N+1) + x, and the last column of every row stays empty. The six
neighbours of a bit are then at offsets +-1, +-(N+1) and +-(N+2), and a shift followed by
a mask of the real cells never wraps onto the board. The region of empty cells around
the pawn is a flood fill, and the neighbour counts are added up bit-sliced (three bit
planes per count), so the evaluation costs a few hundred integer operations whatever
the board size.
"""

from __future__ import annotations

from bots.trike.eval import CERTAINTY, TEMPO
from rules.trike.geometry import Geometry


class BitEval:
    """Bit positions and masks of one board size, and the evaluation on them."""

    def __init__(self, geo: Geometry) -> None:
        size = geo.size
        self.size = size
        self.stride = size + 1
        self.bit: tuple[int, ...] = tuple(
            1 << ((size - rank) * self.stride + file - 1) for file, rank in geo.coords
        )
        mask = 0
        for bit in self.bit:
            mask |= bit
        self.mask = mask

    def dilate(self, bits: int) -> int:
        """The cells next to `bits` (on the board; `bits` itself not included)."""
        s = self.stride
        t = s + 1
        return (
            (bits << 1) | (bits >> 1) | (bits << s) | (bits >> s) | (bits << t) | (bits >> t)
        ) & self.mask

    def _shifted(self, bits: int) -> tuple[int, int, int, int, int, int]:
        """For each direction: the cells whose neighbour that way is in `bits`."""
        s = self.stride
        t = s + 1
        m = self.mask
        return (
            (bits >> 1) & m,
            (bits << 1) & m,
            (bits >> s) & m,
            (bits << s) & m,
            (bits >> t) & m,
            (bits << t) & m,
        )

    def _count(self, bits: int) -> tuple[int, int, int]:
        """Bit planes (1s, 2s, 4s) of each cell's number of neighbours in `bits`."""
        a, b, c, d, e, f = self._shifted(bits)
        ab = a ^ b
        s1 = ab ^ c
        c1 = (a & b) | (c & ab)
        de = d ^ e
        s2 = de ^ f
        c2 = (d & e) | (f & de)
        one = s1 ^ s2
        k = s1 & s2
        cc = c1 ^ c2
        two = cc ^ k
        four = (c1 & c2) | (k & cc)
        return one, two, four

    def evaluate(self, x_bits: int, o_bits: int, pawn: int, colour: int) -> int:
        """Score for `colour` (1 = X, 2 = O) to move, pawn on cell number `pawn`."""
        mask = self.mask
        empty = mask & ~(x_bits | o_bits)
        region = self.dilate(self.bit[pawn]) & empty
        while True:
            grown = region | (self.dilate(region) & empty)
            if grown == region:
                break
            region = grown
        if not region:
            return TEMPO
        own_bits, other_bits = (x_bits, o_bits) if colour == 1 else (o_bits, x_bits)
        e1, e2, e4 = self._count(empty)
        w1, w2, w4 = self._count(own_bits)
        t1, t2, t4 = self._count(other_bits)
        not1, not2, not4 = ~e1, ~e2, ~e4
        total = TEMPO
        for empties, weight in enumerate(CERTAINTY):
            cells = region & (e1 if empties & 1 else not1)
            cells &= e2 if empties & 2 else not2
            cells &= e4 if empties & 4 else not4
            if not cells:
                continue
            own = (
                (cells & w1).bit_count()
                + 2 * (cells & w2).bit_count()
                + 4 * (cells & w4).bit_count()
            )
            other = (
                (cells & t1).bit_count()
                + 2 * (cells & t2).bit_count()
                + 4 * (cells & t4).bit_count()
            )
            total += (own - other) * weight
        return total
