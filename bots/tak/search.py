"""Alpha-beta search for Tak: negamax with principal variation search, on the fast board.

* a transposition table of `TT_SLOTS` slots (bounded memory), indexed by the low bits
  of the board's incremental Zobrist hash, each holding (hash, depth, bound, value, best
  move, search number); a store replaces the slot's entry when it is for the same
  position, from an earlier search, or not deeper (depth-preferred with ageing);
* aspiration windows at the root (`Searcher.root`) from depth `ASPIRATION_DEPTH`,
  around the value two iterations back; a side that fails is widened (`widened`);
* move ordering: the table's move, two killers per ply, the counter move (the reply
  that last cut off after the opponent's last move), then a history table seeded with a
  static prior (`bots.tak.ordering.prior_scores`);
* late move reductions (`bots.tak.ordering.lmr_table`) for quiet moves searched late at
  depth >= 3 (not the killers nor the counter move), and late move pruning one and two
  plies from the horizon of null-window searches;
* reverse futility pruning one to three plies from the horizon of null-window searches:
  a static value at least `futility` centi-flats a ply above beta fails high (not under
  a road threat);
* null-move pruning on boards of 6x6 and larger: in a null-window search at depth >= 3 whose
  static value is at least beta, the side to move passes and a search two plies
  shallower decides whether the node fails high (not in the endgame, nor under a road
  threat, nor twice in a line);
* static evaluations cached by position hash;
* exact win-in-one at every node: a placement that completes a road is found with four
  flood fills (`bots.tak.eval.win_squares`), so such nodes are scored as wins without search;
* an optional threat extension at the horizon: when the opponent threatens a road in
  one, the side to move gets one more ply to find its block, up to `max_ply` (0, the
  default of the bot, turns it off: it did not pay off at blitz time controls);
* the optional draw rules of the game when they are on (`set_draw_rules`,
  `bots.tak.draws`): the positions they end score as draws;
* values are centi-flats from the side to move's view; wins are `WIN - plies`.

The searcher raises `SearchAborted` from deep inside when the stop event is set, the
deadline has passed or the node limit is reached; the caller keeps the best root move
of the last finished iteration (or a better one proven in the unfinished one).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final

from bots.deepening import SearchAborted
from bots.tak.draws import DrawRules
from bots.tak.eval import ENDGAME, spread_threat, static, step_wins, win_squares
from bots.tak.ordering import LMR_DEPTHS, LMR_MOVES, lmr_table, prior_scores
from rules.tak.board import DRAW, Board
from rules.tak.tables import KIND_SHIFT

WIN: Final = 1_000_000
WIN_BOUND: Final = WIN - 10_000
INF: Final = WIN + 1
EXACT: Final = 0
LOWER: Final = 1
UPPER: Final = 2
MAX_PLY: Final = 128
#: the bit of a threat set (`Searcher.threat_squares`) that stands for a road in one by a
#: spread of the opponent (beyond every square: no placement blocks it, it counts once)
SPREAD_THREAT: Final = 1 << 64
#: the least depth left at which the opponent's spreads are looked for (they cost a few
#: microseconds a node: near the leaves more than they save)
SPREAD_DEPTH: Final = 2
MAX_EXTENSION: Final = 8
TT_LIMIT: Final = 1_500_000  # static evaluations cached (the cache is emptied beyond it)
#: transposition table slots (a power of two; about 120 bytes each when filled)
TT_SLOTS: Final = 1 << 19
CHECK_EVERY: Final = 128
LMP_BASE: Final = 8
#: reverse futility pruning: the deepest remaining depth it applies to, and the margin
#: per ply of the default (centi-flats; 0 turns it off)
FUTILITY_DEPTH: Final = 3
FUTILITY_MARGIN: Final = 110
#: aspiration windows: the first depth with a window around the value two iterations
#: back, and its half width (centi-flats; see `widened`)
ASPIRATION_DEPTH: Final = 4
ASPIRATION_WINDOW: Final = 60

#: the smallest board on which the search prunes with null moves: on 8x8 it won a match
#: against the search without it (75% of 20 games), on 6x6 (with reverse futility
#: pruning) it gained against the first release; on 5x5 it showed no gain
NULL_MOVE_MIN_SIZE: Final = 6


def widened(center: int, width: int, value: int, side: int) -> tuple[int, int]:
    """(width, bound) of an aspiration window's `side` (1 upper, -1 lower) failed at
    `value`: twice the width, then open (at once if `value` is a win or a loss)."""
    width *= 2
    if width > 2 * ASPIRATION_WINDOW or abs(value) > WIN_BOUND:
        return width, side * INF
    return width, center + side * width


class Searcher:
    """Searches one board; tables (TT, history) persist from move to move in a game."""

    def __init__(self) -> None:
        #: slots of (hash, depth, bound, value, move, search number), or None
        self.tt: list[tuple[int, int, int, int, int, int] | None] = [None] * TT_SLOTS
        self.tt_mask = TT_SLOTS - 1
        #: the number of the running search (entries of older ones are replaced first)
        self.generation = 0
        #: static evaluations by position hash
        self.evals: dict[int, int] = {}
        self.size = 0
        self.prior: list[int] = []
        self.order: list[list[int]] = []
        self.touched: set[int] = set()
        self.killers = [[0, 0] for _ in range(MAX_PLY + 8)]
        #: counter moves by side to move and the opponent's last move code (0: none)
        self.counters: list[list[int]] = [[], []]
        #: the move code that reached each ply from the root (0: the root, a null move)
        self.line = [0] * (MAX_PLY + 8)
        #: the values of the last two finished iterations (aspiration windows: `root`)
        self.last_value = 0
        self.second_value = 0
        self.finished = 0
        self.nodes = 0
        self.next_check = CHECK_EVERY
        self.node_limit = 0
        self.deadline = float("inf")
        self.should_stop: Callable[[], bool] = lambda: False
        self.board: Board | None = None
        #: late move reductions (`lmr_table`: built here, before the first search's clock runs)
        self.lmr: list[list[int]] = lmr_table()
        self.max_ply = MAX_PLY
        #: (value, move) of the best root move so far in the running iteration
        self.partial: tuple[int, int] | None = None
        self.root_moves: list[int] = []
        #: late move pruning thresholds by depth (set per size)
        self.lmp = [0, 0, 0]
        #: the optional draw rules (see `set_draw_rules`); `rules` is true if either is on
        self.rules = False
        self.draws = DrawRules(MAX_PLY + 8)
        #: null-move pruning (see `search`) on boards of at least this size
        self.null_min_size = NULL_MOVE_MIN_SIZE
        self.null_move = False
        #: reverse futility pruning's margin per ply (0: off)
        self.futility = FUTILITY_MARGIN
        #: true while searching below a null move
        self.in_null = False

    def set_draw_rules(
        self, repetition: bool, rule50: bool, seen: dict[int, int], quiet: int
    ) -> None:
        """Turn the game's optional draw rules on or off for the next search
        (`bots.tak.draws.DrawRules.set`)."""
        self.rules = self.draws.set(repetition, rule50, seen, quiet)

    # ---- setup ----------------------------------------------------------------------
    def load(self, board: Board) -> None:
        """Prepare a new search from `board` (the searcher plays on it)."""
        if board.size != self.size:
            self.size = board.size
            self.prior = prior_scores(board.size)
            self.lmp = [0, LMP_BASE + 2 * board.size, 2 * LMP_BASE + 4 * board.size]
            self.order = [self.prior[:], self.prior[:]]
            self.counters = [[0] * len(self.prior), [0] * len(self.prior)]
            self.touched = set()
            if self.generation:  # a fresh searcher's table is empty already
                self.tt = [None] * TT_SLOTS
                self.evals.clear()
        else:
            self._age_history()
        self.generation += 1
        if len(self.evals) > TT_LIMIT:
            self.evals.clear()
        self.board = board
        self.lmr = lmr_table()
        self.null_move = board.size >= self.null_min_size
        self.draws.path[0] = board.hash
        for pair in self.killers:
            pair[0] = pair[1] = 0
        self.nodes = 0
        self.next_check = CHECK_EVERY
        self.partial = None
        self.finished = 0
        # root order: the table's move, then by history (an unfinished first iteration
        # then still returns a sensible move)
        moves = board.moves()
        order = self.order[board.turn]
        moves.sort(key=order.__getitem__, reverse=True)
        known = self.table_move(board.hash)
        if known in moves:
            moves.remove(known)
            moves.insert(0, known)
        self.root_moves = moves

    def _age_history(self) -> None:
        prior = self.prior
        for order in self.order:
            for code in self.touched:
                order[code] = prior[code] + (order[code] - prior[code]) // 4
        self.touched = set()

    def _check(self) -> None:
        if self.node_limit and self.nodes >= self.node_limit:
            raise SearchAborted
        if self.should_stop() or time.monotonic() >= self.deadline:
            raise SearchAborted
        self.next_check = self.nodes + CHECK_EVERY
        if self.node_limit and self.next_check > self.node_limit:
            self.next_check = self.node_limit

    # ---- root -----------------------------------------------------------------------
    def root(self, depth: int) -> tuple[int, int]:
        """Search every root move to `depth`; (value, best move), the value exact. From
        `ASPIRATION_DEPTH` on the window is the value two iterations back (values swing
        between odd and even depths) +- `ASPIRATION_WINDOW`, not around a win or a loss;
        a failed side is widened (`widened`). The best move goes first next iteration."""
        board = self.board
        assert board is not None
        center = self.second_value
        low = -INF
        high = INF
        if (
            depth >= ASPIRATION_DEPTH
            and self.finished >= 2
            and -WIN_BOUND < center < WIN_BOUND
            and -WIN_BOUND < self.last_value < WIN_BOUND
        ):
            low = center - ASPIRATION_WINDOW
            high = center + ASPIRATION_WINDOW
        width = ASPIRATION_WINDOW
        while True:
            best, best_move = self._root_pass(depth, low, high, center)
            if best > low or low == -INF:
                break
            # a fail low: no root move has a value (`partial` stays); all again, wider
            width, low = widened(center, width, best, -1)
        moves = self.root_moves
        moves.remove(best_move)
        moves.insert(0, best_move)
        key = board.hash
        self.tt[key & self.tt_mask] = (key, depth, EXACT, best, best_move, self.generation)
        self.second_value = self.last_value
        self.last_value = best
        self.finished += 1
        return best, best_move

    def _root_pass(self, depth: int, low: int, high: int, center: int) -> tuple[int, int]:
        """One pass over the root moves with the window (`low`, `high`) around `center`:
        (value, move) of the best, exact unless every move failed low (value <= `low`);
        a move that fails high is searched again, wider, until its value is exact."""
        board = self.board
        assert board is not None
        moves = self.root_moves
        alpha = low
        best = -INF
        best_move = moves[0]
        rules = self.rules
        line = self.line
        width = ASPIRATION_WINDOW
        for i, code in enumerate(moves):
            board.make(code)
            if rules:
                self.draws.enter(code, 1, board.hash)
            line[1] = code
            if i == 0:
                value = -self.search(depth - 1, -high, -alpha, 1)
            else:
                value = -self.search(depth - 1, -alpha - 1, -alpha, 1)
                if value > alpha:
                    value = -self.search(depth - 1, -high, -alpha, 1)
            while value >= high and high < INF:
                # a fail high: a lower bound only; search the move again with more room
                width, high = widened(center, width, value, 1)
                value = -self.search(depth - 1, -high, -alpha, 1)
            board.unmake(code)
            if value > best:
                best = value
                best_move = code
                if value > alpha:
                    alpha = value
                    self.partial = (value, code)
        return best, best_move

    # ---- interior nodes --------------------------------------------------------------
    def search(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        board = self.board
        assert board is not None
        self.nodes += 1
        if self.nodes >= self.next_check:
            self._check()
        res = board.result()
        turn = board.turn
        if res is not None:
            winner = res[0]
            if winner == DRAW:
                return 0
            return WIN - ply if winner == turn else ply - WIN
        rules = self.rules
        if rules and self.draws.drawn(ply):
            return 0
        t = board.t
        walls = board.walls
        empty = t.full & ~(board.white | board.black)
        if board.ply >= 2:
            if turn:
                mine, theirs = board.black & ~walls, board.white & ~walls
            else:
                mine, theirs = board.white & ~walls, board.black & ~walls
            # a spread's win only at the horizon (above it the search plays the spread)
            if (
                win_squares(t, mine, empty)
                or step_wins(board, turn)
                or (depth <= 0 and board.slide_win(2))
            ):
                return WIN - ply - 1
        else:
            theirs = 0
        threat_sq = -1  # the opponent's road-in-one squares, once computed
        if depth <= 0:
            threat_sq = self.threat_squares(board, theirs, empty, False) if theirs else 0
            threats = threat_sq.bit_count()
            if not threats or ply >= self.max_ply:
                key = board.hash
                value = self.evals.get(key)
                if value is None:
                    value = self.evals[key] = static(board, threats)
                return value
            depth = 1  # the opponent threatens a road: look for the block
        # transposition table
        key = board.hash
        tt = self.tt
        slot = key & self.tt_mask
        entry = tt[slot]
        tt_move = 0
        if entry is not None and entry[0] == key:
            _, e_depth, flag, value, tt_move, _ = entry
            if e_depth >= depth:
                if value > WIN_BOUND:
                    value -= ply
                elif value < -WIN_BOUND:
                    value += ply
                if flag == EXACT:
                    return value
                if flag == LOWER:
                    if value >= beta:
                        return value
                elif value <= alpha:
                    return value
        # the opponent's road-in-one squares: blocks are searched first, and no pruning
        if threat_sq < 0:
            spreads = depth >= SPREAD_DEPTH
            threat_sq = self.threat_squares(board, theirs, empty, spreads) if theirs else 0
        # reverse futility pruning: near the horizon of a null-window search, a static
        # value above beta by a margin per ply left fails high at once (not under a road
        # threat; the side to move has no road in one, checked above)
        if (
            depth <= FUTILITY_DEPTH
            and self.futility
            and beta - alpha == 1
            and not threat_sq
            and -WIN_BOUND < beta < WIN_BOUND
        ):
            value = self.quiet_value(board, key)
            if value - self.futility * depth >= beta:
                return value
        # null-move pruning: in a null-window search, when passing the move still fails
        # high at a reduced depth, so would a real move (not near the end of the game, not
        # under a road threat, not twice in a line, not with the draw rules on)
        if (
            depth >= 3
            and beta - alpha == 1
            and not threat_sq
            and self.null_move
            and not self.in_null
            and not rules
            and board.ply >= 4
            and -WIN_BOUND < beta < WIN_BOUND
            and board.stones[turn] + board.capstones[turn] >= ENDGAME
            and board.stones[1 - turn] + board.capstones[1 - turn] >= ENDGAME
            and empty.bit_count() >= ENDGAME
        ):
            value = self.quiet_value(board, key)
            if value >= beta:
                z = t.z_black
                board.turn = 1 - turn
                board.hash = key ^ z
                self.in_null = True
                self.line[ply + 1] = 0
                try:
                    value = -self.search(depth - 3, -beta, -alpha, ply + 1)
                finally:
                    self.in_null = False
                    board.turn = turn
                    board.hash = key
                if value >= beta:
                    return beta
        moves = board.moves()
        order = self.order[turn]
        killers = self.killers[ply]
        k1, k2 = killers
        # the reply that last cut off after the opponent's last move (none after a null move)
        previous = self.line[ply]
        counters = self.counters[turn]
        cm = counters[previous] if previous else 0
        # by history, then the table's move, the first and the second killer and the
        # counter move in front (moved there, not given bonus keys: keys below 2**30 keep
        # CPython's sort on its fast int comparison); the last one moved ends first
        moves.sort(key=order.__getitem__, reverse=True)
        for front in (cm, k2, k1, tt_move):
            if front and front in moves:
                moves.remove(front)
                moves.insert(0, front)
        if threat_sq:
            # placements on a square where the opponent completes a road come first
            blocks = [c for c in moves if (c >> KIND_SHIFT) & 3 != 3 and threat_sq >> (c & 63) & 1]
            if blocks:
                moves = blocks + [c for c in moves if c not in blocks]
        best = -INF
        best_move = 0
        a = alpha
        reduce_from = 3 if depth >= 3 and not threat_sq else 1 << 30
        lmr = self.lmr[depth] if depth < LMR_DEPTHS else self.lmr[LMR_DEPTHS - 1]
        # late move pruning: near the leaves of a null-window search only the first
        # moves in order are tried (unless all of those lose)
        prune_from = self.lmp[depth] if depth <= 2 and beta - alpha == 1 else 1 << 30
        next_depth = depth - 1
        line = self.line
        for i, code in enumerate(moves):
            if i >= prune_from and best > -WIN_BOUND:
                break
            board.make(code)
            if rules:
                self.draws.enter(code, ply + 1, board.hash)
            line[ply + 1] = code
            if i == 0:
                value = -self.search(next_depth, -beta, -a, ply + 1)
            else:
                r = 0
                if i >= reduce_from and code != k1 and code != k2 and code != cm:
                    r = lmr[i] if i < LMR_MOVES else lmr[LMR_MOVES - 1]
                value = -self.search(next_depth - r, -a - 1, -a, ply + 1)
                if value > a and (r or value < beta):
                    value = -self.search(next_depth, -beta, -a, ply + 1)
            board.unmake(code)
            if value > best:
                best = value
                best_move = code
                if value > a:
                    a = value
                    if a >= beta:
                        if code != k1:
                            killers[1] = k1
                            killers[0] = code
                        if previous:
                            counters[previous] = code
                        order[code] += depth * depth
                        self.touched.add(code)
                        break
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        stored = best
        if stored > WIN_BOUND:
            stored += ply
        elif stored < -WIN_BOUND:
            stored -= ply
        old = tt[slot]
        if old is None or old[0] == key or old[5] != self.generation or depth >= old[1]:
            tt[slot] = (key, depth, flag, stored, best_move, self.generation)
        return best

    @staticmethod
    def threat_squares(board: Board, theirs: int, empty: int, spreads: bool) -> int:
        """The squares where the side not to move (road pieces `theirs`) completes a road
        with one placement or one one-piece step, and (if `spreads`) `SPREAD_THREAT` if
        it completes one with a slide of a taller stack (after the table probe: a
        cut-off there does not pay for them)."""
        squares = win_squares(board.t, theirs, empty) | step_wins(board, 1 - board.turn)
        return squares | SPREAD_THREAT if spreads and spread_threat(board) else squares

    def quiet_value(self, board: Board, key: int) -> int:
        """The static value of `board` (hash `key`) with no road threat, from the cache."""
        value = self.evals.get(key)
        if value is None:
            value = self.evals[key] = static(board, 0)
        return value

    def table_move(self, key: int) -> int:
        """The best move stored for a position hash (0 if none)."""
        entry = self.tt[key & self.tt_mask]
        return entry[4] if entry is not None and entry[0] == key else 0

    # ---- principal variation --------------------------------------------------------------
    def principal_variation(self, board: Board, first: int, depth: int) -> list[int]:
        """The best line from the table, starting with `first` (played on a copy)."""
        board = board.copy()
        line = [first]
        board.make(first)
        seen = {board.hash}
        while len(line) < max(depth, 1) and board.result() is None:
            move = self.table_move(board.hash)
            if not move or move not in board.moves():
                break
            board.make(move)
            line.append(move)
            if board.hash in seen:
                break
            seen.add(board.hash)
        return line
