"""Trike positions for tests: a seeded random game of a board size."""

from __future__ import annotations

import random

from rules.trike.game import TrikeGame


def random_game(size: int, seed: int, plies: int) -> TrikeGame:
    """A Trike game of the size after up to `plies` seeded random legal actions."""
    rng = random.Random(seed)
    game = TrikeGame.new({"size": str(size)})
    while game.result is None and game.ply < plies:
        game.play(rng.choice(game.legal()))
    return game
