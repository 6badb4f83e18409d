"""An SVG picture of a Traxit position: the pyramid's levels, obstacles and pawns.

Cells are shaded by level (`cell level-1` .. `level-4`, darker to the top), obstacles
are dark blocks (`obstacle`), pawns discs in their owner's colour (`pawn R`, `pawn G`,
...). The last move's cells are highlighted (`last`); below the board each seat's
points and tiles left, and what happens next.
"""

from __future__ import annotations

from rules.svg import Svg
from rules.traxit.actions import Action
from rules.traxit.board import FILES, LEVEL, cell_name, xy_cell
from rules.traxit.render import doing
from rules.traxit.state import Layout, State
from rules.traxit.tiles import TILE_COUNT, TILE_IDS

CELL = 50.0
LEFT = 24.0
TOP = 10.0
LEVEL_FILL = ("", "#f1e9d6", "#dfcfaa", "#c9b283", "#ab9160")
PAWN_FILL = {"R": "#c62828", "B": "#1f5bb8", "G": "#2e8b3a", "Y": "#e6bd00"}


def traxit_svg(layout: Layout, st: State, last: Action | None = None, note: str = "") -> str:
    """The picture of state `st`; `last` is the action whose cells are highlighted."""
    board = 8 * CELL
    lines = 2 + layout.players
    svg = Svg(LEFT + board + 10, TOP + board + 24 + 18 * lines, title=doing(layout, st))
    svg.add("rect", x=0, y=0, width=svg.width, height=svg.height, fill="#fbf8f1")
    marked = set()
    if last is not None and last.kind != "choose":
        marked = {last.dst} if last.kind == "place" else {last.src, last.dst}
    owner_of = {cell: layout.owners[i // 2] for i, cell in enumerate(st.pawns) if cell >= 0}
    for y in range(8):
        for x in range(8):
            cell = xy_cell(x, y)
            px, py = LEFT + x * CELL, TOP + (7 - y) * CELL
            level = LEVEL[cell]
            name = cell_name(cell)
            svg.add(
                "rect",
                cls=f"cell level-{level}",
                data_cell=name,
                x=px,
                y=py,
                width=CELL,
                height=CELL,
                fill=LEVEL_FILL[level],
                stroke="#8c7a58",
                stroke_width=0.6,
            )
            if layout.obstacles >> cell & 1:
                inset = CELL * 0.14
                svg.add(
                    "rect",
                    cls="obstacle",
                    data_cell=name,
                    x=px + inset,
                    y=py + inset,
                    width=CELL - 2 * inset,
                    height=CELL - 2 * inset,
                    rx=4,
                    fill="#4a4036",
                    stroke="#221c16",
                )
            elif cell in owner_of:
                owner = owner_of[cell]
                svg.add(
                    "circle",
                    cls=f"pawn {owner}",
                    data_cell=name,
                    cx=px + CELL / 2,
                    cy=py + CELL / 2,
                    r=CELL * 0.33,
                    fill=PAWN_FILL.get(owner, "#777"),
                    stroke="#1b1b1b",
                    stroke_width=1.5,
                )
    for cell in sorted(marked):
        x, y = cell % 8, cell // 8
        svg.add(
            "rect",
            cls="last",
            data_cell=cell_name(cell),
            x=LEFT + x * CELL + 1.5,
            y=TOP + (7 - y) * CELL + 1.5,
            width=CELL - 3,
            height=CELL - 3,
            fill="none",
            stroke="#e8a900",
            stroke_width=3,
        )
    for i in range(8):
        svg.label(LEFT / 2, TOP + (7 - i) * CELL + CELL / 2, str(i + 1), 12)
        svg.label(LEFT + i * CELL + CELL / 2, TOP + board + 10, FILES[i], 12)
    _legend(svg, layout, st, TOP + board + 30, note)
    return svg.text()


def _legend(svg: Svg, layout: Layout, st: State, y: float, note: str) -> None:
    svg.label(LEFT, y, doing(layout, st), 12, text_anchor="start")
    for seat, owner in enumerate(layout.owners):
        line = y + 18 * (seat + 1)
        svg.add("circle", cx=LEFT + 6, cy=line, r=6.0, fill=PAWN_FILL.get(owner, "#777"))
        left = sum(1 for t in range(TILE_COUNT) if st.paths[seat] >> t & 1)
        bonus = " +bonus" if st.bonus[seat] == 1 else ""
        tile = f", holds {TILE_IDS[st.tile]}" if st.tile >= 0 and st.mover == seat else ""
        text = f"{owner}@{layout.sides[seat]}: {st.scores[seat]} points{bonus}, {left} tiles{tile}"
        svg.label(LEFT + 18, line, text, 12, text_anchor="start", cls=f"score {owner}")
    if note:
        svg.label(
            LEFT, y + 18 * (layout.players + 1), note, 12, text_anchor="start", font_weight="bold"
        )
