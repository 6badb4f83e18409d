"""A plain-text picture of a Trike position, apex up, with ranks and files labelled."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.trike.geometry import FILES
from rules.trike.position import EMPTY, X

if TYPE_CHECKING:
    from rules.trike.game import TrikeGame


def render_board(game: TrikeGame) -> str:
    """The triangle: each rank on its own line (apex on top), files a-> from the left.

    `x`/`o` are checkers, `X`/`O` the checker under the pawn, `.` an empty cell. Cell
    (file c, rank r) is drawn at column 2(c-1) + (r-1), so the six lines of movement are
    the rows and the two diagonals of the picture.
    """
    size = game.size
    geo = game.geo
    label = len(str(size))
    lines: list[str] = []
    for rank in range(size, 0, -1):
        cells = []
        for file in range(1, size + 2 - rank):
            cell = geo.index(file, rank)
            colour = game.board[cell]
            symbol = "." if colour == EMPTY else ("x" if colour == X else "o")
            cells.append(symbol.upper() if cell == game.pawn else symbol)
        indent = " " * (rank - 1)
        lines.append(f"{rank:>{label}} {indent}{' '.join(cells)}")
    lines.append(f"{'':>{label}} {' '.join(FILES[:size])}")
    lines.append("")
    lines.append(_status(game))
    return "\n".join(lines)


def _status(game: TrikeGame) -> str:
    outcome = game.result
    owners = f"player1 is {game.colour_of(0)}, player2 is {game.colour_of(1)}"
    if outcome is not None:
        winner = outcome.winners[0]
        return (
            f"side {game.size}; pawn trapped at {game.geo.names[game.pawn]}: {outcome.code}, "
            f"player{winner + 1} wins ({owners})"
        )
    colour = "X" if game.to_move == X else "O"
    pawn = game.geo.names[game.pawn] if game.pawn >= 0 else "not placed"
    swap = "; swap allowed" if game.swap_ok else ""
    return (
        f"side {game.size}; {colour} to move (player{game.turn + 1}); pawn {pawn}{swap}; {owners}"
    )
