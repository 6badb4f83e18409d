"""Null-move pruning in the Tak search: the board comes back intact, fewer nodes."""

from __future__ import annotations

import threading

from bots import Info, Limits
from bots.tak.bot import TakSearchBot
from bots.tak.search import Searcher
from rules.tak.game import TakGame

MIDDLE_8 = (
    "x6,1,x/x8/x4,2S,x3/x4,12,x3/x3,112,2,1,x,2C/x2,12,11221S,2,x3/"
    "x,2,12,x,2,x,21C,21/x,1111112C,2,x2,1,1,x 1 31"
)


def test_each_finished_iteration_leaves_the_board_as_it_was() -> None:
    game = TakGame.from_tps(MIDDLE_8)
    board = game.fast_board()
    before = (board.tps(), board.hash, board.turn, board.ply, board.moves())
    searcher = Searcher()
    searcher.load(board)
    for depth in range(1, 5):
        searcher.root(depth)
        assert (board.tps(), board.hash, board.turn, board.ply, board.moves()) == before


def nodes_to_depth(null_move: bool, depth: int) -> tuple[int, Info]:
    bot = TakSearchBot()
    if not null_move:
        bot.searcher.null_min_size = 99
    infos: list[Info] = []
    game = TakGame.from_tps(MIDDLE_8)
    move = bot.think(game.copy(), Limits(depth=depth), threading.Event(), infos.append)
    assert move in game.legal()
    assert infos[-1].nodes is not None
    return infos[-1].nodes, infos[-1]


def test_null_move_pruning_needs_fewer_nodes_for_the_same_depth() -> None:
    with_null, info = nodes_to_depth(True, 4)
    without, _ = nodes_to_depth(False, 4)
    assert info.depth == 4
    assert with_null < without


def test_null_move_pruning_is_for_boards_of_6x6_and_larger() -> None:
    searcher = Searcher()
    for size, on in (("3", False), ("4", False), ("5", False), ("6", True), ("7", True)):
        searcher.load(TakGame.new({"size": size}).fast_board())
        assert searcher.null_move is on, size
    searcher.load(TakGame.from_tps(MIDDLE_8).fast_board())
    assert searcher.null_move
