"""Games per minute of one match played locally and on a local Dask cluster, in one run.

    python benchmarks/cluster.py [--games 200] [--workers 2]

The same match of fast built-in bots (random against greedy, 5x5) is played with
`--concurrency N` in this process and with `--cluster local:N`. Printed for each: the
whole wall time (with start-up: engine processes, and for the cluster its scheduler and
worker processes), the steady rate (games per minute between the first and the last
finished game), and for the cluster the overhead per game against the local run at the
steady rate, and the ratio of the two rates.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import trio

from adapters.referee.config import DEFAULTS, build_config
from adapters.referee.runner import Match


def match_settings(games: int, workers: int, cluster: str | None) -> dict[str, Any]:
    return {
        **DEFAULTS,
        "engines": [{"bot": "random"}, {"bot": "greedy"}],
        "rules": {"size": "5"},
        "games": games,
        "concurrency": workers,
        "cluster": cluster,
        "each": {"st": "0.01"},
        "timeout": 30.0,
    }


def play(settings: dict[str, Any]) -> tuple[float, list[float]]:
    """(wall seconds, the time each game finished)"""
    match = Match(build_config(settings))
    finished: list[float] = []
    match.reporter = lambda event, _: (
        finished.append(time.perf_counter()) if event == "game" else None
    )
    start = time.perf_counter()
    trio.run(match.run)
    return time.perf_counter() - start, [t - start for t in finished]


def steady_rate(times: list[float]) -> float:
    """Games per minute between the first and the last finished game."""
    if len(times) < 2:
        return float("nan")
    return (len(times) - 1) / (times[-1] - times[0]) * 60


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    local_wall, local_times = play(match_settings(args.games, args.workers, None))
    cluster_wall, cluster_times = play(
        match_settings(args.games, args.workers, f"local:{args.workers}")
    )
    local_rate, cluster_rate = steady_rate(local_times), steady_rate(cluster_times)
    n = args.workers
    print(f"{args.games} games, random vs greedy 5x5 st=0.01, {n} at once")
    print(
        f"local   --concurrency {n}: {local_wall:6.1f} s wall, {local_rate:7.1f} games/min steady"
    )
    print(f"cluster --cluster local:{n}: {cluster_wall:6.1f} s wall, {cluster_rate:7.1f} games/min")
    per_game_ms = (60 / cluster_rate - 60 / local_rate) * 1000 * n
    print(f"ratio (cluster/local, steady): {cluster_rate / local_rate:.2f}")
    print(f"cluster overhead per game (steady, one worker's view): {per_game_ms:+.1f} ms")
    local_edges = local_wall - (local_times[-1] - local_times[0])
    cluster_edges = cluster_wall - (cluster_times[-1] - cluster_times[0])
    print(f"start-up and shutdown: local {local_edges:.1f} s, cluster {cluster_edges:.1f} s")


if __name__ == "__main__":
    main()
