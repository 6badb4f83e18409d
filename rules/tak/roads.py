"""Road detection on bitboards: a flood fill from one edge towards the opposite one."""

from __future__ import annotations

from typing import Final

from rules.tak.tables import SizeTables

#: road() results kept per size before its cache is emptied (bounds its memory)
ROAD_CACHE_LIMIT: Final = 1 << 17


def road(t: SizeTables, bits: int) -> bool:
    """Whether `bits` connect two opposite edges orthogonally (flood fill on bitboards;
    answers are cached per size: searches ask about the same sets again and again)."""
    n = t.size
    if bits.bit_count() < n:
        return False
    cache = t.road_cache
    known = cache.get(bits)
    if known is not None:
        return known
    found = _flood_road(t, bits)
    if len(cache) >= ROAD_CACHE_LIMIT:
        cache.clear()
    cache[bits] = found
    return found


def _flood_road(t: SizeTables, bits: int) -> bool:
    """Whether the squares of `bits` reached from one edge touch the opposite one."""
    for start, goal in ((t.row_first, t.row_last), (t.col_first, t.col_last)):
        front = bits & start
        if front and bits & goal and component(t, front, bits) & goal:
            return True
    return False


def component(t: SizeTables, seed: int, bits: int) -> int:
    """The squares of `bits` orthogonally connected to `seed` (a subset of `bits`)."""
    n = t.size
    not_first = t.not_col_first
    not_last = t.not_col_last
    front = seed
    while True:
        grown = (
            front
            | (front << n)
            | (front >> n)
            | ((front << 1) & not_first)
            | ((front >> 1) & not_last)
        ) & bits
        if grown == front:
            return front
        front = grown


def neighbours(t: SizeTables, bits: int) -> int:
    """The squares orthogonally next to `bits` (not including `bits` itself)."""
    n = t.size
    return (
        (
            (bits << n)
            | (bits >> n)
            | ((bits << 1) & t.not_col_first)
            | ((bits >> 1) & t.not_col_last)
        )
        & t.full
        & ~bits
    )


def edge_flags(t: SizeTables, bits: int) -> int:
    """Which edges `bits` touch: 1 first rank, 2 last rank, 4 file a, 8 last file."""
    return (
        (1 if bits & t.row_first else 0)
        | (2 if bits & t.row_last else 0)
        | (4 if bits & t.col_first else 0)
        | (8 if bits & t.col_last else 0)
    )


def completions(t: SizeTables, bits: int, empty: int) -> int:
    """The squares of `empty` where one more road piece would complete a road for `bits`
    (cached per size like `road`)."""
    if bits.bit_count() + 1 < t.size:
        return 0
    cache = t.completions_cache
    key = bits << 64 | empty
    known = cache.get(key)
    if known is not None:
        return known
    found = _completions(t, bits, empty)
    if len(cache) >= ROAD_CACHE_LIMIT:
        cache.clear()
    cache[key] = found
    return found


def _completions(t: SizeTables, bits: int, empty: int) -> int:
    groups: list[tuple[int, int]] = []  # (empty neighbours, edge flags) per group
    rest = bits
    candidates = 0
    while rest:
        group = component(t, rest & -rest, bits)
        rest &= ~group
        near = neighbours(t, group) & empty
        if near:
            groups.append((near, edge_flags(t, group)))
            candidates |= near
    found = 0
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        flags = edge_flags(t, low)
        for near, group_flags in groups:
            if near & low:
                flags |= group_flags
        if flags & 3 == 3 or flags & 12 == 12:
            found |= low
    return found
