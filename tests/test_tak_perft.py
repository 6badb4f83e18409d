"""Perft: the published start-position counts, and the fast paths against the generic one."""

from __future__ import annotations

import pytest

from rules.game import Game
from rules.tak.game import TakGame


def generic_perft(game: Game[object], depth: int) -> int:
    """Perft through the public interface only: legal, play, undo, result."""
    if depth == 0:
        return 1
    if game.result is not None:
        return 0
    total = 0
    for action in game.legal():
        game.play(action)
        total += generic_perft(game, depth - 1)
        game.undo()
    return total


# (size, counts at depth 1, 2, ...) -- the cheap part of the published table
START_COUNTS = [
    (3, [9, 72, 1200, 17792]),
    (4, [16, 240, 7440, 216464]),
    (5, [25, 600, 43320]),
    (6, [36, 1260, 132720]),
    (7, [49, 2352]),
    (8, [64, 4032]),
]

# middle games with tall stacks, capstones, walls and crushes
MIDDLE_GAMES = [
    "2,x4/x,1C,x3/x,21,2S,x2/1,x,12,x2/x4,2 1 6",
    "x2,1,21C,x2/x,2,112S,x3/1,x,221,1,x2/x2,1S,12,2,x/2,x5/x5,12C 2 12",
    "x3,12,2S/x,22S,22C,11,21/121,212,12,1121C,1212S/21S,1,21,211S,12S/x,21S,2,x2 1 26",
]


@pytest.mark.parametrize(("size", "counts"), START_COUNTS)
def test_start_position_counts(size: int, counts: list[int]) -> None:
    game = TakGame.new({"size": str(size)})
    assert [game.perft(depth) for depth in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize("tps", MIDDLE_GAMES)
def test_fast_perft_agrees_with_generic(tps: str) -> None:
    game = TakGame.from_position_string(tps)
    for depth in (1, 2):
        generic = generic_perft(game, depth)
        assert game.perft(depth) == generic
        assert game.fast_board().perft_full(depth) == generic
    assert game.position_string() == TakGame.from_position_string(tps).position_string()


def test_divide_sums_to_perft() -> None:
    game = TakGame.from_position_string(MIDDLE_GAMES[1])
    rows = game.divide(2)
    assert len(rows) == len(game.legal())
    assert sum(count for _, count in rows) == game.perft(2)
    assert rows == [(m.ptn(), generic_perft_after(game, m, 1)) for m in game.legal()]


def test_terminal_positions_have_no_children() -> None:
    # white has a road on the c file; black to move
    game = TakGame.from_position_string("x2,1/2,x,1/2,x,1 2 3")
    assert game.result is not None and game.result.code == "R-0"
    assert game.perft(0) == 1
    assert game.perft(1) == 0 == generic_perft(game, 1)
    assert game.divide(2) == []


def generic_perft_after(game: TakGame, move: object, depth: int) -> int:
    game.play(move)  # type: ignore[arg-type]
    try:
        return generic_perft(game, depth)
    finally:
        game.undo()


def test_start_counts_through_the_generic_interface() -> None:
    for size, counts in START_COUNTS[:2]:
        game = TakGame.new({"size": str(size)})
        assert generic_perft(game, 3) == counts[2]


def test_draw_rules_fall_back_to_the_generic_perft() -> None:
    game = TakGame.new({"size": "4", "repetition": "true", "rule50": "true"})
    assert game.perft(3) == 7440
    assert sum(count for _, count in game.divide(2)) == 240
