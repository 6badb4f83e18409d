"""`tei perft`: count the leaves of the move tree from a position (a rules self-test).

Prints the leaf count as the last line; with --divide, each root action and its count
first. A finished game has no moves, so terminal positions count 0 below the root.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import ClassVar

import attrs

from rules.game import GameError
from rules.registry import game_class
from tei.cli.fields import add_settings, setting, switch
from tei.cli.options import GameOptions, game_at, moves_option, usage_error
from tei.values import int_in

#: the depth from which progress is shown on a terminal
PROGRESS_DEPTH = 5


@attrs.frozen
class PerftOptions:
    TITLE: ClassVar[str] = ""
    EXCLUSIVE: ClassVar[tuple[str, ...]] = ("position", "tps")

    depth: int = setting(
        "--depth", type=int_in(0), required=True, metavar="N", help="plies to search (>= 0)"
    )
    divide: bool = switch("--divide", help="print '<action> <count>' per root action first")
    position: str | None = setting("--position", help="start from this position string of the game")
    tps: str | None = setting("--tps", help="Tak: start from this TPS (same as --position)")
    moves: str = moves_option()
    time: bool = switch("--time", help="also print the time taken and leaves per second")
    progress: bool | None = setting(
        "--progress",
        action=argparse.BooleanOptionalAction,
        help="report each root action's count on stderr as it is done (default: at depth "
        f"{PROGRESS_DEPTH} and more when stderr is a terminal)",
    )


#: `tei perft`'s settings, in the order of its help
SETTINGS = (PerftOptions, GameOptions)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.epilog = (
        "Examples: tei perft --size 5 --depth 4;  "
        'tei perft --tps "x2,2/x,1,x/1,x2 2 2" --depth 3 --divide'
    )
    add_settings(parser, SETTINGS)


def _progress(total: int, started: float) -> Callable[[str, int], None]:
    """A report of each root action done: `perft: 3/21 a3 1234 (0.8 s)` on stderr."""
    done = 0

    def report(action: str, count: int) -> None:
        nonlocal done
        done += 1
        elapsed = time.perf_counter() - started
        print(f"perft: {done}/{total} {action} {count} ({elapsed:.1f} s)", file=sys.stderr)
        sys.stderr.flush()

    return report


def run(args: argparse.Namespace) -> int:
    text = args.position or args.tps
    if args.tps and game_class(args.game).position_tag != "TPS":
        return usage_error("perft", "--tps is for Tak; use --position")
    try:
        game = game_at(args, text or "")
    except GameError as exc:
        return usage_error("perft", exc)
    start = time.perf_counter()
    progress = args.progress
    if progress is None:
        progress = args.depth >= PROGRESS_DEPTH and sys.stderr.isatty()
    if args.divide or (progress and args.depth > 0):
        each = _progress(len(game.legal()), start) if progress else None
        rows = game.divide(args.depth, each)
        if args.divide:
            for action, count in rows:
                print(f"{action} {count}")
        total = sum(count for _, count in rows) if args.depth > 0 else 1
    else:
        total = game.perft(args.depth)
    elapsed = time.perf_counter() - start
    if args.time:
        rate = total / elapsed if elapsed > 0 else 0.0
        print(f"time {elapsed:.3f}s, {rate:,.0f} leaves/s", file=sys.stderr)
    print(total)
    return 0
