"""The 16 tiles (paths) as one data table, and the routes they allow from each cell.

A tile is a chain of squares from one dot to the other, written as compass steps. It may be
turned by quarter turns and walked from either dot; mirror images only with the
`allow_mirror` rule. Correct a tile here and the move generator follows.
"""

from __future__ import annotations

from functools import cache

import attrs

from rules.traxit.board import CELLS, cell_xy, on_board, xy_cell


@attrs.frozen
class Tile:
    id: str
    name: str
    steps: tuple[str, ...]


def _tile(tid: str, name: str, steps: str) -> Tile:
    return Tile(tid, name, tuple(steps.split()))


#: The tile set (see docs/traxit.md for the evidence behind each shape).
TILES: tuple[Tile, ...] = (
    _tile("T01", "I1", "E"),
    _tile("T02", "I2", "E E"),
    _tile("T03", "I4", "E E E E"),
    _tile("T04", "D1", "NE"),
    _tile("T05", "D2", "NE NE"),
    _tile("T06", "L21", "E E N"),
    _tile("T07", "L21'", "E E S"),
    _tile("T08", "L31", "E E E N"),
    _tile("T09", "L31'", "E E E S"),
    _tile("T10", "L32", "E E E S S"),
    _tile("T11", "U", "N E E E S"),
    _tile("T12", "J", "N N E E E S"),
    _tile("T13", "ZZ", "E NE NE E"),
    _tile("T14", "Z", "E NE E"),
    _tile("T15", "DDS", "NE NE E"),
    _tile("T16", "SDDS'", "E NE SE S"),
)
TILE_COUNT = len(TILES)
ALL_TILES_MASK = (1 << TILE_COUNT) - 1
TILE_IDS: tuple[str, ...] = tuple(t.id for t in TILES)

STEP_VECTORS: dict[str, tuple[int, int]] = {
    "N": (0, 1),
    "E": (1, 0),
    "S": (0, -1),
    "W": (-1, 0),
    "NE": (1, 1),
    "SE": (1, -1),
    "SW": (-1, -1),
    "NW": (-1, 1),
}

Vector = tuple[int, int]


def parse_tile(text: str) -> int:
    """'T08' -> 7 (the index into TILES); ValueError naming the text otherwise."""
    if text.upper() in TILE_IDS:
        return TILE_IDS.index(text.upper())
    raise ValueError(f"{text!r} is not a tile (T01..T{TILE_COUNT:02d})")


def orientations(steps: tuple[str, ...], mirror: bool = False) -> set[tuple[Vector, ...]]:
    """Every step list a tile allows: 4 quarter turns x either end (x mirror if allowed).

    Walking from the other dot reverses the order and negates each step; negation is a half
    turn, which the rotations already cover, so reversing the order suffices.
    """
    base = [STEP_VECTORS[s] for s in steps]
    shapes = [base, base[::-1]]
    if mirror:
        shapes += [[(-x, y) for x, y in shape] for shape in shapes]
    out: set[tuple[Vector, ...]] = set()
    for shape in shapes:
        current = shape
        for _ in range(4):
            out.add(tuple(current))
            current = [(-y, x) for x, y in current]
    return out


#: per destination: the cell masks of its routes (start cell excluded, destination included)
Routes = tuple[tuple[int, tuple[int, ...]], ...]


@cache
def route_table(mirror: bool = False) -> tuple[tuple[Routes, ...], ...]:
    """`route_table(mirror)[tile][cell]` -> ((destination, (route masks...)), ...)."""
    table = []
    for tile in TILES:
        shapes = sorted(orientations(tile.steps, mirror))
        per_cell = []
        for cell in range(CELLS):
            by_dest: dict[int, set[int]] = {}
            for shape in shapes:
                x, y = cell_xy(cell)
                mask = 0
                for dx, dy in shape:
                    x, y = x + dx, y + dy
                    if not on_board(x, y):
                        break
                    mask |= 1 << xy_cell(x, y)
                else:
                    by_dest.setdefault(xy_cell(x, y), set()).add(mask)
            per_cell.append(tuple((d, tuple(sorted(m))) for d, m in sorted(by_dest.items())))
        table.append(tuple(per_cell))
    return tuple(table)
