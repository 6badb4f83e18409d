"""Perft speed of the Tak core: leaves per second, against a baseline measured in the same run.

Run: ``python benchmarks/perft.py`` (about a minute on two cores; ``--quick`` searches one
ply less everywhere). For each position it prints

* fast perft: the board's perft, counting the last ply without making its moves;
* full make/unmake: every move of every ply made and unmade;
* baseline generic: the generic perft algorithm of `rules.game.Game` run through the
  public interface (`legal`, `play`, `undo`, `result` with `Move` objects), which also
  counts the last ply with ``len(legal())``;
* baseline generic full: the same playing every move, one ply less deep (it is slow).

leaves/s = leaf count / time; nodes/s = moves made (and unmade) / time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from rules.game import Game, interface_perft
from rules.tak.game import TakGame

TALL_6X6 = (
    "x2,2,1,x2/x,1212,21S,2,12,x/2,1,2211221C,1,12S,x/x,211221,2,1121,x,1/"
    "1,12,x,221S,1211212C,x/x,2,1,x,12,2 1 40"
)
CASES = [
    ("5x5 start", None, "5", 4),
    ("6x6 start", None, "6", 4),
    ("6x6 tall stacks", TALL_6X6, "6", 3),
]


def generic_perft_full(game: Game[Any], depth: int) -> int:
    """The generic perft playing and undoing the moves of the last ply too."""
    return interface_perft(game, depth, bulk=False)


def fast(game: TakGame, depth: int) -> int:
    return game.fast_board().perft(depth)


def fast_full(game: TakGame, depth: int) -> int:
    return game.fast_board().perft_full(depth)


def timed(run: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    count = run()
    return count, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="search one ply less everywhere")
    args = parser.parse_args()
    print(
        f"{'position':<16} {'depth':>5} {'method':<22} {'leaves':>11} {'seconds':>8} "
        f"{'leaves/s':>12} {'nodes/s':>11}"
    )
    for name, tps, size, full_depth in CASES:
        depth = full_depth - args.quick
        game = TakGame.from_position_string(tps) if tps else TakGame.new({"size": size})
        per_depth = [game.perft(d) for d in range(depth + 1)]
        # (label, function, depth, depth of the last ply whose moves are made)
        runs: list[tuple[str, Callable[[Any, int], int], int, int]] = [
            ("fast perft", fast, depth, depth - 1),
            ("baseline generic", interface_perft, depth, depth - 1),
            ("full make/unmake", fast_full, depth, depth),
            ("baseline generic full", generic_perft_full, depth - 1, depth - 1),
        ]
        rates: dict[str, tuple[float, float]] = {}
        for label, run, d, made_depth in runs:
            leaves, seconds = timed(partial(run, game, d))
            made = sum(per_depth[1 : made_depth + 1])  # moves made (and unmade)
            rates[label] = (leaves / seconds, made / seconds)
            print(
                f"{name:<16} {d:>5} {label:<22} {leaves:>11,} {seconds:>8.2f} "
                f"{leaves / seconds:>12,.0f} {made / seconds:>11,.0f}"
            )
        leaves_gain = rates["fast perft"][0] / rates["baseline generic"][0]
        nodes_gain = rates["full make/unmake"][1] / rates["baseline generic full"][1]
        print(
            f"{'':<23}fast perft: x{leaves_gain:.1f} the baseline's leaves/s; "
            f"full make/unmake: x{nodes_gain:.1f} the baseline's nodes/s"
        )


if __name__ == "__main__":
    main()
