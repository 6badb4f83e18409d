"""TrikeSearchBot: iterative-deepening alpha-beta with a region evaluation (see bots.trike.search).

Limits: `depth` caps the depth, `nodes` the node count, the acting seat's clock or
`movetime` give a time budget, `infinite` searches until `stop`; with no limit at all
the bot thinks for `DefaultMs` milliseconds. After each finished depth it reports depth,
score, nodes, nps, time and the principal variation; when a limit cuts a depth short, one
more report gives the final move, nodes and time.
"""

from __future__ import annotations

import threading
import time
from typing import Any, ClassVar

from bots.base import Info, Limits, Report, SearchBot
from bots.deepening import Iteration, deepen, iteration_info
from bots.timing import plan
from bots.trike.search import MAX_DEPTH, WIN, WIN_BOUND, Searcher
from rules.game import Game
from rules.trike.game import TrikeGame

#: moves a side is assumed still to make when sharing out its clock
MOVES_LEFT = 20
#: part of a move's time after which the next depth would likely not finish
ITERATION_SHARE = 0.55


class TrikeSearchBot(SearchBot):
    games: ClassVar[tuple[str, ...]] = ("trike",)

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self.searcher = Searcher()

    def new_game(self) -> None:
        self.searcher = Searcher()

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        if not isinstance(game, TrikeGame):
            raise ValueError(f"the Trike search bot cannot play {game.name!r}")
        legal = game.legal()
        if not legal:
            raise ValueError("no legal action: the game is over")
        started = time.monotonic()
        searcher = self.searcher
        searcher.load(game)
        searcher.nodes = 0
        searcher.node_limit = limits.nodes or 0
        searcher.should_stop = stop.is_set
        budget = plan(
            limits, game.turn, MOVES_LEFT, float(self.settings["DefaultMs"]), ITERATION_SHARE
        )
        searcher.deadline = (
            started + budget.hard / 1000 if budget.hard is not None else float("inf")
        )
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        empties = len(game.board) - sum(1 for c in game.board if c)

        def step(depth: int, previous: Iteration[int, int] | None) -> tuple[int, int]:
            searcher.partial = None
            first = legal[0] if previous is None else previous.move
            return searcher.root(depth, -WIN - 1, WIN + 1, first)

        def after(it: Iteration[int, int]) -> bool:
            report(self._info(searcher, it.depth, it.value, it.move, started))
            return (
                abs(it.value) > WIN_BOUND
                or it.depth >= empties + 1  # solved, or the search reaches every game end
                or not budget.deepen((time.monotonic() - started) * 1000)
            )

        outcome = deepen(step, max_depth, after, lambda: searcher.partial)
        done = outcome.last
        if outcome.aborted:
            # the abort left moves on the search board: start again from the game
            searcher.load(game)
            if done is not None:
                report(self._info(searcher, done.depth, done.value, done.move, started))
        if limits.infinite:
            stop.wait()
        return legal[0] if done is None else done.move

    @staticmethod
    def _info(searcher: Searcher, depth: int, value: int, move: int, started: float) -> Info:
        names = searcher.names
        pv = tuple(names(m) for m in searcher.principal_variation(move, depth))
        return iteration_info(depth, value, WIN_BOUND, searcher.nodes, started, pv)
