"""An SVG picture of a Tak position: stacks drawn as towers seen from the side.

Each square shows its stack bottom to top as slabs; the top piece is a slab (flat), an
upright plank (wall) or a round capstone. Stacks taller than `SHOWN` show their top
pieces and a badge with the full height, filled with the top piece's colour. The last
move's squares are highlighted; the pieces in hand are listed above (black) and below
(white) the board. Parts carry classes (`piece flat white top`, `last`, `reserve black`)
and stacks `data-square` / `data-height`.
"""

from __future__ import annotations

from rules.svg import Svg
from rules.tak.move import FILES, Move
from rules.tak.position import Position

CELL = 64.0
LEFT = 26.0
STRIP = 34.0
#: pieces of a stack drawn at most (the rest is counted by the badge)
SHOWN = 8

COLOUR = ("white", "black")
FILL = ("#f7f3e8", "#2f2f33")
STROKE = ("#6b6254", "#101012")
_STEP = {"+": (0, 1), "-": (0, -1), ">": (1, 0), "<": (-1, 0)}


def move_squares(move: Move) -> list[tuple[int, int]]:
    """(file, rank) of every square a move touched: the placement, or origin and drops."""
    squares = [(move.file, move.rank)]
    if move.direction is not None:
        df, dr = _STEP[move.direction]
        for step in range(1, len(move.drops) + 1):
            squares.append((move.file + df * step, move.rank + dr * step))
    return squares


def tak_svg(
    position: Position,
    reserves: tuple[tuple[int, int], tuple[int, int]],
    last: Move | None = None,
    note: str = "",
) -> str:
    """The picture; `reserves` is ((white stones, caps), (black stones, caps)) in hand."""
    n = position.size
    board = n * CELL
    svg = Svg(LEFT + board + 10, STRIP + board + 20 + STRIP, title=position.tps())
    svg.add("rect", x=0, y=0, width=svg.width, height=svg.height, fill="#fbf8f1")
    top = STRIP
    marked = set(move_squares(last)) if last is not None else set()
    for rank in range(n):
        for file in range(n):
            x, y = LEFT + file * CELL, top + (n - 1 - rank) * CELL
            name = f"{FILES[file]}{rank + 1}"
            tint = "#e9dcc0" if (file + rank) % 2 else "#dfcfae"
            svg.add("rect", cls="square", x=x, y=y, width=CELL, height=CELL, fill=tint)
            if (file, rank) in marked:
                svg.add(
                    "rect",
                    cls="last",
                    data_square=name,
                    x=x + 2,
                    y=y + 2,
                    width=CELL - 4,
                    height=CELL - 4,
                    fill="#f3c623",
                    fill_opacity=0.45,
                    stroke="#c79a00",
                    stroke_width=2,
                )
            stack = position.stacks[rank * n + file]
            if stack:
                _stack(svg, x, y, name, stack)
    svg.add("rect", x=LEFT, y=top, width=board, height=board, fill="none", stroke="#7a6a4f")
    for i in range(n):
        svg.label(LEFT / 2, top + (n - 1 - i) * CELL + CELL / 2, str(i + 1), 13)
        svg.label(LEFT + i * CELL + CELL / 2, top + board + 10, FILES[i], 13)
    _reserve(svg, 1, reserves[1], 6, position.turn == 1, "")
    _reserve(svg, 0, reserves[0], top + board + 22, position.turn == 0, note)
    return svg.text()


def _stack(svg: Svg, x: float, y: float, name: str, stack: str) -> None:
    kind = stack[-1] if stack[-1] in "SC" else "F"
    colours = [int(c) - 1 for c in stack.rstrip("SC")]
    height = len(colours)
    shown = colours[-SHOWN:]
    top_extra = {"F": 0.0, "S": CELL * 0.42, "C": CELL * 0.36}[kind]
    slabs = len(shown) - (0 if kind == "F" else 1)
    thick = min(CELL * 0.17, (CELL * 0.64 - top_extra) / max(slabs, 1))
    width = CELL * 0.72
    left = x + (CELL - width) / 2
    base = y + CELL * 0.88
    svg.open_group(cls="stack", data_square=name, data_height=height)
    for i in range(slabs):
        colour = shown[i]
        is_top = kind == "F" and i == slabs - 1
        svg.add(
            "rect",
            cls=f"piece flat {COLOUR[colour]}" + (" top" if is_top else ""),
            x=left,
            y=base - (i + 1) * thick,
            width=width,
            height=thick - 1,
            rx=2,
            fill=FILL[colour],
            stroke=STROKE[colour],
        )
    surface = base - slabs * thick
    colour = colours[-1]
    if kind == "S":
        wide = CELL * 0.24
        svg.add(
            "rect",
            cls=f"piece wall {COLOUR[colour]} top",
            x=x + (CELL - wide) / 2,
            y=surface - top_extra,
            width=wide,
            height=top_extra - 1,
            rx=2,
            fill=FILL[colour],
            stroke=STROKE[colour],
            stroke_width=2,
        )
    elif kind == "C":
        radius = top_extra / 2
        svg.add(
            "circle",
            cls=f"piece cap {COLOUR[colour]} top",
            cx=x + CELL / 2,
            cy=surface - radius,
            r=radius - 1,
            fill=FILL[colour],
            stroke=STROKE[colour],
            stroke_width=2.5,
        )
    if height > 1:
        _badge(svg, x + CELL - 11, y + 11, str(height), colour)
    svg.close_group()


def _badge(svg: Svg, x: float, y: float, text: str, colour: int) -> None:
    svg.add("circle", cls="height", cx=x, cy=y, r=9.0, fill=FILL[colour], stroke=STROKE[colour])
    svg.label(x, y, text, 11, fill=FILL[1 - colour], font_weight="bold")


def _reserve(
    svg: Svg, colour: int, counts: tuple[int, int], y: float, to_move: bool, note: str
) -> None:
    stones, caps = counts
    svg.open_group(cls=f"reserve {COLOUR[colour]}", data_stones=stones, data_caps=caps)
    x = LEFT
    svg.add(
        "rect", x=x, y=y + 8, width=24, height=9, rx=2, fill=FILL[colour], stroke=STROKE[colour]
    )
    svg.label(x + 40, y + 12, f"{stones}", 14, font_weight="bold")
    svg.add("circle", cx=x + 70, cy=y + 12, r=7.0, fill=FILL[colour], stroke=STROKE[colour])
    svg.label(x + 88, y + 12, f"{caps}", 14, font_weight="bold")
    words = f"{COLOUR[colour]} in hand" + (" · to move" if to_move else "")
    svg.label(x + 104, y + 12, words, 13, text_anchor="start", cls="to-move" if to_move else None)
    if note:
        svg.label(svg.width - 10, y + 12, note, 13, text_anchor="end", font_weight="bold")
    svg.close_group()
