"""Alpha-beta search for Trike: negamax, iterative deepening, transposition table.

The searcher works on its own copy of the board (a bytearray, plus one bitboard per
colour for the evaluation in `bots.trike.bitboard`) with inline make/unmake, which is several
times faster than going through `TrikeGame.play`. Values are from the
side to act's point of view. `swap` is a move like any other: it clears the swap flag and
hands the same position (same colour to move) to the other seat, so its value is minus
the value of that position. Wins are scored `WIN - plies`, so shorter wins rank higher.

Leaves are refined before the static evaluation: a move that traps the pawn at once ends
the game, so a side that has a winning trapping move is scored as winning, and a side
whose every move traps the pawn is scored exactly.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bots.deepening import SearchAborted
from bots.trike.bitboard import BitEval
from rules.trike.game import SWAP, TrikeGame

WIN = 1_000_000
WIN_BOUND = WIN - 10_000
EXACT, LOWER, UPPER = 0, 1, 2
MAX_DEPTH = 200
#: time, nodes and the stop flag are checked every CHECK_MASK + 1 nodes (about 1 ms)
CHECK_MASK = 63
TT_LIMIT = 400_000  # entries (about 150 bytes each); cleared between moves beyond it


class Searcher:
    """One search over a snapshot of a TrikeGame; reusable TT across searches."""

    def __init__(self) -> None:
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.nodes = 0
        self.deadline = float("inf")
        self.node_limit = 0
        self.should_stop: Callable[[], bool] = lambda: False
        #: (value, move) of the best root move so far in the running iteration
        self.partial: tuple[int, int] | None = None
        self.bit_eval: BitEval | None = None

    # ---- setup --------------------------------------------------------------------
    def load(self, game: TrikeGame) -> None:
        geo = game.geo
        self.names = game.format_action
        self.board = bytearray(game.board)
        self.pawn = game.pawn
        self.colour = game.to_move
        self.swap_ok = game.swap_ok
        self.key = game.hash_key()
        self.rays = geo.rays
        self.neighbours = geo.neighbours
        self.z_checker = geo.zobrist_checker
        self.z_pawn = geo.zobrist_pawn
        self.z_side = geo.zobrist_o_to_move
        self.z_swap = geo.zobrist_swap
        if len(self.tt) > TT_LIMIT:
            self.tt.clear()
        if self.bit_eval is None or self.bit_eval.size != geo.size:
            self.bit_eval = BitEval(geo)
        self.evaluate_bits = self.bit_eval.evaluate
        cell_bit = self.bit_eval.bit
        self.cell_bit = cell_bit
        #: checkers as bitboards, indexed by colour (index 0 unused)
        self.bits = [0, 0, 0]
        for cell, colour in enumerate(self.board):
            if colour:
                self.bits[colour] |= cell_bit[cell]

    def moves(self) -> list[int]:
        board = self.board
        if self.pawn < 0:
            return [c for c in range(len(board)) if not board[c]]
        out = []
        for ray in self.rays[self.pawn]:
            for cell in ray:
                if board[cell]:
                    break
                out.append(cell)
        if self.swap_ok:
            out.append(SWAP)
        return out

    # ---- make / unmake ----------------------------------------------------------------
    def make(self, move: int) -> tuple[int, bool]:
        undo = (self.pawn, self.swap_ok)
        if self.swap_ok:
            self.key ^= self.z_swap
            self.swap_ok = False
        if move == SWAP:
            return undo
        if self.pawn >= 0:
            self.key ^= self.z_pawn[self.pawn]
        else:
            self.swap_ok = True
            self.key ^= self.z_swap
        self.board[move] = self.colour
        self.bits[self.colour] ^= self.cell_bit[move]
        self.key ^= self.z_checker[self.colour - 1][move] ^ self.z_pawn[move] ^ self.z_side
        self.pawn = move
        self.colour = 3 - self.colour
        return undo

    def unmake(self, move: int, undo: tuple[int, bool]) -> None:
        pawn, swap_ok = undo
        if move != SWAP:
            self.colour = 3 - self.colour
            self.board[move] = 0
            self.bits[self.colour] ^= self.cell_bit[move]
            self.key ^= self.z_checker[self.colour - 1][move] ^ self.z_pawn[move] ^ self.z_side
            if pawn >= 0:
                self.key ^= self.z_pawn[pawn]
            self.pawn = pawn
        if swap_ok != self.swap_ok:
            self.key ^= self.z_swap
        self.swap_ok = swap_ok

    # ---- leaves ---------------------------------------------------------------------------
    def trap_value(self, cell: int) -> int | None:
        """If moving to `cell` traps the pawn: +1 when the mover wins, -1 when not."""
        board = self.board
        near = self.neighbours[cell]
        own = 1
        other = 0
        for n in near:
            value = board[n]
            if not value:
                return None
            if value == self.colour:
                own += 1
            else:
                other += 1
        return 1 if own > other else -1

    def leaf(self, moves: list[int], ply: int) -> int:
        """Static value for the side to act, refined by immediate trapping moves."""
        free = False
        for move in moves:
            if move == SWAP:
                free = True
                continue
            trap = self.trap_value(move)
            if trap is None:
                free = True
            elif trap > 0:
                return WIN - ply - 1
        if not free:
            return -(WIN - ply - 1)
        return self.evaluate_bits(self.bits[1], self.bits[2], self.pawn, self.colour)

    def final_value(self, ply: int) -> int:
        """Value of a finished game (pawn trapped) for the side that cannot move."""
        board = self.board
        own = other = 0
        for cell in (self.pawn, *self.neighbours[self.pawn]):
            if board[cell] == self.colour:
                own += 1
            else:
                other += 1
        return WIN - ply if own > other else -(WIN - ply)

    # ---- search ---------------------------------------------------------------------------
    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self.nodes & CHECK_MASK == 0:
            self._check_limits()
        moves = self.moves()
        if not moves:
            return self.final_value(ply)
        if depth <= 0:
            return self.leaf(moves, ply)
        key = self.key
        entry = self.tt.get(key)
        best_move = -2
        if entry is not None:
            e_depth, e_flag, e_value, best_move = entry
            if e_depth >= depth:
                value = _from_tt(e_value, ply)
                if e_flag == EXACT:
                    return value
                if e_flag == LOWER and value >= beta:
                    return value
                if e_flag == UPPER and value <= alpha:
                    return value
        ordered = self.order(moves, best_move)
        alpha_start = alpha
        best = -WIN - 1
        best_move = ordered[0]
        for move in ordered:
            trap = self.trap_value(move) if move != SWAP else None
            if trap is not None:
                value = WIN - ply - 1 if trap > 0 else -(WIN - ply - 1)
            else:
                undo = self.make(move)
                if best == -WIN - 1:
                    value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                else:
                    # principal variation search: prove the move is no better, else re-search
                    value = -self.negamax(depth - 1, -alpha - 1, -alpha, ply + 1)
                    if alpha < value < beta:
                        value = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
                self.unmake(move, undo)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        if trap is None:  # a searched move that cut: remembered for ordering
                            self.history[move] = self.history.get(move, 0) + depth * depth
                        break
        flag = EXACT
        if best <= alpha_start:
            flag = UPPER
        elif best >= beta:
            flag = LOWER
        self.tt[key] = (depth, flag, _to_tt(best, ply), best_move)
        return best

    def order(self, moves: list[int], first: int) -> list[int]:
        history = self.history
        ordered = sorted(moves, key=lambda m: -history.get(m, 0))
        if first in moves:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered

    def root(self, depth: int, alpha: int, beta: int, first: int) -> tuple[int, int]:
        """Search the root at `depth`; (value, best move). `first` is tried first."""
        moves = self.moves()
        ordered = self.order(moves, first)
        best = -WIN - 1
        best_move = ordered[0]
        for move in ordered:
            self._check_limits()  # before each root move: a stop set early ends at once
            undo = self.make(move)
            value = -self.negamax(depth - 1, -beta, -max(alpha, best), 1)
            # (an abort leaves the board mid-search; the caller reloads the game)
            self.unmake(move, undo)
            if value > best:
                best, best_move = value, move
                self.partial = (best, best_move)
        self.tt[self.key] = (depth, EXACT, best, best_move)
        return best, best_move

    def principal_variation(self, first: int, limit: int) -> list[int]:
        line = [first]
        undos = [self.make(first)]
        while len(line) < limit:
            entry = self.tt.get(self.key)
            if entry is None or entry[3] not in self.moves():
                break
            line.append(entry[3])
            undos.append(self.make(entry[3]))
        for move, undo in zip(reversed(line), reversed(undos), strict=True):
            self.unmake(move, undo)
        return line

    def _check_limits(self) -> None:
        if (
            self.should_stop()
            or time.monotonic() >= self.deadline
            or (self.node_limit and self.nodes >= self.node_limit)
        ):
            raise SearchAborted


def _to_tt(value: int, ply: int) -> int:
    if value > WIN_BOUND:
        return value + ply
    if value < -WIN_BOUND:
        return value - ply
    return value


def _from_tt(value: int, ply: int) -> int:
    if value > WIN_BOUND:
        return value - ply
    if value < -WIN_BOUND:
        return value + ply
    return value
