"""The tinue solver: known positions, false tinues, marks, and properties against plain
minimax searches on small boards."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.tak import tinue as T
from rules.tak.board import Board
from rules.tak.game import TakGame
from tests.rules.tak.test_tak_properties import random_game

# White to move in each. Black's pieces stand where they cannot reach white's road.
FORK = "2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x5 1 6"  # d2 threatens e2 and (via d3, d4) e4
FORK_CUT = "2,2,x3/x3,1,x/x3,1,x/1,1,1,x2/x,2,x3 1 6"  # black's b1 can cover b2
# c5 makes column c threaten c1; a flat on c1 is covered from the c2 stack, a wall is not
COVER = "2,x4/x2,1,x2/x2,1,x2/x2,11,x,2/x4,2C 1 6"
COVER_CAP = "2,x4/x2,1,x2/x2,1,x2/x2,11C,x,2/x4,2C 1 6"  # ... unless a capstone flattens it
COVER_CAP_BLOCKED = "2,x4/x2,1,x2/x2,1,x2/x2,11C,x,2/x4,2 1 6"  # black still has a capstone
# black's row 5 is whole but for white's wall on c5: black's capstone on c4 flattens it
BLACK_CRUSHES = "2,2,1S,2,2/x2,2C,x2/x3,1,x/1,1,1,x2/x5 1 8"
BLACK_CANNOT = "2,2,1S,2,2/x2,2,x2/x3,1,x/1,1,1,x2/x5 1 8"  # a flat cannot
BLACK_FIRST = "2,2,2,2,x/x5/x3,1,x/1,1,1,x2/x5 1 6"  # black has a road in one (e5)


def line_of(tps: str, plies: int = 3) -> list[str] | None:
    line = T.tinue(TakGame.from_tps(tps), plies)
    return None if line is None else [m.ptn() for m in line]


def all_replies_lose(game: TakGame, attacker: int, plies: int) -> bool:
    """Plain minimax over every move of both sides: the attacker wins within `plies`
    plies whatever the side to move does (the reply is ply 1)."""
    for move in game.legal():
        game.play(move)
        over = game.result
        ok = attacker in over.winners and len(over.winners) == 1 if over else wins(game, plies - 1)
        game.undo()
        if not ok:
            return False
    return True


def wins(game: TakGame, plies: int) -> bool:
    """Plain minimax over every move: the side to move wins within `plies` plies."""
    if plies < 1:
        return False
    me = game.turn
    for move in game.legal():
        game.play(move)
        over = game.result
        if over is not None:
            ok = over.winners == (me,)
        else:
            ok = plies >= 3 and all_replies_lose(game, me, plies - 1)
        game.undo()
        if ok:
            return True
    return False


def test_a_fork_is_tinue_and_the_line_plays_out() -> None:
    line = line_of(FORK)
    assert line is not None and line[0] == "d2" and len(line) == 3
    game = TakGame.from_tps(FORK)
    game.play_all(line)
    assert game.result is not None and game.result.winners == (0,)
    assert wins(TakGame.from_tps(FORK), 3)


def test_a_stack_move_that_cuts_the_road_breaks_the_fork() -> None:
    assert line_of(FORK_CUT) is None
    game = TakGame.from_tps(FORK_CUT)
    game.play_text("d2")
    assert T.is_tak(game) and not T.is_tinue(game)
    game.play_text("b1+")  # the answer: both threats ran through b2
    assert T.tinue(game, 3) is None


def test_a_wall_stops_a_cover_but_a_capstone_flattens_it() -> None:
    assert line_of(COVER) is None and line_of(COVER, 5) is None
    game = TakGame.from_tps(COVER)
    game.play_all(["c5", "c1"])  # a flat block is covered at once
    assert [m.ptn() for m in T.tinue(game, 1) or ()] == ["c2-"]
    line = line_of(COVER_CAP)
    assert line is not None and line[0] == "c5"
    capped = TakGame.from_tps(COVER_CAP)
    capped.play_all(["c5", "Sc1"])
    assert [m.ptn() for m in T.tinue(capped, 1) or ()] == ["c2-*"]
    assert line_of(COVER_CAP_BLOCKED) is None  # a capstone block cannot be flattened


def test_a_road_of_the_defender_comes_first() -> None:
    assert line_of(BLACK_FIRST) is None and line_of(BLACK_FIRST, 5) is None
    assert line_of(BLACK_CRUSHES) is None  # black's c4+* makes the road
    assert line_of(BLACK_CANNOT) is not None


def test_a_road_in_one_is_a_one_ply_tinue() -> None:
    game = TakGame.from_tps("x5/x5/x5/1,1,1,1,x/2,2,2,x2 1 5")
    assert [m.ptn() for m in T.tinue(game, 1) or ()] == ["e2"]
    assert T.tinue(game, 0) is None
    game.play_text("e2")
    assert T.tinue(game) is None and not T.is_tak(game)  # the game is over


def test_marks_tak_and_tinue() -> None:
    game = TakGame.from_tps(FORK)
    assert T.mark(game) == ""  # white to move: black's last move threatened nothing
    game.play_text("d2")
    assert T.is_tak(game) and T.is_tinue(game) and T.mark(game) == "''"
    single = TakGame.from_tps(COVER)
    single.play_text("c5")
    assert T.is_tak(single) and not T.is_tinue(single) and T.mark(single) == "'"
    assert T.defended(single.fast_board()) is None


def test_draw_rules_make_the_game_level_view_decline() -> None:
    cycle = ["d4+", "a5-", "d5-", "a4+"]  # quiet plies that come back to the start
    quiet = TakGame.from_tps(FORK, {"rule50": "true"})
    assert T.tinue(quiet, 3) is not None
    for _ in range(12):
        quiet.play_all(cycle)
    assert quiet.quiet_plies == 48 and quiet.hash_key() == TakGame.from_tps(FORK).hash_key()
    assert T.tinue(quiet, 3) is None and not T.is_tinue(quiet)  # rule50 could end it first
    repeated = TakGame.from_tps(FORK, {"repetition": "true"})
    repeated.play_all(cycle)
    assert T.tinue(repeated, 3) is None  # this position has been seen twice


def test_the_board_is_left_as_it_was_and_a_table_can_be_kept() -> None:
    board = TakGame.from_tps(COVER_CAP).fast_board()
    before = (board.tps(), board.hash, board.stones[:], board.capstones[:])
    table: T.Table = {}
    first = T.solve(board, 5, table)
    assert (board.tps(), board.hash, board.stones[:], board.capstones[:]) == before
    assert table and T.solve(board, 5, table) == first


def test_a_budget_gives_up_and_leaves_the_board_and_table_sound() -> None:
    board = TakGame.from_tps(FORK).fast_board()
    before = (board.tps(), board.hash)
    table: T.Table = {}
    assert T.solve(board, 5, table, budget=1) is None  # the first position spends it
    assert (board.tps(), board.hash) == before and table == {}
    assert T.solve(board, 5, table, budget=10_000) == T.solve(board.copy(), 5)
    assert (board.tps(), board.hash) == before


def test_opening_plies_have_no_tinue() -> None:
    game = TakGame.new({"size": "3"})
    assert T.tinue(game) is None and not T.is_tak(game) and not T.is_tinue(game)
    game.play_text("a1")
    assert T.tinue(game) is None and not T.is_tak(game)


# ---- properties on small boards ----------------------------------------------------
def threat_wins(board: Board, attacker: int, plies: int) -> bool:
    """The claim, searched plainly: the attacker (to move) forces a win within `plies`
    plies with threat moves (moves that win, or leave a road in one found by trying
    every move) against every reply."""
    if plies < 1:
        return False
    for code in board.moves():
        board.make(code)
        res = board.result()
        if res is not None:
            ok = res[0] == attacker
        else:
            ok = plies >= 3 and has_road_in_one(board, attacker)
            ok = ok and every_reply_loses(board, attacker, plies - 1)
        board.unmake(code)
        if ok:
            return True
    return False


def every_reply_loses(board: Board, attacker: int, plies: int) -> bool:
    for code in board.moves():
        board.make(code)
        res = board.result()
        ok = res[0] == attacker if res is not None else threat_wins(board, attacker, plies - 1)
        board.unmake(code)
        if not ok:
            return False
    return True


def has_road_in_one(board: Board, colour: int) -> bool:
    saved = board.turn
    board.turn = colour
    try:
        for code in board.moves():
            board.make(code)
            won = board.has_road(colour)
            board.unmake(code)
            if won:
                return True
        return False
    finally:
        board.turn = saved


SMALL = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
small_games = st.builds(
    random_game, st.sampled_from([3, 4]), st.integers(0, 2**32), st.integers(4, 40)
)


@SMALL
@given(small_games, st.sampled_from([1, 3, 5]))
def test_solver_agrees_with_plain_searches(game: TakGame, plies: int) -> None:
    """A line is a real forced win (minimax over all moves agrees within 3 plies, where
    it stays quick, and the line plays out); None means the plain threat-move search
    finds no forced win either."""
    if game.result is not None:
        return
    line = T.tinue(game, plies)
    board = game.fast_board()
    assert (line is not None) == threat_wins(board, board.turn, plies)
    if line is not None:
        assert plies > 3 or wins(game.copy(), plies)
        replay = game.copy()
        replay.play_all([m.ptn() for m in line])
        assert replay.result is not None and replay.result.winners == (game.turn,)
        assert len(line) <= plies


@SMALL
@given(small_games)
def test_tak_is_a_road_in_one_for_the_side_that_moved(game: TakGame) -> None:
    if game.result is not None or game.ply < 2:
        return
    board = game.fast_board()
    assert T.is_tak(game) == has_road_in_one(board, 1 - board.turn)
    assert T.is_tinue(game) == every_reply_loses(board, 1 - board.turn, 2)


@pytest.mark.parametrize("tps", [FORK, COVER_CAP])
def test_five_ply_search_confirms_three_ply_tinues(tps: str) -> None:
    assert line_of(tps, 5) is not None


@pytest.mark.parametrize("name", ["tak", "trike", "traxit"])
def test_the_game_interface_proves_forced_wins_only_where_it_says_so(name: str) -> None:
    from rules.registry import game_class, new_game

    game = TakGame.from_tps(FORK) if name == "tak" else new_game(name)
    line = game.forced_win(3, {})
    if game_class(name).proves_forced_wins:
        assert line is not None and [m.ptn() for m in line] == line_of(FORK)
    else:
        assert line is None
