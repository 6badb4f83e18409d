"""An SVG picture of a Trike position: the triangle of hexes, apex up.

Checkers are discs (`checker x` dark red, `checker o` light blue); the pawn is a black
ring on its cell (`pawn`); the last action's cell is highlighted (`last`). Ranks are
labelled on the left edge, files below the bottom row.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from rules.svg import Svg
from rules.trike.geometry import FILES
from rules.trike.position import EMPTY, X

if TYPE_CHECKING:
    from rules.trike.game import TrikeGame

FILL = {1: "#b8322c", 2: "#8fc3e8"}
STROKE = {1: "#5e1411", 2: "#2d6a92"}


def trike_svg(game: TrikeGame, last: int | None = None, note: str = "") -> str:
    """The picture of `game`'s position; `last` is the cell to highlight (or None)."""
    size = game.size
    radius = max(8.0, min(24.0, 320.0 / size))
    w = math.sqrt(3) * radius
    left, top = 30.0, 16.0 + radius
    width = left + size * w + 16
    height = top + (size - 1) * 1.5 * radius + 1.6 * radius + 70
    svg = Svg(width, height, title=game.position_string())
    svg.add("rect", x=0, y=0, width=width, height=height, fill="#fbf8f1")
    for cell, (file, rank) in enumerate(game.geo.coords):
        cx = left + w / 2 + (file - 1) * w + (rank - 1) * w / 2
        cy = top + (size - rank) * 1.5 * radius
        corners = " ".join(
            f"{cx + radius * math.cos(math.radians(a)):.1f},"
            f"{cy + radius * math.sin(math.radians(a)):.1f}"
            for a in range(30, 390, 60)
        )
        name = game.geo.names[cell]
        marked = cell == last
        svg.add(
            "polygon",
            cls="cell last" if marked else "cell",
            data_cell=name,
            points=corners,
            fill="#f3d36b" if marked else "#e6dcc6",
            stroke="#9c8c6c",
        )
        colour = game.board[cell]
        if colour != EMPTY:
            svg.add(
                "circle",
                cls=f"checker {'x' if colour == X else 'o'}",
                data_cell=name,
                cx=cx,
                cy=cy,
                r=radius * 0.62,
                fill=FILL[colour],
                stroke=STROKE[colour],
                stroke_width=1.5,
            )
        if cell == game.pawn:
            svg.add(
                "circle",
                cls="pawn",
                data_cell=name,
                cx=cx,
                cy=cy,
                r=radius * 0.36,
                fill="none",
                stroke="#111",
                stroke_width=max(2.0, radius * 0.16),
            )
        if file == 1:
            svg.label(cx - w * 0.85, cy, str(rank), max(9.0, radius * 0.55))
        if rank == 1:
            svg.label(cx, cy + radius * 1.45, FILES[file - 1], max(9.0, radius * 0.55))
    _legend(svg, game, height - 24, note)
    return svg.text()


def _legend(svg: Svg, game: TrikeGame, y: float, note: str) -> None:
    """One line per seat (its colour, who moves), then the result."""
    for seat in (0, 1):
        colour = 1 if game.colour_of(seat) == "X" else 2
        line = y - 26 + seat * 18
        svg.add("circle", cx=18.0, cy=line, r=7.0, fill=FILL[colour], stroke=STROKE[colour])
        turn = " · to move" if game.result is None and game.turn == seat else ""
        text = f"player{seat + 1} {game.colour_of(seat)}{turn}"
        svg.label(30, line, text, 12, text_anchor="start")
    if note:
        svg.label(12, y + 12, note, 12, text_anchor="start", font_weight="bold")
