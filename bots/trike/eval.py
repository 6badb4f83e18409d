"""Static evaluation of a Trike position for the colour to move.

The pawn only ever travels through empty cells, so the game must end inside the region
of empty cells connected to the pawn. For every cell of that region the evaluation asks
who would win if the pawn got trapped there: each occupied neighbour counts for its
colour, and cells with fewer empty neighbours (whose outcome is nearly settled) weigh
more. The sum, own minus opponent, is the score in hundredths of a checker.

The side that just moved has put a checker next to up to six empty cells, so the raw sum
leans towards it (by about 30 on random positions of sides 7 to 13). `TEMPO` gives that
back to the side to move, so that odd and even search depths agree on the sign of a
position, which is what the swap decision reads.
"""

from __future__ import annotations

from collections.abc import Sequence

#: weight of a region cell by its number of empty neighbours (0..6)
CERTAINTY: tuple[int, ...] = (60, 35, 20, 12, 8, 6, 4)
#: bonus of the side to move (see the module docstring)
TEMPO = 30


def region(board: bytearray, pawn: int, neighbours: Sequence[Sequence[int]]) -> list[int]:
    """The empty cells connected to the pawn's cell through empty cells."""
    seen = {pawn}
    stack = [n for n in neighbours[pawn] if not board[n]]
    seen.update(stack)
    out: list[int] = []
    while stack:
        cell = stack.pop()
        out.append(cell)
        for n in neighbours[cell]:
            if n not in seen and not board[n]:
                seen.add(n)
                stack.append(n)
    return out


def evaluate(board: bytearray, pawn: int, colour: int, neighbours: Sequence[Sequence[int]]) -> int:
    """Score of the position for `colour` (1 = X, 2 = O) to move, in centi-checkers."""
    total = TEMPO
    for cell in region(board, pawn, neighbours):
        own = other = empty = 0
        for n in neighbours[cell]:
            value = board[n]
            if not value:
                empty += 1
            elif value == colour:
                own += 1
            else:
                other += 1
        total += (own - other) * CERTAINTY[empty]
    return total
