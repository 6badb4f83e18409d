"""Tak roads and tinues around one move, told by the rules core (no engine, no I/O).

For the move from `before` to `after` (`rules.tak.tinue`): the mover **missed** a road in
one (a win in one) or a road in two (a tinue within 3 plies) it had, unless the move keeps
the win; it **walked into** one when the opponent has it after the move and the mover was
not already lost before it ("did not stop" a road in one the opponent threatened already).
A tinue the engine claims (a proven win in N plies) is confirmed by the solver (threat
moves only, within a budget) before it is told.
"""

from __future__ import annotations

from rules.tak.game import TakGame
from rules.tak.tinue import is_tinue, road_in_one, solve, win_in_one

#: positions of the attacker a solver call may visit (bounds the time of one check)
BUDGET = 20_000
#: the longest engine-claimed win (plies) the solver is asked to confirm
CLAIM_PLIES = 7


def _win_name(game: TakGame) -> str:
    board = game.fast_board()
    return "road" if road_in_one(board, board.turn) is not None else "flat win"


def _tinue(game: TakGame, plies: int) -> bool:
    """Whether the side to move has a tinue within `plies` (budgeted)."""
    if game.result is not None:
        return False
    return solve(game.fast_board(), plies, budget=BUDGET) is not None


def _keeps_win(after: TakGame, mover: int, plies: int) -> bool:
    """After the mover's move: it won, or the opponent loses within `plies` whatever."""
    if after.result is not None:
        return after.result.points(mover) == 1
    return is_tinue(after, plies)


def notes(before: TakGame, after: TakGame, claim: int | None = None) -> list[str]:
    """What the rules say of the move from `before` to `after`; `claim`: the plies of a
    win the engine claims for the mover in `before` (confirmed here before it is told)."""
    mover = before.turn
    out = []
    if before.result is None and win_in_one(before.fast_board()) is not None:
        if not _keeps_win(after, mover, 2):
            out.append(f"missed {_win_name(before)} in one")
    elif _tinue(before, 3):
        if not _keeps_win(after, mover, 2):
            out.append("missed road in two")
    elif (
        claim is not None
        and 3 < claim <= CLAIM_PLIES
        and _tinue(before, claim)
        and not _keeps_win(after, mover, claim - 1)
    ):
        out.append(f"missed tinue in {claim}")
    if after.result is None and not is_tinue(before, 4):
        if win_in_one(after.fast_board()) is not None:
            board = before.fast_board()
            threatened = board.ply >= 2 and road_in_one(board, 1 - mover) is not None
            verb = "did not stop" if threatened else "walked into"
            out.append(f"{verb} {_win_name(after)} in one")
        elif _tinue(after, 3):
            out.append("walked into road in two")
    return out
