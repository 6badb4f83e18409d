"""The triangular hex board of side N: cells, names, neighbours and precomputed rays.

A cell is (file c, rank r) with 1 <= c, r and c + r <= N + 1; it is written as the file
letter `a`..`s` followed by the rank, e.g. `d2`. Rank 1 is the bottom edge, `aN` the apex.
Cells are numbered in position-string order: ranks from the apex (rank N) down to rank 1,
files a-> within a rank, so the apex is 0 and the bottom row holds the last N numbers.
"""

from __future__ import annotations

import functools
import random

import attrs

from rules.trike.errors import CellError, TrikeOptionError

MIN_SIZE = 3
MAX_SIZE = 19
FILES = "abcdefghijklmnopqrs"

#: the six directions (dc, dr): right, left, up-right, down-left, down-right, up-left
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@attrs.frozen(eq=False)
class Geometry:
    """Everything about a board of side `size` that does not change during a game."""

    size: int
    #: (file, rank) of each cell, 1-based
    coords: tuple[tuple[int, int], ...]
    names: tuple[str, ...]
    #: on-board neighbours of each cell
    neighbours: tuple[tuple[int, ...], ...]
    #: for each cell, the non-empty rays: cells along one direction, nearest first
    rays: tuple[tuple[tuple[int, ...], ...], ...]
    #: for each cell, target cell -> the cells passed on the way there (target included)
    paths: tuple[dict[int, tuple[int, ...]], ...]
    #: random 64-bit keys: [colour 1 / 2][cell], pawn[cell], side and swap flags
    zobrist_checker: tuple[tuple[int, ...], tuple[int, ...]]
    zobrist_pawn: tuple[int, ...]
    zobrist_o_to_move: int
    zobrist_swap: int

    @property
    def cells(self) -> int:
        return len(self.coords)

    def index(self, file: int, rank: int) -> int:
        """Cell number of (file, rank); CellError if it is off the board."""
        if not self.on_board(file, rank):
            raise CellError(f"cell ({file}, {rank}) is not on a side-{self.size} board")
        y = self.size - rank
        return y * (y + 1) // 2 + file - 1

    def on_board(self, file: int, rank: int) -> bool:
        return file >= 1 and rank >= 1 and file + rank <= self.size + 1

    def parse_cell(self, text: str) -> int:
        """Cell number of a name like `d2` (case-insensitive); CellError names bad input."""
        word = text.strip().lower()
        if len(word) < 2 or word[0] not in FILES or not word[1:].isdigit():
            raise CellError(f"{text!r} is not a cell name (a file letter and a rank, e.g. d2)")
        file = FILES.index(word[0]) + 1
        rank = int(word[1:])
        if not self.on_board(file, rank):
            raise CellError(
                f"cell {word!r} is not on a side-{self.size} board "
                f"(cells need file + rank <= {self.size + 1})"
            )
        return self.index(file, rank)


def _build(size: int) -> Geometry:
    coords: list[tuple[int, int]] = []
    for rank in range(size, 0, -1):
        for file in range(1, size + 2 - rank):
            coords.append((file, rank))
    number = {cell: i for i, cell in enumerate(coords)}
    neighbours: list[tuple[int, ...]] = []
    rays: list[tuple[tuple[int, ...], ...]] = []
    paths: list[dict[int, tuple[int, ...]]] = []
    for file, rank in coords:
        near = []
        cell_rays = []
        cell_paths: dict[int, tuple[int, ...]] = {}
        for dc, dr in DIRECTIONS:
            ray: list[int] = []
            c, r = file + dc, rank + dr
            while (c, r) in number:
                ray.append(number[(c, r)])
                cell_paths[number[(c, r)]] = tuple(ray)
                c, r = c + dc, r + dr
            if ray:
                near.append(ray[0])
                cell_rays.append(tuple(ray))
        neighbours.append(tuple(near))
        rays.append(tuple(cell_rays))
        paths.append(cell_paths)
    rng = random.Random(f"trike-{size}")
    cells = len(coords)

    def keys() -> tuple[int, ...]:
        return tuple(rng.getrandbits(64) for _ in range(cells))

    return Geometry(
        size=size,
        coords=tuple(coords),
        names=tuple(f"{FILES[f - 1]}{r}" for f, r in coords),
        neighbours=tuple(neighbours),
        rays=tuple(rays),
        paths=tuple(paths),
        zobrist_checker=(keys(), keys()),
        zobrist_pawn=keys(),
        zobrist_o_to_move=rng.getrandbits(64),
        zobrist_swap=rng.getrandbits(64),
    )


@functools.cache
def geometry(size: int) -> Geometry:
    """The (cached) geometry of a side-`size` board, 3 <= size <= 19."""
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise TrikeOptionError(
            f"board side {size} is out of range {MIN_SIZE}..{MAX_SIZE}", "size", str(size)
        )
    return _build(size)
