"""How far the search's value swings between odd and even depths, by tempo weight.

Usage: python benchmarks/tak_swing.py games.ptn --size 5 --tempo 40 80 100 120 [--depth 6]

The evaluation counts the flats on the board, so the side that moved last is a flat up
at the horizon: an iteration of odd depth ends on the root side's placement, an even one
on the opponent's, and the value of iterative deepening swings between the two. The
`tempo` weight (a bonus for the side to move) offsets that. This script takes positions
of recorded games of the size (plies `--plies`, games that are still going there), lets
the search bot's `Searcher` run iterations 1 to `--depth` on each, and prints for each
tempo the mean and median of |value(d + 1) - value(d)| over depths 2 to `--depth` - 1
(positions where any value is a win or a loss are left out). The first line is the
weights the install ships, measured in the same run as the baseline. Each tempo runs in
a process of its own with a weights file that differs from the shipped one only in the
size's `tempo` (`TEI_TAK_WEIGHTS`). A tempo at the bottom of the swing keeps the windows,
the pruning margins and the move choice of both parities level; docs/bots.md has the
figures and the games that confirmed them.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bots.tak.eval import WEIGHTS, WEIGHTS_ENV
from bots.tak.search import WIN_BOUND, Searcher
from rules.tak.game import TakGame
from rules.tak.ptn import parse_many


def positions(path: str, size: int, plies: list[int], games: int) -> list[str]:
    """TPS of the positions at `plies` of the first `games` games of the size."""
    found: list[str] = []
    records = [r for r in parse_many(Path(path).read_text()) if r.tags.get("Size") == str(size)]
    for record in records[:games]:
        game = TakGame.new(record.options())
        for ply in record.plies:
            if game.result is not None:
                break
            if game.ply in plies:
                found.append(game.fast_board().tps())
            game.play_text(ply.move)
    return found


def swings(tps: list[str], depth: int) -> list[float]:
    """The mean |value(d + 1) - value(d)| over d = 2 .. depth - 1, by position."""
    out: list[float] = []
    for text in tps:
        searcher = Searcher()
        searcher.load(TakGame.from_tps(text).fast_board())
        values = [searcher.root(d)[0] for d in range(1, depth + 1)]
        if all(abs(v) < WIN_BOUND for v in values):
            out.append(statistics.mean(abs(b - a) for a, b in itertools.pairwise(values[1:])))
    return out


def measure(tps_file: Path, depth: int, weights: Path | None) -> list[float]:
    """`swings` in a process of its own, with `weights` as TEI_TAK_WEIGHTS (None: shipped)."""
    env = {k: v for k, v in os.environ.items() if k != WEIGHTS_ENV}
    if weights is not None:
        env[WEIGHTS_ENV] = str(weights)
    command = [sys.executable, __file__, "--worker", str(tps_file), "--depth", str(depth)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    values: list[float] = json.loads(done.stdout)
    return values


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", help="a PTN file of games (tei match --ptnout)")
    parser.add_argument("--size", type=int, default=5, help="board size (default 5)")
    parser.add_argument("--tempo", type=int, nargs="*", default=[], help="tempo values to try")
    parser.add_argument("--depth", type=int, default=6, help="deepest iteration (default 6)")
    parser.add_argument("--plies", type=int, nargs="*", default=[12, 22],
                        help="plies whose positions are taken (default 12 22)")  # fmt: skip
    parser.add_argument("--games", type=int, default=30, help="games read (default 30)")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.depth < 4:
        parser.error("--depth must be at least 4 (two differences of depths 2 and up)")
    if args.worker:
        tps = Path(args.records).read_text().splitlines()
        print(json.dumps(swings(tps, args.depth)))
        return
    tps = positions(args.records, args.size, args.plies, args.games)
    if not tps:
        parser.error(f"no game of size {args.size} in {args.records} reaches {args.plies}")
    with tempfile.TemporaryDirectory() as folder:
        tps_file = Path(folder, "positions.txt")
        tps_file.write_text("\n".join(tps) + "\n")
        runs: list[tuple[str, Path | None]] = [("shipped", None)]
        for tempo in args.tempo:
            weights = json.loads(json.dumps(WEIGHTS))
            weights.setdefault(str(args.size), {})["tempo"] = tempo
            path = Path(folder, f"tempo{tempo}.json")
            path.write_text(json.dumps(weights))
            runs.append((f"tempo {tempo}", path))
        board = f"{args.size}x{args.size}"
        print(f"{len(tps)} positions of {args.records}, {board}, depths 1-{args.depth}")
        print("| weights | positions | mean swing | median swing |")
        print("|---|---|---|---|")
        for name, weights_file in runs:
            values = measure(tps_file, args.depth, weights_file)
            if not values:
                print(f"| {name} | 0 | - | - |")
                continue
            mean, median = statistics.mean(values), statistics.median(values)
            print(f"| {name} | {len(values)} | {mean:.1f} | {median:.1f} |", flush=True)


if __name__ == "__main__":
    main()
