"""Traxit actions: one token each, so a game is a plain token list.

`@b1`  setup: the placing player puts a pawn on b1
`T08`  the chooser gives tile T08 to the player who moves next
`c1-f2` the mover moves its pawn from c1 to f2 along the given tile
`!e4-h2` TRAXIT: the mover had no move, the chooser relocates its pawn e4 to edge cell h2
"""

from __future__ import annotations

from typing import Literal

import attrs

from rules.game import NotationError
from rules.traxit.board import CELLS, cell_name, parse_cell
from rules.traxit.tiles import TILE_COUNT, TILE_IDS, parse_tile

Kind = Literal["place", "choose", "move", "relocate"]


@attrs.frozen
class Action:
    """One action. `src`/`dst` are cells; for `choose`, `src` is the tile index."""

    kind: Kind
    src: int
    dst: int

    def __str__(self) -> str:
        if self.kind == "place":
            return "@" + cell_name(self.dst)
        if self.kind == "choose":
            return TILE_IDS[self.src]
        text = f"{cell_name(self.src)}-{cell_name(self.dst)}"
        return "!" + text if self.kind == "relocate" else text

    @staticmethod
    def parse(text: str) -> Action:
        """Parse one token; NotationError naming the text when it is malformed."""
        token = text.strip()
        try:
            if token.startswith("@"):
                return place(parse_cell(token[1:].lower()))
            if token[:1] in ("T", "t"):
                return choose(parse_tile(token))
            relocating = token.startswith("!")
            body = token[1:] if relocating else token
            src_text, sep, dst_text = body.partition("-")
            if not sep:
                raise ValueError("expected @cell, a tile T01..T16, from-to or !from-to")
            src, dst = parse_cell(src_text.lower()), parse_cell(dst_text.lower())
        except ValueError as exc:
            raise NotationError(f"bad Traxit action {text!r}: {exc}") from None
        return RELOCATES[src][dst] if relocating else MOVES[src][dst]


PLACES: tuple[Action, ...] = tuple(Action("place", -1, c) for c in range(CELLS))
CHOICES: tuple[Action, ...] = tuple(Action("choose", t, -1) for t in range(TILE_COUNT))
MOVES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("move", a, b) for b in range(CELLS)) for a in range(CELLS)
)
RELOCATES: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("relocate", a, b) for b in range(CELLS)) for a in range(CELLS)
)


def place(cell: int) -> Action:
    return PLACES[cell]


def choose(tile: int) -> Action:
    return CHOICES[tile]
