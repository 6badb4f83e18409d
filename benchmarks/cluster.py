"""What a user waits for: whole `tei match` commands played locally and on a local Dask
cluster, one after the other, several times, in one run.

    python benchmarks/cluster.py [--runs 3] [--workers 2] [--games 120] [--slow-games 8]

Two matches, each run as the command a user types (a new process: start-up, engine
processes, and for the cluster its scheduler and worker processes, all included):
- fast: search against greedy, 5x5, `st=0.02` (`--games` games): the cluster's cost per
  game where games are short;
- blitz: search against greedy, 5x5, `tc=10+0.1` (`--slow-games` games): the same at a
  time control people play.
Each is played with `--concurrency N` and with `--cluster local:N`, alternating (local,
cluster, local, ...) so that a change of machine load touches both. Printed per match
and venue: the median wall time and its spread (min..max) over `--runs` runs; then the
cluster's overhead per game from the medians, `(cluster - local) / games x N` (what
each of the N workers pays per game it plays, start-up spread over the match), and the
ratio of the two rates. Goal: a ratio of at least 0.9 and under 50 ms per game.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import time

from tei.driver import tei_command


def match_command(games: int, workers: int, each: str, cluster: bool) -> list[str]:
    venue = ["--cluster", f"local:{workers}"] if cluster else ["--concurrency", str(workers)]
    return [
        *tei_command("match"),
        *("--engine", "bot=search", "--engine", "bot=greedy", "--size", "5", "--komi", "0"),
        *("--games", str(games), "--each", each, "--quiet", *venue),
    ]


def wall_time(command: list[str]) -> float:
    """Seconds one command takes, start to exit (it must succeed)."""
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=os.environ.copy())
    return time.perf_counter() - start


def measure(games: int, workers: int, each: str, runs: int) -> dict[str, list[float]]:
    """Wall times of each venue, `runs` each, alternating."""
    times: dict[str, list[float]] = {"local": [], "cluster": []}
    for _ in range(runs):
        for venue in ("local", "cluster"):
            command = match_command(games, workers, each, venue == "cluster")
            times[venue].append(wall_time(command))
    return times


def report(name: str, games: int, workers: int, times: dict[str, list[float]]) -> None:
    local, cluster = (statistics.median(times[v]) for v in ("local", "cluster"))
    print(f"{name}: {games} games, {workers} at once, {len(times['local'])} runs each")
    for venue, values in times.items():
        spread = f"{min(values):.1f}..{max(values):.1f}"
        print(f"  {venue:8} median {statistics.median(values):7.1f} s  ({spread} s)")
    per_game_ms = (cluster - local) / games * workers * 1000
    print(f"  rate ratio (cluster/local): {local / cluster:.2f}")
    print(f"  cluster overhead per game: {per_game_ms:+.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--games", type=int, default=120, help="games of the fast match")
    parser.add_argument("--slow-games", type=int, default=8, help="games at 10+0.1 (0: none)")
    args = parser.parse_args()
    fast = measure(args.games, args.workers, "st=0.02", args.runs)
    report("fast (st=0.02)", args.games, args.workers, fast)
    if args.slow_games:
        blitz = measure(args.slow_games, args.workers, "tc=10+0.1", args.runs)
        report("blitz (tc=10+0.1)", args.slow_games, args.workers, blitz)


if __name__ == "__main__":
    main()
