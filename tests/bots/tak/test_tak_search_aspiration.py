"""Aspiration windows and counter moves in the Tak search: a window that fails is
searched again until the value is exact; wins are never the centre of a window."""

from __future__ import annotations

import pytest

from bots.tak.search import ASPIRATION_DEPTH, ASPIRATION_WINDOW, WIN_BOUND, Searcher
from rules.tak.game import TakGame

MIDDLE_5 = "x4,1/x2,112C,1,x/x2,2,x2/2,12,x,12S,x/2,21S,1,x,1 1 13"
LATE_5 = "x2,2,x,111112C/x2,2,x,2/1,1,2,2,x/x,122221S,2S,121C,x/x2,121S,x,1 1 23"
#: white to move has a road in three plies (d2, threatening e2 and e4, is one way)
FORK = "2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6"
#: how far (centi-flats) a value may move with the window it was searched with
SAME = 35


def searched(tps: str, depth: int, shift: int) -> tuple[int, int, int]:
    """(value, move, centre) of `depth` after the iterations before it, with the centre
    of its window (the value two iterations back) moved by `shift` centi-flats."""
    searcher = Searcher()
    board = TakGame.from_tps(tps).fast_board()
    searcher.load(board)
    for shallower in range(1, depth):
        searcher.root(shallower)
    searcher.second_value += shift
    centre = searcher.second_value
    value, move = searcher.root(depth)
    assert move in board.moves()
    return value, move, centre


@pytest.mark.parametrize("tps", [MIDDLE_5, LATE_5])
def test_a_root_that_fails_low_is_searched_again_below_the_window(tps: str) -> None:
    value, _, centre = searched(tps, ASPIRATION_DEPTH + 1, 1000)
    # the true value is about 1000 below the centre: the returned one is not the
    # window's bound, nor the once-widened one, but the value an open window finds
    # (within what the window changes in pruning: 32 at most on these positions)
    assert value < centre - 2 * ASPIRATION_WINDOW
    assert abs(value - searched(tps, ASPIRATION_DEPTH + 1, 0)[0]) <= SAME


@pytest.mark.parametrize("tps", [MIDDLE_5, LATE_5])
def test_a_move_that_fails_high_is_searched_again_above_the_window(tps: str) -> None:
    value, _, centre = searched(tps, ASPIRATION_DEPTH + 1, -1000)
    assert value > centre + 2 * ASPIRATION_WINDOW
    assert abs(value - searched(tps, ASPIRATION_DEPTH + 1, 0)[0]) <= SAME


def test_a_forced_win_stays_a_win_at_every_depth_past_the_window_start() -> None:
    searcher = Searcher()
    searcher.load(TakGame.from_tps(FORK).fast_board())
    values = [searcher.root(depth)[0] for depth in range(1, ASPIRATION_DEPTH + 3)]
    assert all(value > WIN_BOUND for value in values[2:]), values


def test_cut_offs_record_counter_moves_and_a_new_size_clears_them() -> None:
    searcher = Searcher()
    board = TakGame.from_tps(MIDDLE_5).fast_board()
    searcher.load(board)
    for depth in range(1, 6):
        searcher.root(depth)
    recorded = [code for side in searcher.counters for code in side if code]
    assert recorded
    assert all(0 < code < len(searcher.counters[0]) for code in recorded)
    searcher.load(TakGame.new({"size": "6"}).fast_board())
    assert not any(code for side in searcher.counters for code in side)
    assert len(searcher.counters[0]) == len(searcher.prior)
