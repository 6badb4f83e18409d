"""Play Trike bots against each other in-process and print wins, for tuning.

Usage: python benchmarks/trike_bot_match.py --size 7 --games 20 --ms 1000 [--a search --b random]
Seats alternate between games; each line prints the game's result, the last the totals.
"""

from __future__ import annotations

import argparse
import threading
import time

from bots import Info, Limits
from bots.registry import make_bot
from rules.trike.game import TrikeGame


def play(size: int, bots: list[str], ms: int, seed: int) -> tuple[int, str, int, float]:
    """One game; (winner seat, result code, plies, seconds)."""
    players = [
        make_bot("trike", name, {"Seed": str(seed + i)} if name == "random" else None)
        for i, name in enumerate(bots)
    ]
    game = TrikeGame.new({"size": str(size)})
    stop = threading.Event()
    started = time.monotonic()

    def ignore(info: Info) -> None:
        pass

    while game.result is None:
        bot = players[game.turn]
        action = bot.think(game.copy(), Limits(movetime=ms), stop, ignore)
        game.play(action)
    outcome = game.result
    return outcome.winners[0], outcome.code, game.ply, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=7)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--ms", type=int, default=1000, help="movetime per move (ms)")
    parser.add_argument("--a", default="search")
    parser.add_argument("--b", default="random")
    args = parser.parse_args()
    wins = 0
    for number in range(args.games):
        a_seat = number % 2
        names = [args.a, args.b] if a_seat == 0 else [args.b, args.a]
        winner, code, plies, seconds = play(args.size, names, args.ms, seed=number * 7 + 1)
        wins += winner == a_seat
        print(
            f"game {number + 1}: {args.a} seat {a_seat}, winner seat {winner} {code}, "
            f"{plies} plies, {seconds:.1f} s",
            flush=True,
        )
    print(
        f"{args.a} vs {args.b} side {args.size}, {args.ms} ms: {wins}/{args.games} "
        f"= {100 * wins / args.games:.1f}%"
    )


if __name__ == "__main__":
    main()
