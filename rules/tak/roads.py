"""Road detection on bitboards: a flood fill from one edge towards the opposite one."""

from __future__ import annotations

from rules.tak.tables import SizeTables


def road(t: SizeTables, bits: int) -> bool:
    """Whether `bits` connect two opposite edges orthogonally (flood fill on bitboards)."""
    n = t.size
    if bits.bit_count() < n:
        return False
    not_first = t.not_col_first
    not_last = t.not_col_last
    for start, goal in ((t.row_first, t.row_last), (t.col_first, t.col_last)):
        front = bits & start
        if not front or not bits & goal:
            continue
        while True:
            if front & goal:
                return True
            grown = (
                front
                | (front << n)
                | (front >> n)
                | ((front << 1) & not_first)
                | ((front >> 1) & not_last)
            ) & bits
            if grown == front:
                break
            front = grown
    return False
