"""Tak and tinue: road threats and forced roads, found by an exact search.

Words used here, for a position where side A is to move:

* a **win** for A is a position where the game is over and A won (by road, or by flats
  when a move ends the game that way); a position the rules end otherwise is no win;
* a **threat move** of A is a legal move after which A has won, or the game goes on and A
  would have a road in one if it were A's turn again ("tak");
* A has a **tinue within K plies** when A can force a win in at most K plies (A's moves
  on plies 1, 3, 5, ...) playing threat moves only, whatever legal moves the opponent
  plays in between.

`solve(board, K)` decides exactly that: it searches every threat move of A and every
legal reply of the opponent, with no heuristic cut, and returns a proving line (A's
moves and the opponent's longest resistance) or None. Quiet moves of A (moves that
threaten nothing) are never searched, so a forced win that needs one is not found:
None means "no tinue within K by threat moves", not "no forced win".

The search judges by the board's rules alone (roads, flats, reserves); the game-level
functions (`tinue`, `is_tinue`) decline when a draw rule of the game's options
(repetition, rule50) could end the game within the line.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Final

from rules.game import GameError
from rules.tak.board import Board
from rules.tak.roads import neighbours

if TYPE_CHECKING:
    from rules.tak.game import TakGame
    from rules.tak.move import Move

#: plies `--tinue-adjudication` and `tinue()` look ahead by default
DEFAULT_PLIES: Final = 5
#: plies of `is_tinue` as the record marks use it: the reply and the road after it
MARK_PLIES: Final = 2
#: attacker positions between two looks at the clock of a solver call with a deadline
CLOCK_EVERY: Final = 16
#: entries a solver table holds before it is emptied (bounds its memory)
TABLE_LIMIT: Final = 200_000

#: (position hash, plies) -> proving line or None, for positions with the attacker to
#: move; may be kept from call to call (the positions of one game share subtrees)
Table = dict[tuple[int, int], list[int] | None]


def road_in_one(board: Board, colour: int) -> int | None:
    """A move that would give `colour` a road at once if it were its turn, or None."""
    if board.turn == colour:
        return board.winning_move()
    board.turn = colour  # winning_move only reads the turn; the hash is left as it is
    try:
        return board.winning_move()
    finally:
        board.turn = 1 - colour


def _flat_win(board: Board) -> int | None:
    """A move that ends the game on flats in the mover's favour, or None.

    Only a placement empties the mover's reserves (when one piece is left in hand), and
    a move fills at most `size` empty squares (a placement one, a slide those it drops
    on): the moves are tried only when one of these can happen.
    """
    mover = board.turn
    empties = board.t.squares - (board.white | board.black).bit_count()
    if empties > board.t.size and board.stones[mover] + board.capstones[mover] != 1:
        return None
    for code in board.moves():
        board.make(code)
        res = board.result()
        board.unmake(code)
        if res is not None and res[0] == mover:
            return code
    return None


def win_in_one(board: Board) -> int | None:
    """A move that wins the game at once for the side to move (road or flats), or None."""
    if board.ply < 2:
        return None
    win = board.winning_move()
    return win if win is not None else _flat_win(board)


class _OutOfBudget(GameError):
    """A solver call with a budget visited more positions than it allowed (caught by
    `solve`, never seen outside)."""


class _Search:
    """One solver call: the board searched in place and a table of proven positions."""

    def __init__(
        self, board: Board, table: Table | None, budget: int = 0, deadline: float = 0.0
    ) -> None:
        self.board = board
        self.attacker = board.turn
        self.table: Table = {} if table is None else table
        #: attacker positions still allowed (searched without a limit when 0), and the
        #: `time.monotonic()` at which to give up (checked every `CLOCK_EVERY` of them)
        self.budget = budget
        self.deadline = deadline

    def attack(self, plies: int) -> list[int] | None:
        """A proving line from here (attacker to move), or None."""
        board = self.board
        if plies < 1:
            return None
        if self.budget:
            self.budget -= 1
            if not self.budget or (
                self.deadline and not self.budget % CLOCK_EVERY and time.monotonic() > self.deadline
            ):
                raise _OutOfBudget
        win = win_in_one(board)
        if win is not None:
            return [win]
        if plies < 3:
            return None
        key = (board.hash, plies)
        if key in self.table:
            return self.table[key]
        found: list[int] | None = None
        attacker = self.attacker
        for code in board.moves():
            if (code >> 6) & 3 == 1:
                continue  # a wall placement never makes a threat where there was none
            board.make(code)
            # no result here: a winning move was found above, any other end is no win
            if board.result() is None:
                threat = road_in_one(board, attacker)
                if threat is not None:
                    line = self.defend(plies - 1, threat)
                    if line is not None:
                        found = [code, *line]
            board.unmake(code)
            if found is not None:
                break
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = found
        return found

    def defend(self, plies: int, threat: int | None = None) -> list[int] | None:
        """The defender to move: a line where every reply loses (the longest), or None.

        `threat`, a winning move the attacker would have now, is tried first after each
        reply: most replies leave it standing, and then no search is needed.
        """
        board = self.board
        attacker = self.attacker
        if win_in_one(board) is not None:
            return None
        longest: list[int] | None = None
        for code in self._replies():
            board.make(code)
            res = board.result()
            if res is not None:
                line: list[int] | None = [] if res[0] == attacker else None
            elif threat is not None and self._still_wins(threat):
                line = [threat]
            else:
                line = self.attack(plies - 1)
                if line is not None and len(line) == 1:
                    threat = line[0]
            board.unmake(code)
            if line is None:
                return None
            if longest is None or len(line) + 1 > len(longest):
                longest = [code, *line]
        return longest

    def _still_wins(self, code: int) -> bool:
        """Whether placement `code` is legal and makes a road for the side to move."""
        board = self.board
        kind = (code >> 6) & 3
        if kind == 3 or ((board.white | board.black) >> (code & 63)) & 1:
            return False
        turn = board.turn
        if not (board.capstones[turn] if kind == 2 else board.stones[turn]):
            return False
        board.make(code)
        won = board.has_road(turn)
        board.unmake(code)
        return won

    def _replies(self) -> list[int]:
        """The defender's moves, those touching the attacker's road squares first (the
        likely defences: an escape found early ends the node)."""
        board = self.board
        target = board.road_bits(self.attacker)
        target |= neighbours(board.t, target)
        first: list[int] = []
        rest: list[int] = []
        for code in board.moves():
            (first if (1 << (code & 63)) & target or (code >> 6) & 3 == 3 else rest).append(code)
        return first + rest


def solve(
    board: Board,
    plies: int = DEFAULT_PLIES,
    table: Table | None = None,
    budget: int = 0,
    deadline: float = 0.0,
) -> list[int] | None:
    """The side to move's tinue within `plies` plies as move codes, or None.

    The board is searched in place and left as it was. The line starts with the
    attacker's move and alternates; it ends with the winning move (or with a defender
    move that loses at once). With a `budget` (> 0) the search gives up after visiting
    that many positions of the attacker, or at `deadline` (`time.monotonic()`, if
    given), and returns None (on a copy of the board; the table keeps only what was
    proven).
    """
    if board.ply < 2 or board.result() is not None or plies < 1:
        return None
    if not budget:
        return _Search(board, table).attack(plies)
    try:
        return _Search(board.copy(), table, budget, deadline).attack(plies)
    except _OutOfBudget:
        return None


def defended(board: Board, plies: int = MARK_PLIES) -> list[int] | None:
    """With the defender to move: a line showing that every reply loses within `plies`
    plies (the reply is ply 1) to threat moves of the other side, or None."""
    if board.ply < 2 or board.result() is not None or plies < 2:
        return None
    search = _Search(board, None)
    search.attacker = 1 - board.turn
    return search.defend(plies)


# ---- the game-level view ------------------------------------------------------------
def _draw_rules_allow(game: TakGame, plies: int) -> bool:
    """False when a draw rule of the game could end it within `plies` plies."""
    if game.options.rule50 and game.quiet_plies + plies >= 50:
        return False
    return not (game.options.repetition and max(game.position_counts().values()) >= 2)


def tinue(
    game: TakGame, plies: int = DEFAULT_PLIES, table: Table | None = None
) -> tuple[Move, ...] | None:
    """The side to move's tinue within `plies` plies (see the module docstring) as
    moves, or None (also when a draw rule could end the game within the line).
    `table`, kept by the caller from one position of a game to the next, saves work."""
    if game.result is not None or not _draw_rules_allow(game, plies):
        return None
    line = solve(game.fast_board(), plies, table)
    return None if line is None else tuple(game.move_of(code) for code in line)


def is_tak(game: TakGame) -> bool:
    """Whether the side that just moved threatens a road in one (the game going on).
    Judged on the position alone, so also on a game set up from a position string."""
    if game.result is not None:
        return False
    board = game.fast_board()
    return board.ply >= 2 and road_in_one(board, 1 - board.turn) is not None


def is_tinue(game: TakGame, plies: int = MARK_PLIES) -> bool:
    """Whether the side to move loses within `plies` plies (its reply is ply 1) to a
    tinue of the side that just moved, whatever it replies."""
    if game.result is not None or not _draw_rules_allow(game, plies):
        return False
    return defended(game.fast_board(), plies) is not None


def mark(game: TakGame) -> str:
    """The PTN mark of the move just played: `''` tinue, `'` tak, else ""."""
    if not is_tak(game):
        return ""
    return "''" if is_tinue(game) else "'"
