"""TakSearchBot: the default Tak bot, iterative-deepening alpha-beta (see `tak_searcher`).

Limits: `depth` caps the depth, `nodes` the node count, the side's clock or `movetime`
give a time budget (`tak_time.plan`), `infinite` searches until `stop`; with no limit at
all the bot thinks for `DefaultMs` milliseconds. A road in one at the root is played at
once. After each finished depth it reports depth, score (centi-flats, or a proven
win/loss), nodes, nps, time and the principal variation.
"""

from __future__ import annotations

import threading
import time
from typing import Any, ClassVar

from bots.base import Bot, BotOption, Info, Limits, Report
from bots.tak_searcher import CHECK_EVERY, MAX_EXTENSION, WIN, WIN_BOUND, SearchAborted, Searcher
from bots.tak_time import plan
from rules.game import Game
from rules.tak.board import Board, code_ptn
from rules.tak.game import TakGame

MAX_DEPTH = 60


class TakSearchBot(Bot):
    name: ClassVar[str] = "search"
    games: ClassVar[tuple[str, ...]] = ("tak",)
    options: ClassVar[tuple[BotOption, ...]] = (
        BotOption("DefaultMs", "spin", default="1000", min=1, max=3_600_000),
        BotOption("MaxDepth", "spin", default=str(MAX_DEPTH), min=1, max=MAX_DEPTH),
        BotOption("ThreatPlies", "spin", default="0", min=0, max=MAX_EXTENSION),
    )

    def __init__(self, settings: Any = None) -> None:
        super().__init__(settings)
        self.searcher = Searcher()

    def new_game(self) -> None:
        self.searcher = Searcher()

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        if not isinstance(game, TakGame):
            raise ValueError(f"the Tak search bot cannot play {game.name!r}")
        if game.result is not None:
            raise ValueError("no legal action: the game is over")
        started = time.monotonic()
        board = game.fast_board()
        options = game.options
        self.searcher.set_draw_rules(
            options.repetition, options.rule50, game.position_counts(), game.quiet_plies
        )
        code = self.choose(board, limits, stop, report, started)
        if limits.infinite:
            stop.wait()
        return game.move_of(code)

    def choose(
        self, board: Board, limits: Limits, stop: threading.Event, report: Report, started: float
    ) -> int:
        """The move code to play on `board` (which the search uses as scratch)."""
        win = board.winning_move()
        if win is not None:
            report(
                Info(depth=1, score_cp=WIN - 1, solved="win", nodes=1, time_ms=0,
                     pv=(code_ptn(win, board.size),))
            )  # fmt: skip
            return win
        turn = board.turn
        pieces = board.stones[turn] + board.capstones[turn]
        budget = plan(limits, turn, pieces, float(self.settings["DefaultMs"]))
        searcher = self.searcher
        origin = board.copy()
        searcher.load(board)
        searcher.node_limit = limits.nodes or 0
        searcher.next_check = min(CHECK_EVERY, limits.nodes or CHECK_EVERY)
        searcher.should_stop = stop.is_set
        searcher.deadline = (
            started + budget.hard / 1000 if budget.hard is not None else float("inf")
        )
        max_depth = min(limits.depth or MAX_DEPTH, int(self.settings["MaxDepth"]))
        extension = int(self.settings["ThreatPlies"])
        best = searcher.root_moves[0]
        done: tuple[int, int] | None = None  # (depth, value) of the last finished iteration
        for depth in range(1, max_depth + 1):
            searcher.max_ply = depth + extension if extension else 0
            searcher.partial = None
            try:
                value, best = searcher.root(depth)
            except SearchAborted:
                if searcher.partial is not None:
                    # the previous best was searched first: the partial best is as good
                    # or better, and its value is a depth `depth` value
                    value, best = searcher.partial
                    done = (depth, value)
                # a last report with the whole search's nodes and time
                if done is not None:
                    report(self._info(searcher, origin, done[0], done[1], best, started))
                else:
                    elapsed = max(time.monotonic() - started, 1e-6)
                    report(
                        Info(nodes=searcher.nodes, nps=int(searcher.nodes / elapsed),
                             time_ms=int(elapsed * 1000), pv=(code_ptn(best, board.size),))
                    )  # fmt: skip
                break
            done = (depth, value)
            report(self._info(searcher, origin, depth, value, best, started))
            if abs(value) > WIN_BOUND:
                break  # proven
            elapsed = (time.monotonic() - started) * 1000
            if budget.soft is not None and elapsed > budget.soft * 0.45:
                break  # the next depth would not finish in time
            if len(searcher.root_moves) == 1:
                break
        return best

    @staticmethod
    def _info(
        searcher: Searcher, origin: Board, depth: int, value: int, move: int, started: float
    ) -> Info:
        elapsed = max(time.monotonic() - started, 1e-6)
        solved = None
        if value > WIN_BOUND:
            solved = "win"
        elif value < -WIN_BOUND:
            solved = "loss"
        size = origin.size
        pv = tuple(code_ptn(c, size) for c in searcher.principal_variation(origin, move, depth))
        return Info(
            depth=depth,
            score_cp=max(-WIN, min(WIN, value)),
            solved=solved,
            nodes=searcher.nodes,
            nps=int(searcher.nodes / elapsed),
            time_ms=int(elapsed * 1000),
            pv=pv,
        )
