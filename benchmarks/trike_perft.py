"""Trike perft speed: the core's own perft against the generic Game.perft in the same run.

Usage: python benchmarks/trike_perft.py [--size 13] [--depth 4]
Prints leaves, seconds and leaves/s for both, and the speed-up of the fast one.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from rules.game import Game
from rules.trike.game import TrikeGame


def timed(count: Callable[[], int]) -> tuple[int, float]:
    start = time.perf_counter()
    leaves = count()
    return leaves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=13)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--moves", default="", help="actions to play first")
    args = parser.parse_args()
    game = TrikeGame.new({"size": str(args.size)})
    game.play_all(args.moves.split())
    fast, fast_s = timed(lambda: game.perft(args.depth))
    base, base_s = timed(lambda: Game.perft(game, args.depth))
    assert fast == base, (fast, base)
    for label, seconds in (("TrikeGame.perft", fast_s), ("Game.perft (baseline)", base_s)):
        print(f"{label:24} {fast:>12,} leaves {seconds:8.3f} s {fast / seconds:>14,.0f} leaves/s")
    print(f"speed-up {base_s / fast_s:.2f}x")


if __name__ == "__main__":
    main()
