"""Road wins and threats by spreads of taller stacks in the Tak search (not only
placements and one-piece steps)."""

from __future__ import annotations

from bots.tak.eval import spread_threat, step_wins, win_squares
from bots.tak.search import SPREAD_THREAT, WIN_BOUND, Searcher
from rules.tak.board import code_ptn
from rules.tak.game import TakGame
from tests.bots.tak.test_tak_eval import random_positions

# white's four-piece stack on a1 spreads three pieces one by one onto b1, c1, d1: with
# its flat on e1 a road a1-e1; no placement and no one-piece step makes a road
SPREAD_WHITE = "x5/x5/2,x4/2,2,2,x2/1111,x3,1 1 10"
# the same with black to move: white threatens that spread
SPREAD_BLACK = "x5/x5/2,x4/2,2,2,x2/1111,x3,1 2 10"


def test_a_spread_win_is_found_by_slide_win_and_missed_by_the_cheaper_checks() -> None:
    board = TakGame.from_tps(SPREAD_WHITE).fast_board()
    empty = board.t.full & ~(board.white | board.black)
    assert win_squares(board.t, board.road_bits(0), empty) == 0
    assert step_wins(board, 0) == 0
    code = board.slide_win(2)
    assert code_ptn(code, 5) == "3a1>111"
    assert board.winning_move() == code
    assert board.slide_win(5) == 0  # no stack of five


def test_slide_win_is_exactly_a_winning_slide_of_a_taller_stack() -> None:
    with_wins = 0
    for game in random_positions(7, 600):
        board = game.fast_board()
        mover = board.turn
        expected = False
        for code in board.moves():
            if (code >> 6) & 3 != 3 or board.heights[code & 63] < 2:
                continue
            board.make(code)
            expected = board.has_road(mover)
            board.unmake(code)
            if expected:
                break
        found = board.slide_win(2)
        assert bool(found) == expected, board.tps()
        if found:
            board.make(found)
            assert board.has_road(mover), board.tps()
            board.unmake(found)
        with_wins += expected
    assert with_wins >= 5  # the sample has positions with such wins


def test_the_search_scores_a_spread_win_at_the_horizon_as_a_win() -> None:
    board = TakGame.from_tps(SPREAD_WHITE).fast_board()
    searcher = Searcher()
    searcher.load(board)
    # depth 0: no move is searched; the spread must be seen by the win-in-one check
    assert searcher.search(0, -WIN_BOUND, WIN_BOUND, 0) > WIN_BOUND


def test_the_opponents_spread_counts_as_a_road_threat() -> None:
    board = TakGame.from_tps(SPREAD_BLACK).fast_board()
    before = (board.tps(), board.hash, board.turn)
    assert spread_threat(board)
    assert (board.tps(), board.hash, board.turn) == before
    empty = board.t.full & ~(board.white | board.black)
    threats = Searcher.threat_squares(board, board.road_bits(0), empty, True)
    assert threats == SPREAD_THREAT
    # with white to move there is nothing for black to spread
    assert not spread_threat(TakGame.from_tps(SPREAD_WHITE).fast_board())
