"""TraxitSearchBot: iterative-deepening search over every kind of Traxit action.

Every seat is assumed to pick the action best for itself (its own points against the best
rival's, or its team's against the other team's): max-n for 3 or 4 players, alpha-beta
when two sides play (2 players, or teams); see bots/traxit_searcher.py. The chooser's tile
choice, the mover's move and the TRAXIT relocation are all nodes of the same tree, so one
search plays setup, choosing, moving and relocating. Limits: `depth` (plies), `nodes`, the
acting seat's clock or `movetime`; `infinite` searches until `stop`; with no limit at all
the bot thinks for `DefaultMs` milliseconds. After each finished depth it reports depth,
score (points), nodes, nps, time and the principal variation.
"""

from __future__ import annotations

import threading
import time
from typing import Any, ClassVar

from bots.base import Bot, BotOption, Info, Limits, Report
from bots.traxit_searcher import SearchAborted, make_searcher
from rules.game import Game
from rules.traxit.game import TraxitGame
from rules.traxit.state import Layout, State, actor, legal

MAX_DEPTH = 32
#: share of the time budget the search may use (the rest covers freeing memory and I/O)
BUDGET_SHARE = 0.85


class TraxitSearchBot(Bot):
    name: ClassVar[str] = "search"
    games: ClassVar[tuple[str, ...]] = ("traxit",)
    options: ClassVar[tuple[BotOption, ...]] = (
        BotOption("DefaultMs", "spin", default="1000", min=1, max=3_600_000),
    )

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        if not isinstance(game, TraxitGame):
            raise ValueError(f"the Traxit search bot cannot play {game.name!r}")
        layout, st = game.layout, game.state
        actions = legal(layout, st)
        if not actions:
            raise ValueError("no legal action: the game is over")
        started = time.monotonic()
        budget = self._budget(game, limits)
        # short budgets keep at least 15 ms for the answer to reach the host before its stop
        own = None if budget is None else max(budget * 0.5, min(budget * BUDGET_SHARE, budget - 15))
        deadline = started + own / 1000 if own is not None else float("inf")
        searcher = make_searcher(layout, deadline, limits.nodes or 0, stop)
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        best = actions[0]
        order = list(actions)
        seat = actor(layout, st)
        for depth in range(1, max_depth + 1):
            if len(actions) == 1 and depth > 1:
                break
            searcher.start_iteration()
            try:
                values, move = searcher.root(st, depth, order)
            except SearchAborted:
                break
            best = move
            order.remove(move)
            order.insert(0, move)
            elapsed = time.monotonic() - started
            report(
                Info(
                    depth=depth,
                    score_cp=round(values[seat]),
                    nodes=searcher.nodes,
                    nps=int(searcher.nodes / elapsed) if elapsed > 0 else None,
                    time_ms=int(elapsed * 1000),
                    pv=tuple(str(a) for a in searcher.pv(st, move, depth)),
                )
            )
            if budget is not None and elapsed * 1000 > budget * 0.2:
                break  # the next depth costs several times this one
            if self._reaches_end(layout, st, depth):
                break
        if limits.infinite:
            stop.wait()
        return best

    @staticmethod
    def _reaches_end(layout: Layout, st: State, depth: int) -> bool:
        turns_left = (layout.sets - st.set_no + 1) * layout.rounds * layout.players
        return depth > 2 * turns_left + 2 * layout.players

    def _budget(self, game: TraxitGame, limits: Limits) -> float | None:
        if limits.infinite:
            return None
        searching_to_a_limit = limits.depth is not None or limits.nodes is not None
        if searching_to_a_limit and limits.movetime is None and limits.clock(game.turn)[0] is None:
            return None
        st, layout = game.state, game.layout
        done = (st.set_no - 1) * layout.rounds + st.round_no - 1
        moves_left = max(4, 2 * (layout.sets * layout.rounds - done) + 2)
        budget = limits.budget_ms(game.turn, moves_left=moves_left)
        if budget is None:
            return float(self.settings["DefaultMs"])
        return budget
