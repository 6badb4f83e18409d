"""The 8x8 pyramid board: cells, levels, points, start rows and obstacles.

Cells are numbered 0..63 as `x + 8 * y`, with files a-h (x = 0..7, west to east) and
ranks 1-8 (y = 0..7, south to north). The four levels are concentric rings.
"""

from __future__ import annotations

SIZE = 8
CELLS = SIZE * SIZE
FILES = "abcdefgh"

#: points a pawn scores at the end of a set, by level 1..4
LEVEL_POINTS: tuple[int, ...] = (0, 0, 25, 50, 100)
BONUS_POINTS = 50


def cell_xy(cell: int) -> tuple[int, int]:
    return cell % SIZE, cell // SIZE


def xy_cell(x: int, y: int) -> int:
    return x + SIZE * y


def on_board(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def level(cell: int) -> int:
    """1 (outer ring, 28 cells) to 4 (top, d4 e4 d5 e5)."""
    x, y = cell_xy(cell)
    return min(x, y, SIZE - 1 - x, SIZE - 1 - y) + 1


LEVEL: tuple[int, ...] = tuple(level(c) for c in range(CELLS))
POINTS: tuple[int, ...] = tuple(LEVEL_POINTS[LEVEL[c]] for c in range(CELLS))
EDGE_MASK: int = sum(1 << c for c in range(CELLS) if LEVEL[c] == 1)
TOP_MASK: int = sum(1 << c for c in range(CELLS) if LEVEL[c] == 4)
EDGE_CELLS: tuple[int, ...] = tuple(c for c in range(CELLS) if LEVEL[c] == 1)


def cell_name(cell: int) -> str:
    x, y = cell_xy(cell)
    return f"{FILES[x]}{y + 1}"


def parse_cell(text: str) -> int:
    """'c1' -> 2; ValueError naming the text otherwise."""
    if len(text) != 2 or text[0] not in FILES or text[1] not in "12345678":
        raise ValueError(f"{text!r} is not a cell (a1..h8)")
    return xy_cell(FILES.index(text[0]), int(text[1]) - 1)


#: the sides a player can sit at, and the cells of its start row (no corners)
SIDES = "SWNE"
START_ROWS: dict[str, tuple[int, ...]] = {
    "S": tuple(xy_cell(x, 0) for x in range(1, 7)),
    "N": tuple(xy_cell(x, 7) for x in range(1, 7)),
    "W": tuple(xy_cell(0, y) for y in range(1, 7)),
    "E": tuple(xy_cell(7, y) for y in range(1, 7)),
}

#: corners of level 3: the only cells that may hold an obstacle
OBSTACLE_CELLS: tuple[int, ...] = tuple(parse_cell(n) for n in ("c3", "f3", "c6", "f6"))
#: the diagonal pairs allowed with three players
OBSTACLE_PAIRS: tuple[frozenset[int], ...] = (
    frozenset(parse_cell(n) for n in ("c6", "f3")),
    frozenset(parse_cell(n) for n in ("c3", "f6")),
)

#: default seating by player count, in turn order
DEFAULT_SIDES: dict[int, str] = {2: "SN", 3: "SWN", 4: "SWNE"}
#: default owner colours by player count, in turn order (R red, B blue, G green, Y yellow)
COLOURS = "RBGY"
DEFAULT_OWNERS: dict[int, str] = {2: "RG", 3: "RBG", 4: "RBGY"}


def default_obstacles(players: int) -> int:
    """Obstacle mask: all four level-3 corners for 2 players, c6+f3 for 3, none for 4."""
    names = {2: ("c3", "f3", "c6", "f6"), 3: ("c6", "f3"), 4: ()}[players]
    return sum(1 << parse_cell(n) for n in names)


def mask_cells(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
