"""In-process Traxit matches between built-in bots (a quick strength check, no processes).

    python -m bots.traxit.arena --players 3 --games 12 --movetime 100 [--teams]

One `search` seat against `random` seats (or `--bots search,search,random`); the seats
rotate from game to game. Prints games, wins (shared wins count their share) and the
average points per bot.
"""

from __future__ import annotations

import argparse
import random
import threading
from collections import defaultdict
from collections.abc import Sequence

from bots.base import Info, Limits
from bots.registry import make_bot
from rules.traxit.game import TraxitGame


def _quiet(info: Info) -> None:
    return None


def play_game(
    names: Sequence[str], options: dict[str, str], limits: Limits, seed: int
) -> TraxitGame:
    """One game; seat i is played by bot `names[i]`."""
    game = TraxitGame.new(options)
    bots = [
        make_bot("traxit", name, {"Seed": str(seed * 10 + i + 1)} if name == "random" else {})
        for i, name in enumerate(names)
    ]
    stop = threading.Event()
    while game.result is None:
        seat = game.turn
        action = bots[seat].think(game.copy(), limits, stop, _quiet)
        game.play(action)
    return game


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bots.traxit.arena", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--teams", action="store_true", help="team play (4 players)")
    parser.add_argument("--short-game", action="store_true")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--movetime", type=int, default=100, help="ms per search action")
    parser.add_argument("--bots", default="", help="comma list per seat (default: search + random)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    n = args.players
    lineup = args.bots.split(",") if args.bots else ["search"] + ["random"] * (n - 1)
    if args.teams:
        lineup = args.bots.split(",") if args.bots else ["search", "random", "search", "random"]
    if len(lineup) != n:
        parser.error(f"--bots needs {n} names")
    options = {"players": str(n)}
    if args.teams:
        options["teams"] = "true"
    if args.short_game:
        options["shortgame"] = "true"
        options["seed"] = str(args.seed)
    limits = Limits(movetime=args.movetime)
    wins: dict[str, float] = defaultdict(float)
    points: dict[str, list[float]] = defaultdict(list)
    rng = random.Random(args.seed)
    for number in range(args.games):
        shift = number % n
        names = lineup[-shift:] + lineup[:-shift] if shift else list(lineup)
        game = play_game(names, options, limits, rng.randrange(1 << 30))
        result = game.result
        assert result is not None and result.scores is not None
        winners = {names[s] for s in result.winners}
        for name in winners:
            wins[name] += sum(result.points(s) for s in result.winners if names[s] == name)
        for seat, name in enumerate(names):
            points[name].append(result.scores[seat])
        print(f"game {number + 1}: {' '.join(names)}: {result.code}", flush=True)
    print(
        f"players {n}{' teams' if args.teams else ''}, games {args.games}, "
        f"movetime {args.movetime} ms"
    )
    for name in dict.fromkeys(lineup):
        seats = lineup.count(name)
        avg = sum(points[name]) / len(points[name])
        print(
            f"  {name:8} seats {seats}  wins {wins[name]:.1f}  average points per player {avg:.1f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
