"""What adjudication saves, and whether it is right: the same match of built-in bots
played without adjudication (the baseline) and with `--resign`, `--draw` and
`--tinue-adjudication`, through the referee (`adapters.referee.runner.Match`, engines as
`tei engine` processes).

Usage: python benchmarks/adjudication.py [--games 100] [--size 5] [--plies 5]
           [--depth 2] [--concurrency 2] [--resign "movecount=4 score=1000"]
           [--draw "movenumber=60 movecount=10 score=5"]

Printed: average plies and wall time per game of both runs, adjudications per rule, and
for every adjudicated game whether playing it on to its end gives another result: with
the same bots on both sides ("bots"), and for tinue also with the winner's moves taken
from the solver ("solver"), which must never differ: it checks the proof.
Also the solver's speed: plies per second of tinue calls over the positions of the
baseline's games (CPU time), next to the rate of `winning_move` on the same positions.
"""

from __future__ import annotations

import argparse
import threading
import time
from typing import Any

import trio

from adapters.referee.config import DEFAULTS, build_config
from adapters.referee.facts import Termination
from adapters.referee.progress import MatchProgress
from adapters.referee.runner import Match
from adapters.referee.state import FinishedGame
from bots.base import Bot, Limits
from bots.registry import make_bot
from rules.tak.game import TakGame
from rules.tak.ptn import PtnGame
from rules.tak.tinue import tinue

MAX_PLIES = 400


def settings(args: argparse.Namespace, adjudicate: bool) -> dict[str, Any]:
    out: dict[str, Any] = {
        **DEFAULTS,
        "rules": {"size": str(args.size)},
        "engines": [
            {"bot": "search", "depth": str(args.depth), "name": f"search-d{args.depth}"},
            {"bot": "greedy", "depth": "1", "name": "greedy"},
        ],
        "games": args.games,
        "concurrency": args.concurrency,
        "max_plies": MAX_PLIES,
        "timeout": 120.0,
    }
    if adjudicate:
        out.update(resign=args.resign, draw=args.draw, tinue_adjudication=f"plies={args.plies}")
    return out


def run_match(match_settings: dict[str, Any]) -> tuple[MatchProgress, float]:
    match = Match.open(build_config(match_settings))
    started = time.perf_counter()
    progress = trio.run(lambda: match.run(handle_signals=False))
    return progress, time.perf_counter() - started


def bots_of(args: argparse.Namespace, game: FinishedGame) -> list[tuple[Bot, Limits]]:
    """The bot of each seat, as the match ran them (engine 0 search, engine 1 greedy)."""
    kinds = [
        (make_bot("tak", "search"), Limits(depth=args.depth)),
        (make_bot("tak", "greedy"), Limits()),
    ]
    return [kinds[engine] for engine in game.seats]


def play_on(
    game: TakGame, seats: list[tuple[Bot, Limits]], solver_seat: int | None, plies: int
) -> TakGame:
    """Play to the end; the `solver_seat` (if any) plays the first move of its tinue."""
    while game.result is None and game.ply < MAX_PLIES:
        seat = game.turn
        if seat == solver_seat:
            line = tinue(game, plies)
            if line is None:
                raise AssertionError(f"the solver lost its tinue in {game.position_string()}")
            game.play(line[0])
            continue
        bot, limits = seats[seat]
        move = bot.think(game.copy(), limits, threading.Event(), lambda info: None)
        game.play(move)
    return game


def check(args: argparse.Namespace, progress: MatchProgress) -> dict[str, list[int]]:
    """Per rule: [adjudicated games, results that differ when the bots play on, results
    that differ when the solver plays the winner's moves (tinue only)]."""
    out: dict[str, list[int]] = {}
    for game in progress.finished.values():
        if game.termination is not Termination.ADJUDICATED or game.reason == "max plies":
            continue
        counts = out.setdefault(game.reason, [0, 0, 0])
        counts[0] += 1
        start = PtnGame.parse(game.record).replay()
        played = play_on(start.copy(), bots_of(args, game), None, args.plies)
        if played.result is None or played.result.winners != game.winners:
            counts[1] += 1
        if game.reason == "tinue":
            proved = play_on(start.copy(), bots_of(args, game), game.winners[0], args.plies)
            if proved.result is None or proved.result.winners != game.winners:
                counts[2] += 1
    return out


def solver_rate(progress: MatchProgress, plies: int, limit: int = 400) -> tuple[float, float]:
    """(tinue calls per CPU second, winning_move calls per CPU second) over up to
    `limit` positions of the games, each game's positions in order with one table."""
    positions: list[list[TakGame]] = []
    count = 0
    for game in progress.finished.values():
        record = PtnGame.parse(game.record)
        replay = record.replay()
        line = []
        while replay.ply and count < limit:
            line.append(replay.copy())
            replay.undo()
            count += 1
        positions.append(line[::-1])
    started = time.process_time()
    for line in positions:
        table: dict[tuple[int, int], list[int] | None] = {}
        for position in line:
            tinue(position, plies, table)
    solver = count / max(1e-9, time.process_time() - started)
    boards = [p.fast_board() for line in positions for p in line]
    started = time.process_time()
    for board in boards:
        board.winning_move()
    baseline = len(boards) / max(1e-9, time.process_time() - started)
    return solver, baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--size", type=int, default=5)
    parser.add_argument("--plies", type=int, default=5, help="tinue plies (default 5)")
    parser.add_argument("--depth", type=int, default=2, help="search bot depth (default 2)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--resign", default="movecount=4 score=1000")
    parser.add_argument("--draw", default="movenumber=60 movecount=10 score=5")
    args = parser.parse_args()
    results = {}
    for adjudicate in (False, True):
        progress, wall = run_match(settings(args, adjudicate))
        games = len(progress.finished)
        plies = sum(g.plies for g in progress.finished.values()) / max(1, games)
        label = "adjudicated" if adjudicate else "baseline"
        results[label] = progress
        print(
            f"{label:>11}: {games} games, {plies:.1f} plies/game,"
            f" {wall / max(1, games):.2f} s/game wall ({wall:.0f} s)"
        )
    counts = check(args, results["adjudicated"])
    for rule, (n, bots, solver) in sorted(counts.items()):
        extra = f", solver plays on: {solver} differ" if rule == "tinue" else ""
        print(f"{rule:>11}: {n} games; bots play on: {bots} differ{extra}")
    if counts.get("tinue", [0, 0, 0])[2]:
        raise SystemExit("a tinue adjudication disagreed with playing the proof out")
    solver, baseline = solver_rate(results["baseline"], args.plies)
    print(
        f"     solver: {solver:.1f} plies/s (tinue within {args.plies} plies, CPU time);"
        f" baseline winning_move {baseline:.0f} calls/s on the same positions"
    )


if __name__ == "__main__":
    main()
