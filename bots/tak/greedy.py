"""GreedyBot: a one-ply Tak baseline.

It plays a move that wins at once when there is one; otherwise it avoids every move after
which the opponent has a road in one (so it blocks a threatened road when it can), and
among the rest picks the move with the best static evaluation (`bots.tak.eval`), breaking
ties at random (the `Seed` option makes games reproducible; 0 draws a fresh seed).
When `stop` is set or its share of the clock runs out (big boards with tall stacks have
hundreds of slides) it plays the best move among those tried so far.
"""

from __future__ import annotations

import threading
import time
from typing import Any, ClassVar

from bots.base import Info, Limits, Report, SeededBot
from bots.tak.bot import moves_left, playable
from bots.tak.eval import WIN_NOW, evaluate
from bots.timing import plan
from rules.game import Game
from rules.tak.board import DRAW, code_ptn

LOSS = -1_000_000
#: the longest the bot thinks with no limit at all (it usually finishes much sooner)
DEFAULT_MS = 10_000.0


def out_of_time(stop: threading.Event, deadline: float | None) -> bool:
    return stop.is_set() or (deadline is not None and time.monotonic() > deadline)


class GreedyBot(SeededBot):
    name: ClassVar[str] = "greedy"
    games: ClassVar[tuple[str, ...]] = ("tak",)

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        game = playable(game, "the greedy Tak bot")
        board = game.fast_board()
        me = board.turn
        hard = plan(limits, me, moves_left(board), DEFAULT_MS).hard
        deadline = time.monotonic() + hard / 1000 if hard is not None else None
        best: list[int] = []
        best_value = LOSS - 1
        nodes = 0
        for code in board.moves():
            if best and not nodes & 15 and out_of_time(stop, deadline):
                break
            nodes += 1
            board.make(code)
            res = board.result()
            if res is not None:
                winner = res[0]
                value = WIN_NOW * 2 if winner == me else 0 if winner == DRAW else LOSS
            elif board.winning_move() is not None:
                value = LOSS  # the opponent answers with a road
            else:
                value = -evaluate(board)
            board.unmake(code)
            if value > best_value:
                best_value, best = value, [code]
            elif value == best_value:
                best.append(code)
            if value >= WIN_NOW * 2:
                break
        code = self.rng().choice(best)
        report(
            Info(
                depth=1,
                score_cp=max(-WIN_NOW, min(WIN_NOW, best_value)),
                nodes=nodes,
                pv=(code_ptn(code, board.size),),
            )
        )
        return game.move_of(code)
