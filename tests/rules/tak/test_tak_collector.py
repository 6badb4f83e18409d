"""The Tak core and search under Python's cyclic garbage collector (both builds).

The collector counts the references an object holds through its type's traverse
function. A compiled class that reports one reference twice (mypyc 2.4 repeats an
attribute a subclass annotates again) makes an object it points to look unreferenced:
when the holder is itself garbage in a cycle, the collector clears the object's
attributes although other code still uses it. These tests fail on such a build.
"""

from __future__ import annotations

import gc
import importlib
import threading
from collections.abc import Iterator

import pytest

from bots import Limits, compiled
from bots.tak.bot import TakSearchBot
from rules.tak.board import Board
from rules.tak.game import TakGame
from rules.tak.tables import SizeTables, tables


def drop_in_cycle(board: Board) -> None:
    """Make `board` garbage inside a reference cycle (only the collector frees it)."""
    cycle: list[object] = [board]
    cycle.append(cycle)


def play_some(board: Board, plies: int) -> None:
    for _ in range(plies):
        board.make(board.moves()[0])


def test_a_board_reports_its_tables_to_the_collector_once() -> None:
    board = Board(5, 21, 1)
    assert gc.get_referents(board).count(board.t) == 1


def test_tables_outlive_a_board_collected_in_a_cycle() -> None:
    shared = SizeTables(5, 2 * 22 + 1)  # held here and by the board only
    drop_in_cycle(Board(5, 21, 1, shared=shared))
    gc.collect()
    board = Board(5, 21, 1, shared=shared)
    play_some(board, 6)
    assert board.ply == 6


@pytest.fixture
def frozen_heap() -> Iterator[None]:
    """Everything allocated so far stays out of the next collections (as an old
    generation does for a young collection): the cached tables' holder among them."""
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()


def test_cached_tables_outlive_boards_collected_between_searches(frozen_heap: None) -> None:
    # tables cached after the freeze, while the cache itself is older: a board left in
    # a cycle between two searches must not take them down with it
    options = {"size": "6", "flats": "9", "caps": "0"}
    for _ in range(3):
        game = TakGame.new(options)
        TakSearchBot().think(game, Limits(nodes=300), threading.Event(), lambda info: None)
        board = game.fast_board()
        assert board.t is tables(6, 2 * 9 + 1)  # (no reference kept here)
        play_some(board, 4)
        del game
        gc.collect()  # the search's own leftovers first
        drop_in_cycle(board)
        del board
        gc.collect()


@pytest.mark.skipif(not compiled.compiled(), reason="the compiled build is not installed")
def test_no_compiled_class_lists_an_attribute_twice() -> None:
    twice = []
    for name in compiled.module_names():
        for value in vars(importlib.import_module(name)).values():
            attrs = getattr(value, "__mypyc_attrs__", None)
            if attrs is not None and value.__module__ == name and len(set(attrs)) < len(attrs):
                twice.append(f"{name}.{value.__name__}")
    assert twice == []
