"""A plain-text picture of a Traxit position (for `tei show`)."""

from __future__ import annotations

from rules.traxit.board import FILES, LEVEL, xy_cell
from rules.traxit.state import CHOOSE, END, MOVE, PLACE, TRAXIT, Layout, State, actor
from rules.traxit.tiles import TILE_COUNT, TILE_IDS

_LEVEL_MARK = ("", "·", "-", "+", "^")


def doing(layout: Layout, st: State) -> str:
    """What happens next: `set 1/4, round 2/4: R moves with T03 (acting: R)`."""
    owner = layout.owners[st.mover]
    chooser = layout.owners[(st.mover - 1) % layout.players]
    tile = TILE_IDS[st.tile] if st.tile >= 0 else ""
    what = {
        PLACE: f"{owner} places a pawn",
        CHOOSE: f"{chooser} chooses a tile for {owner}",
        MOVE: f"{owner} moves with {tile}",
        TRAXIT: f"{owner} is TRAXIT with {tile}: {chooser} relocates a pawn of {owner}",
        END: "game over",
    }[st.phase]
    shape = f"set {st.set_no}/{layout.sets}, round {st.round_no}/{layout.rounds}"
    acting = "" if st.phase == END else f" (acting: {layout.owners[actor(layout, st)]})"
    return f"{shape}: {what}{acting}"


def render(layout: Layout, st: State) -> str:
    """Board (empty cells show their level: · 1, - 2, + 3, ^ 4), then seats and tiles."""
    grid = {}
    for index, cell in enumerate(st.pawns):
        if cell >= 0:
            grid[cell] = layout.owners[index // 2]
    lines = []
    for y in range(7, -1, -1):
        row = []
        for x in range(8):
            cell = xy_cell(x, y)
            if layout.obstacles >> cell & 1:
                row.append("x")
            else:
                row.append(grid.get(cell, _LEVEL_MARK[LEVEL[cell]]))
        lines.append(f"{y + 1}  " + " ".join(row))
    lines.append("   " + " ".join(FILES))
    lines.append("")
    lines.append(doing(layout, st))
    for seat, name in enumerate(layout.owners):
        team = f" team {'AB'[seat % 2]}" if layout.teams else ""
        left = [TILE_IDS[t] for t in range(TILE_COUNT) if st.paths[seat] >> t & 1]
        bonus = " +bonus" if st.bonus[seat] == 1 else ""
        lines.append(
            f"{name}@{layout.sides[seat]}{team}: {st.scores[seat]} points{bonus}; "
            f"tiles {' '.join(left) or '-'}"
        )
    return "\n".join(lines)
