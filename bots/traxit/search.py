"""The two Traxit search procedures behind TraxitSearchBot.

`MaxNSearcher` (3 or 4 players, free for all): every seat picks the action best for itself.
`AlphaBetaSearcher` (2 players, or 4 players in teams): the game is zero-sum between two
sides (seats 0+2 against 1+3), so alpha-beta with a transposition table and best-action
ordering finds the same value as max-n while visiting far fewer nodes.

Both walk immutable states, count nodes, and raise SearchAborted when the deadline, the
node limit or the stop flag is reached.
"""

from __future__ import annotations

import threading
import time

from bots.deepening import SearchAborted
from bots.traxit.eval import evaluate
from rules.traxit.actions import Action
from rules.traxit.state import END, Layout, State, actor, apply_unchecked, legal

#: entries kept per table: enough for the depths reached, cheap to free
MEMO_LIMIT = 60_000
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
#: time, nodes and the stop flag are checked every CHECK_MASK + 1 nodes: a node costs
#: 10-250 us alone and several times that on a loaded machine, where checks every 128
#: nodes let a 100 ms search run 0.75 s; a check costs well under a microsecond
CHECK_MASK = 7


class Searcher:
    """Shared limits and node counting."""

    def __init__(
        self, layout: Layout, deadline: float, node_limit: int, stop: threading.Event
    ) -> None:
        self.layout = layout
        self.deadline = deadline
        self.node_limit = node_limit
        self.stop = stop
        self.nodes = 0
        #: best action found per state (any depth): move ordering and the PV
        self.hints: dict[State, Action] = {}

    def check(self) -> None:
        if self.stop.is_set() or time.monotonic() > self.deadline:
            raise SearchAborted
        if self.node_limit and self.nodes >= self.node_limit:
            raise SearchAborted

    def start_iteration(self) -> None:
        """Called before each depth."""

    def root(self, st: State, depth: int, order: list[Action]) -> tuple[list[float], Action]:
        raise NotImplementedError

    def pv(self, st: State, first: Action, depth: int) -> list[Action]:
        line = [first]
        st = apply_unchecked(self.layout, st, first)
        while len(line) < depth and st.phase != END:
            hint = self.hints.get(st)
            if hint is None or hint not in legal(self.layout, st):
                break
            line.append(hint)
            st = apply_unchecked(self.layout, st, hint)
        return line

    def _remember(self, st: State, action: Action) -> None:
        if len(self.hints) < MEMO_LIMIT or st in self.hints:
            self.hints[st] = action


class MaxNSearcher(Searcher):
    """Depth-limited max-n with a per-iteration memo."""

    def __init__(
        self, layout: Layout, deadline: float, node_limit: int, stop: threading.Event
    ) -> None:
        super().__init__(layout, deadline, node_limit, stop)
        self.memo: dict[tuple[State, int], list[float]] = {}

    def start_iteration(self) -> None:
        self.memo.clear()

    def value(self, st: State, depth: int) -> list[float]:
        """Utility vector of `st` searched `depth` plies deep."""
        self.nodes += 1
        if self.nodes & CHECK_MASK == 0:
            self.check()
        layout = self.layout
        if depth == 0 or st.phase == END:
            return evaluate(layout, st)
        key = (st, depth)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        seat = actor(layout, st)
        best: list[float] | None = None
        best_action: Action | None = None
        for action in legal(layout, st):
            values = self.value(apply_unchecked(layout, st, action), depth - 1)
            if best is None or values[seat] > best[seat]:
                best, best_action = values, action
        assert best is not None and best_action is not None
        if len(self.memo) < MEMO_LIMIT:
            self.memo[key] = best
        self._remember(st, best_action)
        return best

    def root(self, st: State, depth: int, order: list[Action]) -> tuple[list[float], Action]:
        layout = self.layout
        seat = actor(layout, st)
        best: list[float] | None = None
        best_action = order[0]
        for action in order:
            values = self.value(apply_unchecked(layout, st, action), depth - 1)
            if best is None or values[seat] > best[seat]:
                best, best_action = values, action
        assert best is not None
        self._remember(st, best_action)
        return best, best_action


class AlphaBetaSearcher(Searcher):
    """Fail-soft alpha-beta on side 0's utility (seats 0 and 2 maximise, 1 and 3 minimise)."""

    def __init__(
        self, layout: Layout, deadline: float, node_limit: int, stop: threading.Event
    ) -> None:
        super().__init__(layout, deadline, node_limit, stop)
        self.table: dict[tuple[State, int], tuple[float, int]] = {}

    def _vector(self, value: float) -> list[float]:
        return [value if seat % 2 == 0 else -value for seat in range(self.layout.players)]

    def _ordered(self, st: State) -> list[Action]:
        actions = legal(self.layout, st)
        hint = self.hints.get(st)
        if hint is not None and hint in actions and actions[0] != hint:
            actions.remove(hint)
            actions.insert(0, hint)
        return actions

    def value(self, st: State, depth: int, alpha: float, beta: float) -> float:
        """Side 0's utility of `st`, exact when strictly inside (alpha, beta)."""
        self.nodes += 1
        if self.nodes & CHECK_MASK == 0:
            self.check()
        layout = self.layout
        if depth == 0 or st.phase == END:
            return evaluate(layout, st)[0]
        key = (st, depth)
        entry = self.table.get(key)
        if entry is not None:
            stored, flag = entry
            if (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                return stored
        low, high = alpha, beta
        best_action: Action | None = None
        if actor(layout, st) % 2 == 0:
            best = -INF
            for action in self._ordered(st):
                value = self.value(apply_unchecked(layout, st, action), depth - 1, alpha, beta)
                if value > best:
                    best, best_action = value, action
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
        else:
            best = INF
            for action in self._ordered(st):
                value = self.value(apply_unchecked(layout, st, action), depth - 1, alpha, beta)
                if value < best:
                    best, best_action = value, action
                    if best < beta:
                        beta = best
                        if alpha >= beta:
                            break
        flag = LOWER if best >= high else UPPER if best <= low else EXACT
        if len(self.table) < MEMO_LIMIT or key in self.table:
            self.table[key] = (best, flag)
        if best_action is not None:
            self._remember(st, best_action)
        return best

    def root(self, st: State, depth: int, order: list[Action]) -> tuple[list[float], Action]:
        layout = self.layout
        maximise = actor(layout, st) % 2 == 0
        alpha, beta = -INF, INF
        best: float | None = None
        best_action = order[0]
        for action in order:
            value = self.value(apply_unchecked(layout, st, action), depth - 1, alpha, beta)
            if maximise and (best is None or value > best):
                best, best_action, alpha = value, action, value
            elif not maximise and (best is None or value < best):
                best, best_action, beta = value, action, value
        assert best is not None
        self._remember(st, best_action)
        return self._vector(best), best_action


def make_searcher(
    layout: Layout, deadline: float, node_limit: int, stop: threading.Event
) -> Searcher:
    """Alpha-beta for two sides (2 players or teams), max-n otherwise."""
    if layout.players == 2 or layout.teams:
        return AlphaBetaSearcher(layout, deadline, node_limit, stop)
    return MaxNSearcher(layout, deadline, node_limit, stop)
