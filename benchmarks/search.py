"""Fixed-node benchmark of the Tak search bot: nodes per second on a set of positions.

Usage: python benchmarks/search.py [--nodes 20000] [--sizes 4 5 6 7 8]

Each position (sizes 4 to 8; opening, middle game, late) is searched by a fresh
`TakSearchBot` to a fixed node count, so the work is the same from run to run. Measured
in the same run as baselines: the core's make/unmake rate (`Board.perft_full(2)`, leaves
per second) and the static evaluation rate (`bots.tak.eval.evaluate` calls per second, what
the greedy bot spends its time on) on the same position. The depth, score and best
move of each search show whether a change altered the search's results.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from typing import Any

from bots import Info, Limits
from bots.tak.bot import TakSearchBot
from bots.tak.eval import evaluate
from rules.tak.board import Board
from rules.tak.game import TakGame

POSITIONS: list[tuple[str, str]] = [
    ("4 opening", "x3,2/x3,1/x3,1/2,2,x,1 1 4"),
    ("4 middle", "x2,1,x/x,12,x,2/x,12,x,112S/x3,1 1 9"),
    ("5 opening", "x5/x5/x5/2,x4/x,212,x,1,1 1 5"),
    ("5 middle", "x4,1/x2,112C,1,x/x2,2,x2/2,12,x,12S,x/2,21S,1,x,1 1 13"),
    ("5 late", "x2,2,x,111112C/x2,2,x,2/1,1,2,2,x/x,122221S,2S,121C,x/x2,121S,x,1 1 23"),
    ("6 opening", "x2,1,x3/x2,1,x,2C,x/x2,1,x3/x6/x6/2,2,2,2,1,1 1 6"),
    ("6 middle", "x2,1,x3/x2,1,x,2C,x/2,x,1,x3/x4,1,1S/21,2,21,2,21,x/x,2,x,2S,2,112 1 16"),
    ("7 opening", "x3,1,x2,2C/x6,2C/x6,2/x3,1,x3/x6,2/x3,2,x,1C,x/2,x3,1,1C,1 1 7"),
    (
        "7 middle",
        "x3,1,1S,x,2C/x,1,x4,2C/x3,2,x2,2/x2,1,1112S,1,x,2/2S,2S,x,2,x2,212/"
        "x2,1,111112S,1,1C,x/2,x3,21,1C,1 1 26",
    ),
    ("8 opening", "x6,1,x/x8/x8/x8/x2,1,1,1,1,x2/x8/x,2,2,2,2,2C,x2/2,x6,1 1 7"),
    (
        "8 middle",
        "x6,1,x/x8/x4,2S,x3/x4,12,x3/x3,112,2,1,x,2C/x2,12,11221S,2,x3/"
        "x,2,12,x,2,x,21C,21/x,1111112C,2,x2,1,1,x 1 31",
    ),
]


def rate(run: Callable[[Any], int], arg: Any, minimum: float = 0.2) -> float:
    """Work units per second of `run(arg)` (which returns how many it did), over >= minimum s."""
    done = 0
    started = time.perf_counter()
    while True:
        done += run(arg)
        elapsed = time.perf_counter() - started
        if elapsed >= minimum:
            return done / elapsed


def _evaluate_100(board: Board) -> int:
    for _ in range(100):
        evaluate(board)
    return 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=20_000, help="nodes per search")
    parser.add_argument("--sizes", type=int, nargs="*", default=None, help="only these sizes")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the searches by this process's CPU time, not the wall clock (steadier "
        "on a machine shared with other work)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"{'position':<11} {'depth':>5} {'score':>6} {'best':>7} {'nodes':>7} "
          f"{'search nps':>11} {'perft leaves/s':>15} {'evals/s':>9}")  # fmt: skip
    total_nodes = 0
    total_time = 0.0
    for label, tps in POSITIONS:
        if args.sizes and int(label.split()[0]) not in args.sizes:
            continue
        game = TakGame.from_tps(tps)
        infos: list[Info] = []
        bot = TakSearchBot()
        started = clock()
        bot.think(game.copy(), Limits(nodes=args.nodes), threading.Event(), infos.append)
        elapsed = clock() - started
        nodes = bot.searcher.nodes
        total_nodes += nodes
        total_time += elapsed
        board = game.fast_board()
        perft = rate(board.copy().perft_full, 2)
        evals = rate(_evaluate_100, board)
        depth = max((i.depth or 0 for i in infos), default=0)
        last = infos[-1]
        score = last.solved or str(last.score_cp)
        best = last.pv[0] if last.pv else "-"
        print(f"{label:<11} {depth:>5} {score:>6} {best:>7} {nodes:>7} {nodes / elapsed:>11.0f} "
              f"{perft:>15.0f} {evals:>9.0f}")  # fmt: skip
    if total_time:
        print(f"{'total':<11} {'':>5} {total_nodes:>7} {total_nodes / total_time:>11.0f}")


if __name__ == "__main__":
    main()
