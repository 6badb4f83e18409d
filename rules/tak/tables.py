"""Precomputed tables for the fast Tak board: move codes, slide lists, masks, Zobrist keys.

Move codes are plain ints, the same layout for every size (only the square index depends
on the size: ``sq = rank * size + file``, rank 0 = rank 1, file 0 = file a):

=========  ======================================================================
bits 0-5   square index
bits 6-7   0 flat placement, 1 wall placement, 2 capstone placement, 3 slide
bits 8-9   slide direction: 0 ``+`` (up a rank), 1 ``-``, 2 ``>`` (next file), 3 ``<``
bits 10-17 slide drops: index into ``COMPOSITIONS``
bit 18     the slide flattens a wall (``*``)
=========  ======================================================================
"""

from __future__ import annotations

import random
from functools import cache
from typing import Final

MAX_SIZE: Final = 8
FLAT: Final = 0
WALL: Final = 1
CAP: Final = 2
SLIDE: Final = 3
KIND_SHIFT: Final = 6
SLIDE_BITS: Final = SLIDE << KIND_SHIFT
DIR_SHIFT: Final = 8
COMP_SHIFT: Final = 10
CRUSH_BIT: Final = 1 << 18
DIRECTIONS: Final = "+-><"

#: standard reserves per size: (stones, capstones)
RESERVES: dict[int, tuple[int, int]] = {
    3: (10, 0),
    4: (15, 0),
    5: (21, 1),
    6: (30, 1),
    7: (40, 2),
    8: (50, 2),
}


def _compositions() -> list[tuple[int, ...]]:
    """Every way to split 1..8 pieces into non-empty drops, ordered by total then drops."""
    out: list[tuple[int, ...]] = []

    def split(total: int) -> list[tuple[int, ...]]:
        if total == 0:
            return [()]
        return [(first, *rest) for first in range(1, total + 1) for rest in split(total - first)]

    for total in range(1, MAX_SIZE + 1):
        out.extend(sorted(split(total), key=lambda drops: (len(drops), drops)))
    return out


COMPOSITIONS: list[tuple[int, ...]] = _compositions()
COMPOSITION_INDEX: dict[tuple[int, ...], int] = {c: i for i, c in enumerate(COMPOSITIONS)}

#: SLIDE_INFO[code >> 8] = (direction, count, drops, crush) for slide codes
SLIDE_INFO: list[tuple[int, int, tuple[int, ...], bool]] = []
for _high in range(1 << 11):
    _dir, _comp, _crush = _high & 3, (_high >> 2) & 0xFF, bool(_high >> 10)
    _drops = COMPOSITIONS[_comp] if _comp < len(COMPOSITIONS) else (0,)
    SLIDE_INFO.append((_dir, sum(_drops), _drops, _crush))


def slide_code(sq: int, direction: int, drops: tuple[int, ...], crush: bool = False) -> int:
    """The move code of a slide (drops must sum to 1..8, each at least 1)."""
    code = sq | SLIDE_BITS | direction << DIR_SHIFT | COMPOSITION_INDEX[drops] << COMP_SHIFT
    return code | CRUSH_BIT if crush else code


class SizeTables:
    """Everything the board needs for one size, built once per (size, max height)."""

    def __init__(self, size: int, max_height: int) -> None:
        n = self.size = size
        n2 = self.squares = n * n
        self.full = (1 << n2) - 1
        self.max_height = max_height
        self.steps = (n, -n, 1, -1)
        #: road(bits) answers already computed (see `rules.tak.roads.road`)
        self.road_cache: dict[int, bool] = {}
        #: completions(bits, empty) answers, keyed by bits << 64 | empty
        self.completions_cache: dict[int, int] = {}
        col0 = sum(1 << (r * n) for r in range(n))
        self.col_first = col0
        self.col_last = col0 << (n - 1)
        self.row_first = (1 << n) - 1
        self.row_last = self.row_first << (n * (n - 1))
        self.not_col_first = self.full & ~col0
        self.not_col_last = self.full & ~self.col_last
        self._build_rays()
        self._build_slides()
        self.place2: list[tuple[int, ...]] = [(sq, sq | 1 << KIND_SHIFT) for sq in range(n2)]
        self.place3: list[tuple[int, ...]] = [
            (sq, sq | 1 << KIND_SHIFT, sq | 2 << KIND_SHIFT) for sq in range(n2)
        ]
        self.place_cap: list[tuple[int, ...]] = [(sq | 2 << KIND_SHIFT,) for sq in range(n2)]
        self._build_zobrist()

    def _build_rays(self) -> None:
        n, n2 = self.size, self.squares
        # rays: per square and direction, the mask of squares in that direction and its length
        self.ray_mask: list[tuple[int, int, int, int]] = []
        self.ray_len: list[tuple[int, int, int, int]] = []
        #: ray_prefix[sq][dir][k]: the first k squares from sq in that direction
        self.ray_prefix: list[list[list[int]]] = []
        for sq in range(n2):
            rank, file = divmod(sq, n)
            lens = (n - 1 - rank, rank, n - 1 - file, file)
            masks = []
            prefixes = []
            for d in range(4):
                mask = 0
                prefix = [0]
                for k in range(1, lens[d] + 1):
                    mask |= 1 << (sq + self.steps[d] * k)
                    prefix.append(mask)
                masks.append(mask)
                prefixes.append(prefix)
            self.ray_prefix.append(prefixes)
            self.ray_mask.append((masks[0], masks[1], masks[2], masks[3]))
            self.ray_len.append(lens)

    def _build_slides(self) -> None:
        n, n2 = self.size, self.squares
        # slide lists sorted by count, so a carry limit is a prefix:
        # slides[sq][dir][d] = codes moving at most d squares; prefix length count_len[c][d]
        by_count_dist: dict[tuple[int, int], list[tuple[int, ...]]] = {}
        for drops in COMPOSITIONS:
            if sum(drops) <= n and len(drops) <= n - 1:
                by_count_dist.setdefault((sum(drops), len(drops)), []).append(drops)
        self.count_len = [[0] * n for _ in range(n + 1)]
        self.crush_len = [[0] * n for _ in range(n + 1)]
        ordered: list[list[tuple[int, ...]]] = []  # ordered[d]: drops of length <= d by count
        crush_ordered: list[list[tuple[int, ...]]] = []  # length d + 1, last drop 1
        for d in range(n):
            plain = [
                drops
                for c in range(1, n + 1)
                for k in range(1, d + 1)
                for drops in by_count_dist.get((c, k), [])
            ]
            crush = [
                drops
                for c in range(1, n + 1)
                for drops in by_count_dist.get((c, d + 1), [])
                if drops[-1] == 1
            ]
            ordered.append(plain)
            crush_ordered.append(crush)
            for c in range(n + 1):
                self.count_len[c][d] = sum(1 for x in plain if sum(x) <= c)
                self.crush_len[c][d] = sum(1 for x in crush if sum(x) <= c)
        self.slides: list[list[list[list[int]]]] = []
        self.crushes: list[list[list[list[int]]]] = []
        for sq in range(n2):
            per_dir: list[list[list[int]]] = []
            per_dir_crush: list[list[list[int]]] = []
            for direction in range(4):
                length = self.ray_len[sq][direction]
                per_dir.append(
                    [[slide_code(sq, direction, x) for x in ordered[d]] for d in range(length + 1)]
                )
                per_dir_crush.append(
                    [
                        [slide_code(sq, direction, x, True) for x in crush_ordered[d]]
                        for d in range(length)
                    ]
                )
            self.slides.append(per_dir)
            self.crushes.append(per_dir_crush)

    def _build_zobrist(self) -> None:
        n2, size, max_height = self.squares, self.size, self.max_height
        # Zobrist keys. A stack hashes as z_height[its height] ^ the z_black_piece keys of
        # its black pieces' heights (index sq * stride + height). z_black4 holds the XOR
        # for 4 heights at once: index (sq * stride + height) * 16 + 4-bit colour pattern.
        rng = random.Random(0x7A4B + 131 * size)
        stride = self.z_stride = max_height + 8
        self.z_height = [
            0 if h == 0 else rng.getrandbits(62) for _ in range(n2) for h in range(stride)
        ]
        self.z_black_piece = [rng.getrandbits(62) for _ in range(n2 * stride)]
        self.z_black4 = [0] * (n2 * stride * 16)
        keys = self.z_black_piece
        for base in range(n2 * stride):
            height = base % stride
            row = base * 16
            for pattern in range(1, 16):
                key = 0
                for k in range(4):
                    if pattern >> k & 1 and height + k < stride:
                        key ^= keys[base + k]
                self.z_black4[row + pattern] = key
        self.z_place = [
            self.z_height[sq * stride + 1] ^ (keys[sq * stride] if colour else 0)
            for sq in range(n2)
            for colour in (0, 1)
        ]
        self.z_wall = [rng.getrandbits(62) for _ in range(n2)]
        self.z_cap = [rng.getrandbits(62) for _ in range(n2)]
        self.z_black = rng.getrandbits(62)


@cache
def tables(size: int, max_height: int) -> SizeTables:
    """The (cached) tables for a board size and the tallest stack possible."""
    return SizeTables(size, max_height)
