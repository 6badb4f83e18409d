"""Write a Tak opening book of random flat placements, one opening per line.

Usage: python benchmarks/tak_openings.py --size 5 --plies 4 --count 100 --seed 1 > book.txt

Each opening is `--plies` flat placements on distinct random squares (the first two
place the opponent's flat, as the rules say). Played from both seats (`tei match` plays
each opening once with colours swapped), such a book gives a match between two
deterministic engines different games without favouring either side. Used for the
matches in docs/bots.md (`tei match --openings book.txt`).
"""

from __future__ import annotations

import argparse
import random

from rules.tak.game import TakGame


def opening(size: int, plies: int, rng: random.Random) -> str:
    """One opening as PTN moves (flat placements only)."""
    game = TakGame.new({"size": str(size)})
    moves: list[str] = []
    for _ in range(plies):
        flats = [t for t in map(game.format_action, game.legal()) if t.isalnum() and t.islower()]
        text = rng.choice(flats)
        game.play(game.parse_action(text))
        moves.append(text)
    return " ".join(moves)


def book_lines(size: int, plies: int, count: int, seed: int) -> list[str]:
    """`count` distinct openings of `plies` flat placements, drawn with `seed`."""
    rng = random.Random(seed)
    seen: dict[str, None] = {}
    while len(seen) < count:
        seen.setdefault(opening(size, plies, rng))
    return list(seen)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=5, help="board size (default 5)")
    parser.add_argument("--plies", type=int, default=4, help="placements per opening")
    parser.add_argument("--count", type=int, default=100, help="openings (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    args = parser.parse_args()
    for line in book_lines(args.size, args.plies, args.count, args.seed):
        print(line)


if __name__ == "__main__":
    main()
