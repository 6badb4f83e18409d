"""The Traxit search bot: every kind of action, limits, stop, info reports."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots import Info, Limits
from bots.deepening import SearchAborted
from bots.registry import make_bot
from bots.traxit.search import CHECK_MASK, AlphaBetaSearcher, MaxNSearcher, make_searcher
from rules.traxit.game import TraxitGame
from rules.traxit.state import legal

POSITIONS = {
    "setup": "TX 8/8/2x2x2/8/8/2x2x2/8/8 R@S,G@N R:place 1.1 ffff,ffff 0,0 00",
    "choose": "TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:choose 1.1 ffff,ffff 0,0 00",
    "move": "TX 2G3G1/8/2x2x2/8/8/2x2x2/8/2R2R2 R@S,G@N R:T08 1.1 ffff,ffff 0,0 00",
    "relocate": "TX 8/8/2x2x2/5G2/4R3/2xG1x2/1R6/8 R@S,G@N R:traxit:T05 1.1 ffff,ffff 0,0 00",
    "four": "TX 3G4/8/8/8/8/B6Y/8/1R6 R@S,B@W,G@N,Y@E R:place 1.1 ffff,ffff,ffff,ffff 0,0,0,0 0000",
}


def think(text: str, limits: Limits) -> tuple[TraxitGame, str, list[Info]]:
    game = TraxitGame.from_position_string(text)
    reports: list[Info] = []
    bot = make_bot("traxit", "search")
    action = bot.think(game.copy(), limits, threading.Event(), reports.append)
    return game, game.format_action(action), reports


@pytest.mark.parametrize("kind", sorted(POSITIONS))
def test_search_answers_every_kind_of_action(kind: str) -> None:
    game, text, reports = think(POSITIONS[kind], Limits(depth=3))
    assert text in {game.format_action(a) for a in game.legal()}
    assert reports and reports[-1].pv[0] == text
    assert all(r.depth is not None and r.depth <= 3 for r in reports)


def test_search_takes_the_top_when_it_can() -> None:
    # red at d3 with a one-step tile, last round of the last set: d3-d4 scores 100 now
    text = "TX 1G4G1/8/2x2x2/8/8/2xR1x2/8/2R5 R@S,G@N R:T01 4.4 0001,0001 0,0 00"
    _, action, _ = think(text, Limits(depth=2))
    assert action == "d3-d4"


def test_node_limit_bounds_the_search() -> None:
    game, text, reports = think(POSITIONS["choose"], Limits(nodes=600))
    assert text in {game.format_action(a) for a in game.legal()}
    assert all(r.nodes is not None and r.nodes <= 600 + 128 for r in reports)


@pytest.mark.parametrize("options", [{}, {"players": "3"}])
def test_a_passed_deadline_stops_the_search_within_a_few_nodes(options: dict[str, str]) -> None:
    game = TraxitGame.new(options)
    layout, state = game.layout, game.state
    searcher = make_searcher(layout, time.monotonic() - 1.0, 0, threading.Event())
    with pytest.raises(SearchAborted):
        searcher.root(state, 8, legal(layout, state))
    # slow nodes on a loaded machine: checks every 128 nodes overran 100 ms searches
    assert searcher.nodes <= CHECK_MASK + 1 <= 8


def test_stop_ends_an_infinite_search() -> None:
    game = TraxitGame.from_position_string(POSITIONS["choose"])
    bot = make_bot("traxit", "search")
    stop = threading.Event()
    box: list[object] = []
    worker = threading.Thread(
        target=lambda: box.append(bot.think(game.copy(), Limits(infinite=True), stop, print))
    )
    worker.start()
    stop.set()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert box and box[0] in game.legal()


ARENA_ARGS = ("--players", "3", "--short-game", "--games", "1", "--movetime", "5")


@pytest.mark.process
def test_arena_script_plays_a_short_game() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "bots.traxit.arena", *ARENA_ARGS],
        capture_output=True,
        text=True,
        check=True,
        timeout=100,
    ).stdout
    assert "search" in out and "average points" in out


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([{}, {"players": "4", "teams": "true"}]), st.integers(0, 10**6))
def test_alpha_beta_finds_the_max_n_value(options: dict[str, str], seed: int) -> None:
    game = TraxitGame.new(options)
    rng = random.Random(seed)
    for _ in range(rng.randrange(0, 60)):
        if game.result is None:
            game.play(rng.choice(game.legal()))
    if game.result is not None:
        return
    layout, state = game.layout, game.state
    order = legal(layout, state)
    for depth in (1, 2, 3):
        args = (layout, float("inf"), 0, threading.Event())
        full, _ = MaxNSearcher(*args).root(state, depth, list(order))
        pruned = AlphaBetaSearcher(*args)
        values, action = pruned.root(state, depth, list(order))
        assert values == pytest.approx(full)
        assert action in order
