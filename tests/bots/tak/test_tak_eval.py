"""The Tak search's evaluation pieces: one-piece step wins, control, weights files, time rule."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bots.base import Limits
from bots.deepening import Iteration
from bots.tak.bot import (
    GROWTH,
    GROWTH_RANGE,
    MOVES_BEYOND,
    SHARP_DROP,
    STRETCH,
    moves_left,
    next_iteration_ms,
    sharpness,
)
from bots.tak.eval import WEIGHTS_ENV, control_squares, load_weights, step_wins, weights_for
from bots.tak.search import WIN_BOUND, Searcher
from bots.timing import TimePlan, plan
from rules.tak.board import square_name
from rules.tak.game import TakGame
from tests.support import ROOT

STEP = re.compile(r"1?([a-h])([1-8])([<>+-])1?")
DIRECTIONS = {">": (1, 0), "<": (-1, 0), "+": (0, 1), "-": (0, -1)}


def brute_step_wins(game: TakGame) -> int:
    """Squares onto which one flat or capstone stepping from a stack the side to move tops
    (onto an empty square or an enemy flat) wins by road: every legal move tried."""
    board = game.fast_board()
    size = board.size
    squares = {square_name(sq, size): sq for sq in range(size * size)}
    mover = game.turn
    out = 0
    for move in game.legal():
        found = STEP.fullmatch(str(move))
        if not found:
            continue
        source = squares[found[1] + found[2]]
        if (board.walls >> source) & 1:
            continue
        df, dr = DIRECTIONS[found[3]]
        target = squares[chr(ord(found[1]) + df) + str(int(found[2]) + dr)]
        if ((board.walls | board.caps) >> target) & 1:
            continue
        after = game.copy()
        after.play(move)
        result = after.result
        if result is not None and result.winners == (mover,) and result.reason == "road":
            out |= 1 << target
    return out


def random_positions(seed: int, count: int) -> list[TakGame]:
    """`count` unfinished games of 10 to 120 random plies on 4x4 to 6x6 boards.  The moves
    are drawn from a fast board's codes (in the order of `TakGame.legal`, which lists the
    same codes as `Move`s) and played by code: the same games, without building the moves."""
    rng = random.Random(seed)
    games = []
    while len(games) < count:
        game = TakGame.new({"size": str(rng.choice([4, 5, 6]))})
        board = game.fast_board()
        for _ in range(rng.randrange(10, 120)):
            if game.result is not None:
                break
            code = rng.choice(board.moves())
            game.play_code(code)
            board.make(code)
        if game.result is None:
            games.append(game)
    return games


def test_step_wins_are_exactly_the_winning_one_piece_steps() -> None:
    with_wins = 0
    for game in random_positions(5, 1500):
        board = game.fast_board()
        expected = brute_step_wins(game)
        assert step_wins(board, game.turn) == expected, board.tps()
        with_wins += bool(expected)
    assert with_wins >= 5  # the sample has positions with such wins


def test_a_step_win_is_scored_as_a_win_in_one_by_the_search() -> None:
    # white's flat on e2 steps down onto the black flat on e1 (a road a1-e1); black's on
    # e1 could step up onto e2 (a road a2-e2)
    board = TakGame.from_tps("x5/x5/x5/2,2,2,2,1/1,1,1,1,2 1 6").fast_board()
    assert step_wins(board, 0) == 1 << 4
    assert step_wins(board, 1) == 1 << 9
    searcher = Searcher()
    searcher.load(board)
    assert searcher.search(1, -WIN_BOUND, WIN_BOUND, 0) > WIN_BOUND


def test_control_counts_neighbours_up_to_two() -> None:
    t = TakGame.new({"size": "5"}).fast_board().t
    a1, b1, c1, b2 = 0, 1, 2, 6
    mine = 1 << a1 | 1 << c1
    theirs = 1 << b2
    ours, their = control_squares(t, mine, theirs)
    # b1 touches a1 and c1 (two) and b2 (one): ours; a2 touches a1 and b2: nobody's
    assert ours >> b1 & 1 and not their >> b1 & 1
    assert not (ours | their) >> 5 & 1
    # c2 touches c1 and b2: nobody's; b3 touches b2 only: theirs
    assert not (ours | their) >> 7 & 1 and their >> 11 & 1


@pytest.mark.process
def test_a_weights_file_from_the_environment_is_used(tmp_path: Path) -> None:
    weights = load_weights()
    changed = {**weights, "5": {**weights_for(5), "cap": 777}}
    path = tmp_path / "w.json"
    path.write_text(json.dumps(changed))
    code = "from bots.tak.eval import weights_for; print(weights_for(5)['cap'])"
    env = {**os.environ, WEIGHTS_ENV: str(path)}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert done.stdout.strip() == "777"


def test_the_shipped_sizes_have_fitted_sets_and_the_others_the_common_one() -> None:
    for size in (5, 6, 7, 8):
        assert "spans" in weights_for(size) and len(weights_for(size)["spans"]) == size - 2
    # 7x7 and 8x8 take the 6x6 fit, its road-span bonuses spread over the longer board
    for size in (7, 8):
        assert load_weights()[str(size)].keys() == {"base", "spans"}
        assert {**weights_for(size), "spans": None} == {**weights_for(6), "spans": None}
        assert weights_for(size)["spans"] != weights_for(6)["spans"]
    assert weights_for(4) == load_weights()["all"]


@pytest.mark.process
def test_a_base_that_is_not_a_set_is_named(tmp_path: Path) -> None:
    path = tmp_path / "w.json"
    path.write_text(json.dumps({**load_weights(), "7": {"base": "six", "spans": [1]}}))
    code = "from bots.tak.eval import weights_for; weights_for(7)"
    env = {**os.environ, WEIGHTS_ENV: str(path)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.returncode == 1
    assert "the weights of size 7 name the base 'six', not a set" in done.stderr


@pytest.mark.parametrize(
    ("ends", "expected"),
    [
        ([10.0], 10.0 * GROWTH),
        ([1.0, 4.0], 3.0 * GROWTH),
        ([1.0, 4.0, 16.0], 12.0 * 4.0),  # grew 4x from 3 ms to 12 ms
        ([1.0, 2.0, 2.5], 0.5 * GROWTH_RANGE[0]),  # a smaller iteration: the least growth
        ([1.0, 3.0, 103.0], 100.0 * GROWTH_RANGE[1]),  # held to the largest growth
    ],
)
def test_the_next_iteration_is_predicted_from_the_last_ones_growth(
    ends: list[float], expected: float
) -> None:
    assert next_iteration_ms(ends) == pytest.approx(expected)


def test_an_iteration_starts_only_when_it_is_predicted_to_end_in_time() -> None:
    plan = TimePlan(soft=500.0, hard=800.0)
    assert plan.fits(100.0, 300.0)  # ends at 400 of 500
    assert not plan.fits(300.0, 300.0)  # would end at 600
    assert plan.fits(300.0, 300.0, stretch=1.5)  # a sharp position: up to 750
    assert not plan.fits(300.0, 600.0, stretch=2.0)  # never past the hard budget
    assert plan.fits(40.0, 10_000.0)  # within the first tenth: always
    assert TimePlan(None, None).fits(1e9, 1e9)


def test_deepening_may_run_past_the_soft_budget_by_the_stretch_and_more_when_sharp() -> None:
    quiet = [Iteration(d, 50, 7) for d in (1, 2, 3)]
    assert sharpness(quiet) == STRETCH >= 1.0
    changed = [*quiet[:2], Iteration(3, 50, 8)]
    assert sharpness(changed) == STRETCH + 0.5
    fell = [*changed[:2], Iteration(3, 50 - SHARP_DROP - 1, 8)]
    assert sharpness(fell) == STRETCH + 1.0
    # a quiet position: an iteration predicted to end within STRETCH x soft starts
    assert TimePlan(soft=500.0, hard=1250.0).fits(200.0, 500.0 * STRETCH - 200.0, STRETCH)


def test_a_move_plans_for_half_its_pieces_in_hand_and_some_more_moves() -> None:
    start = TakGame.new({"size": "5"}).fast_board()  # 21 stones and a capstone
    assert moves_left(start) == 11 + MOVES_BEYOND
    late = TakGame.from_tps("x5/x5/x5/x5/x5 1 30").fast_board()
    late.stones[0] = 3
    late.capstones[0] = 0
    assert moves_left(late) == max(6, 1 + MOVES_BEYOND)
    # the share of a 10+0.1 clock at the start: (10000 - 25) / 19 + 70 ms
    share = plan(Limits(wtime=10_000, btime=10_000, winc=100, binc=100), 0, 19, 1000.0).soft
    assert share == pytest.approx(9975 / 19 + 70)


@pytest.mark.parametrize("size", [4, 5, 6])
def test_the_fitters_terms_add_up_to_the_evaluation(size: int) -> None:
    """`benchmarks/tak_texel.py` fits the weights on its own copy of the terms: its
    weighted sum must be the evaluation (up to rounding) with the shipped weights."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import tak_texel
    finally:
        sys.path.pop(0)
    from bots.tak.eval import static, win_squares

    weights = tak_texel.flat_weights(weights_for(size), size)
    checked = 0
    for game in random_positions(size, 300):
        board = game.fast_board()
        if board.size != size or board.copy().winning_move() is not None:
            continue
        t = board.t
        empty = t.full & ~(board.white | board.black)
        theirs = board.road_bits(1 - board.turn)
        threats = (win_squares(t, theirs, empty) | step_wins(board, 1 - board.turn)).bit_count()
        terms = tak_texel.features(board)
        total = sum(w * f for w, f in zip(weights, terms, strict=True))
        assert abs(static(board, threats) - total) <= 4, board.tps()
        checked += 1
    assert checked >= 30
