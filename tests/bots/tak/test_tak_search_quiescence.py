"""The Tak search's threat quiescence: road threats made or met at the horizon are
followed, so a placement that makes two threats is a win at depth 1."""

from __future__ import annotations

import threading

from bots import Info, Limits
from bots.tak.bot import TakSearchBot
from bots.tak.eval import step_wins, threat_answers, threat_placements, win_squares
from bots.tak.search import INF, WIN_BOUND, Searcher
from rules.tak.board import code_ptn
from rules.tak.game import TakGame
from tests.bots.tak.test_tak_eval import random_positions

# white (to move) on a3 b3 c3, e2 and e4: a flat on d3 threatens e3, d2 and d4 at once;
# no placement or step makes a road now
TAK = "2,2,x2,2/x4,1/1,1,1,x2/x4,1/x5 1 4"


def horizon_value(quiescence: bool) -> int:
    searcher = Searcher()
    searcher.quiescence = quiescence
    searcher.max_ply = 0  # the bot's default: no must-block extension
    searcher.load(TakGame.from_tps(TAK).fast_board())
    return searcher.search(0, -INF, INF, 1)


def test_at_the_horizon_a_placement_making_two_threats_scores_as_a_win() -> None:
    assert horizon_value(True) > WIN_BOUND
    assert horizon_value(False) < WIN_BOUND  # the static value


def depth_one(quiescence: str) -> tuple[Info, str]:
    bot = TakSearchBot({"ThreatQuiescence": quiescence})
    infos: list[Info] = []
    move = bot.think(TakGame.from_tps(TAK), Limits(depth=1), threading.Event(), infos.append)
    return infos[-1], str(move)


def test_the_bot_proves_the_tak_at_depth_one_only_with_the_quiescence() -> None:
    info, move = depth_one("1")
    assert info.depth == 1 and info.solved == "win"
    assert move.endswith("d3")
    info, _ = depth_one("0")
    assert info.depth == 1 and info.solved is None


def test_threat_placements_are_exactly_the_placements_that_threaten_a_road() -> None:
    found = 0
    for game in random_positions(11, 300):
        board = game.fast_board()
        t = board.t
        empty = t.full & ~(board.white | board.black)
        for turn in (0, 1):
            mine = board.road_bits(turn)
            if win_squares(t, mine, empty):
                continue  # a road in one already: not asked
            expected = 0
            for sq in range(t.squares):
                if empty >> sq & 1 and win_squares(t, mine | 1 << sq, empty & ~(1 << sq)):
                    expected |= 1 << sq
            assert threat_placements(t, mine, empty) == expected, (board.tps(), turn)
            found += expected != 0
    assert found >= 20


def test_every_move_left_out_of_the_answers_leaves_the_road_in_one() -> None:
    checked = 0
    for game in random_positions(12, 400):
        board = game.fast_board()
        t = board.t
        mover = board.turn
        empty = t.full & ~(board.white | board.black)
        theirs = board.road_bits(1 - mover)
        threat = win_squares(t, theirs, empty) | step_wins(board, 1 - mover)
        if not threat or board.winning_move() is not None:
            continue
        answers = threat_answers(board, threat, theirs)
        assert set(answers) <= set(board.moves())
        for code in board.moves():
            if code in answers:
                continue
            board.make(code)
            after = t.full & ~(board.white | board.black)
            road_left = win_squares(t, board.road_bits(1 - mover), after) or step_wins(
                board, 1 - mover
            )
            board.unmake(code)
            assert road_left, (board.tps(), code_ptn(code, t.size))
            checked += 1
    assert checked >= 50
