"""TrikeSearchBot: iterative-deepening alpha-beta with a region evaluation (see trike_searcher).

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

from bots.base import Bot, BotOption, Info, Limits, Report
from bots.trike_searcher import MAX_DEPTH, WIN, WIN_BOUND, SearchAborted, Searcher
from rules.game import Game
from rules.trike.game import TrikeGame


class TrikeSearchBot(Bot):
    name: ClassVar[str] = "search"
    games: ClassVar[tuple[str, ...]] = ("trike",)
    options: ClassVar[tuple[BotOption, ...]] = (
        BotOption("DefaultMs", "spin", default="1000", min=1, max=3_600_000),
    )

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
        budget = self._budget(game, limits)
        # stop a little before the budget, so that the answer is in before the host's stop
        own = None if budget is None else max(budget * 0.5, min(budget * 0.9, budget - 15.0))
        searcher.deadline = started + own / 1000 if own is not None else float("inf")
        max_depth = min(limits.depth or MAX_DEPTH, MAX_DEPTH)
        best_move = legal[0]
        empties = len(game.board) - sum(1 for c in game.board if c)
        done_depth, done_value = 0, 0
        for depth in range(1, max_depth + 1):
            searcher.partial = None
            try:
                value, move = searcher.root(depth, -WIN - 1, WIN + 1, best_move)
            except SearchAborted:
                # keep a better move found by the unfinished iteration (the old best
                # move is searched first, so a move found later really is better)
                if searcher.partial is not None:
                    done_value, best_move = searcher.partial
                    done_depth = depth
                # the abort left moves on the search board: start again from the game
                searcher.load(game)
                if done_depth:
                    report(self._info(searcher, done_depth, done_value, best_move, started))
                break
            best_move, done_depth, done_value = move, depth, value
            report(self._info(searcher, depth, value, move, started))
            if abs(value) > WIN_BOUND or depth >= empties + 1:
                break  # solved, or the search already reaches every game end
            if budget is not None and (time.monotonic() - started) * 1000 > budget * 0.55:
                break  # the next depth would not finish in time
        if limits.infinite:
            stop.wait()
        return best_move

    def _budget(self, game: TrikeGame, limits: Limits) -> float | None:
        if limits.infinite:
            return None
        searching_to_a_limit = limits.depth is not None or limits.nodes is not None
        timed = limits.movetime is not None or limits.clock(game.turn)[0] is not None
        if searching_to_a_limit and not timed:
            return None
        # the host's own share of the clock (it sets `stop` at about this time)
        budget = limits.budget_ms(game.turn)
        if budget is None:
            return float(self.settings["DefaultMs"])
        return budget

    @staticmethod
    def _info(searcher: Searcher, depth: int, value: int, move: int, started: float) -> Info:
        elapsed = max(time.monotonic() - started, 1e-6)
        solved = None
        if value > WIN_BOUND:
            solved = "win"
        elif value < -WIN_BOUND:
            solved = "loss"
        names = searcher.names
        pv = tuple(names(m) for m in searcher.principal_variation(move, depth))
        return Info(
            depth=depth,
            score_cp=None if solved else value,
            solved=solved,
            nodes=searcher.nodes,
            nps=int(searcher.nodes / elapsed),
            time_ms=int(elapsed * 1000),
            pv=pv,
        )
