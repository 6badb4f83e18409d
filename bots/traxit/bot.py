"""TraxitSearchBot: iterative-deepening search over every kind of Traxit action.

Every seat is assumed to pick the action best for itself (its own points against the best
rival's, or its team's against the other team's): max-n for 3 or 4 players, alpha-beta
when two sides play (2 players, or teams); see bots/traxit/search.py. The chooser's tile
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

from bots.base import Info, Limits, Report, SearchBot
from bots.deepening import Iteration, deepen
from bots.timing import plan
from bots.traxit.search import make_searcher
from rules.game import Game
from rules.traxit.actions import Action
from rules.traxit.game import TraxitGame
from rules.traxit.state import Layout, State, actor, legal

MAX_DEPTH = 32
#: part of a move's time after which the next depth would likely not finish
ITERATION_SHARE = 0.2


class TraxitSearchBot(SearchBot):
    games: ClassVar[tuple[str, ...]] = ("traxit",)

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        if not isinstance(game, TraxitGame):
            raise ValueError(f"the Traxit search bot cannot play {game.name!r}")
        layout, st = game.layout, game.state
        actions = legal(layout, st)
        if not actions:
            raise ValueError("no legal action: the game is over")
        started = time.monotonic()
        budget = plan(
            limits,
            game.turn,
            self._moves_left(game),
            float(self.settings["DefaultMs"]),
            ITERATION_SHARE,
        )
        deadline = started + budget.hard / 1000 if budget.hard is not None else float("inf")
        searcher = make_searcher(layout, deadline, limits.nodes or 0, stop)
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        order = list(actions)
        seat = actor(layout, st)

        def step(
            depth: int, previous: Iteration[list[float], Action] | None
        ) -> tuple[list[float], Action]:
            searcher.start_iteration()
            return searcher.root(st, depth, order)

        def after(it: Iteration[list[float], Action]) -> bool:
            order.remove(it.move)
            order.insert(0, it.move)
            elapsed = time.monotonic() - started
            report(
                Info(
                    depth=it.depth,
                    score_cp=round(it.value[seat]),
                    nodes=searcher.nodes,
                    nps=int(searcher.nodes / elapsed) if elapsed > 0 else None,
                    time_ms=int(elapsed * 1000),
                    pv=tuple(str(a) for a in searcher.pv(st, it.move, it.depth)),
                )
            )
            return (
                len(actions) == 1
                or not budget.deepen(elapsed * 1000)  # the next depth costs several times this
                or self._reaches_end(layout, st, it.depth)
            )

        done = deepen(step, max_depth, after).last
        if limits.infinite:
            stop.wait()
        return actions[0] if done is None else done.move

    @staticmethod
    def _reaches_end(layout: Layout, st: State, depth: int) -> bool:
        turns_left = (layout.sets - st.set_no + 1) * layout.rounds * layout.players
        return depth > 2 * turns_left + 2 * layout.players

    @staticmethod
    def _moves_left(game: TraxitGame) -> int:
        """Actions the acting seat still expects to take."""
        st, layout = game.state, game.layout
        done = (st.set_no - 1) * layout.rounds + st.round_no - 1
        return max(4, 2 * (layout.sets * layout.rounds - done) + 2)
