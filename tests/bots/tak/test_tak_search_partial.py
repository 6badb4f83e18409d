"""The Tak search's unfinished root iteration: a root move that beat the first one in its
null-window search is kept when the limit cuts its re-search short."""

from __future__ import annotations

import pytest

from bots.deepening import SearchAborted
from bots.tak.search import INF, Searcher
from rules.tak.game import TakGame

MIDDLE_5 = "2,x,1,x2/x,2,1,x2/x,2,12,1,x/x,1,2S,x2/1,x4 1 8"
DEPTH = 3


def loaded(first: int | None = None) -> Searcher:
    """A fresh searcher on the position, its root list led by `first` (a poor move)."""
    searcher = Searcher()
    searcher.load(TakGame.from_tps(MIDDLE_5).fast_board())
    if first is not None:
        searcher.root_moves.remove(first)
        searcher.root_moves.insert(0, first)
    return searcher


def fail_high_nodes(searcher: Searcher, depth: int) -> tuple[int, int]:
    """The root loop of `Searcher.root` up to the first later move whose null-window
    search beats the first move: (that move, the nodes counted when it did)."""
    board = searcher.board
    assert board is not None
    moves = searcher.root_moves
    board.make(moves[0])
    alpha = -searcher.search(depth - 1, -INF, INF, 1)
    board.unmake(moves[0])
    for code in moves[1:]:
        board.make(code)
        value = -searcher.search(depth - 1, -alpha - 1, -alpha, 1)
        board.unmake(code)
        if value > alpha:
            return code, searcher.nodes
    raise AssertionError("no later root move beat the first")


def test_a_move_that_failed_high_is_kept_when_its_re_search_is_cut() -> None:
    poor = loaded().root_moves[-1]  # the last in order: a poor first move
    better, nodes = fail_high_nodes(loaded(poor), DEPTH)
    searcher = loaded(poor)
    searcher.node_limit = nodes + 1  # the limit falls in the re-search of `better`
    with pytest.raises(SearchAborted):
        searcher.root(DEPTH)
    assert searcher.partial is not None
    assert searcher.partial[1] == better != poor
