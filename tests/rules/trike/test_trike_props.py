"""Property tests of the Trike core against an independent brute-force move generator."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.game import Game
from rules.trike.game import SWAP, TrikeGame
from tests.support.trike import random_game

FILES = "abcdefghijklmnopqrs"
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def brute_moves(game: TrikeGame) -> set[str]:
    """Legal action texts, recomputed from coordinates and the position string alone."""
    size_text, ranks, _to_move, swap = game.position_string().split(":")
    size = int(size_text)
    cells: dict[tuple[int, int], str] = {}
    for number, rank_text in enumerate(ranks.split("/")):
        rank = size - number
        row: list[str] = []
        digits = ""
        for char in rank_text + " ":
            if char.isdigit():
                digits += char
                continue
            row.extend(["."] * int(digits or 0))
            digits = ""
            if char != " ":
                row.append(char)
        for file, symbol in enumerate(row, 1):
            cells[(file, rank)] = symbol
    pawns = [cell for cell, symbol in cells.items() if symbol in "XO"]
    out: set[str] = {"swap"} if swap == "s" else set()
    if not pawns:
        return out | {f"{FILES[f - 1]}{r}" for (f, r), s in cells.items() if s == "."}
    file, rank = pawns[0]
    for df, dr in STEPS:
        f, r = file + df, rank + dr
        while cells.get((f, r)) == ".":
            out.add(f"{FILES[f - 1]}{r}")
            f, r = f + df, r + dr
    if all(cells.get((file + df, rank + dr), "x") != "." for df, dr in STEPS):
        return set()  # trapped: no swap either (it cannot be pending then anyway)
    return out


def brute_perft(game: TrikeGame, depth: int) -> int:
    if depth == 0:
        return 1
    total = 0
    for text in sorted(brute_moves(game)):
        child = TrikeGame.from_position_string(game.position_string())
        child.play_text(text)
        total += brute_perft(child, depth - 1)
    return total


sizes = st.integers(min_value=3, max_value=11)
seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=60, deadline=None)
@given(sizes, seeds)
def test_random_games_end_with_a_strict_winner(size: int, seed: int) -> None:
    game = random_game(size, seed, 10_000)
    outcome = game.result
    assert outcome is not None and outcome.reason == "trapped"
    assert outcome.scores is not None and len(outcome.winners) == 1
    winner = outcome.winners[0]
    assert outcome.scores[winner] > outcome.scores[1 - winner]
    assert sum(outcome.scores) in (3, 5, 7) and min(outcome.scores) >= 1
    assert game.legal() == [] and game.ply <= size * (size + 1) // 2 + 1
    colour = game.colour_of(winner)
    assert outcome.code.startswith(colour + " ")


@settings(max_examples=60, deadline=None)
@given(sizes, seeds, st.integers(min_value=0, max_value=80))
def test_positions_round_trip_and_moves_match_brute_force(size: int, seed: int, plies: int) -> None:
    game = random_game(size, seed, plies)
    text = game.position_string()
    again = TrikeGame.from_position_string(text)
    assert again.position_string() == text
    assert again.hash_key() == game.hash_key()
    texts = {game.format_action(a) for a in game.legal()}
    assert len(texts) == len(game.legal())
    assert texts == brute_moves(game)
    assert {again.format_action(a) for a in again.legal()} == texts


@settings(max_examples=40, deadline=None)
@given(sizes, seeds, st.integers(min_value=0, max_value=80))
def test_undo_restores_exactly(size: int, seed: int, plies: int) -> None:
    game = random_game(size, seed, plies)
    rng = random.Random(seed)
    start_ply = game.ply
    seen = []
    while game.result is None:
        seen.append((game.position_string(), game.hash_key(), game.turn, game.colour_of(0)))
        game.play(rng.choice(game.legal()))
    for state in reversed(seen):
        game.undo()
        assert (game.position_string(), game.hash_key(), game.turn, game.colour_of(0)) == state
    assert game.ply == start_ply


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=3, max_value=6), seeds, st.integers(min_value=0, max_value=12))
def test_perft_matches_brute_force(size: int, seed: int, plies: int) -> None:
    game = random_game(size, seed, plies)
    for depth in (1, 2, 3):
        fast = game.perft(depth)
        assert fast == Game.perft(game, depth)
        assert fast == brute_perft(game, depth)


def test_perft_depth_two_after_swap_and_at_start() -> None:
    # after 1.a1 the pawn sees 2 lines of N-1 cells; after swap the same position is to move
    for size in (3, 5, 7):
        game = TrikeGame.new({"size": str(size)})
        game.play_text("a1")
        assert game.perft(1) == 2 * (size - 1) + 1
        game.play_text("swap")
        assert game.perft(1) == 2 * (size - 1)
        assert SWAP not in game.legal()
    assert TrikeGame.new({"size": "4"}).perft(3) == brute_perft(TrikeGame.new({"size": "4"}), 3)
