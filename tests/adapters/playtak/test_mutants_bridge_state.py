"""Playtak bridge state behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from adapters.playtak import bridge_events as ev
from adapters.playtak.live_game import ptn_record, write_record
from rules.tak.game import TakGame
from tei.seat import NewGame
from tests.adapters.playtak.test_playtak_bridge_state import (
    BLACK_START,
    CRASH,
    HALFKOMI,
    WHITE_START,
    Script,
    of,
    sent,
    think,
)


@pytest.mark.parametrize(
    ("clocks", "resigns"),
    [
        ("2000 60000", True),
        ("60000 2000", False),
        ("2999 60000", True),  # at least 3 s on our clock for a restart
        ("3000 60000", False),
    ],
)
def test_restarting_a_failed_engine_depends_on_our_clock_not_the_opponents(
    clocks: str, resigns: bool
) -> None:
    script = Script()  # we play white: the first clock is ours
    script.login()
    ticket = think(script.feed(WHITE_START)).ticket
    script.feed(f"Game#5 Timems {clocks}")
    out = script.feed(ev.EngineFailed(ticket, CRASH))
    assert sent(out) == (["Game#5 Resign"] if resigns else [])
    assert len(of(ev.Restart, out)) == (0 if resigns else 1)


@pytest.mark.parametrize(
    ("seconds", "said"),
    [
        ("0", []),  # no clock: nothing clamped
        ("3000000", ["clock 3000000000 ms from the server clamped to 2147483647 ms"]),
    ],
)
def test_a_game_start_warns_of_a_clamped_clock_only(
    caplog: pytest.LogCaptureFixture, seconds: str, said: list[str]
) -> None:
    script = Script()
    script.login()
    with caplog.at_level(logging.INFO):
        out = script.feed(f"Game Start 5 Guest1 vs bobby white 5 {seconds} 0 0 21 1 0 0 0 0 0")
    assert of(ev.Think, out)  # the game is played
    assert [r.getMessage() for r in caplog.records if "clamped" in r.getMessage()] == said


def test_a_server_move_that_does_not_fit_our_game_makes_us_resign() -> None:
    script = Script()
    script.login()
    script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5")
    out = script.feed("Game#2 Timems 60000 59000", "Game#2 P E5")  # e5 is taken
    assert sent(out) == ["Game#2 Resign"]


@pytest.mark.parametrize("signal", ["RemoveDraw", "RemoveUndo", "OfferDraw", "RequestUndo"])
def test_only_an_agreed_undo_takes_back_a_ply(signal: str) -> None:
    script = Script()
    script.login()
    script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5")
    script.feed("Game#2 Timems 60000 59000", f"Game#2 {signal}")
    assert script.state.live is not None and script.state.live.moves == ["P A1", "P E5"]


def test_the_record_of_a_game_with_an_increment_says_it_in_seconds() -> None:
    script = Script()
    script.login()
    script.feed("Game Start 5 Guest1 vs bobby white 5 60 5 0 21 1 0 0 0 0 0")
    live = script.state.live
    assert live is not None and live.inc_ms == 5000
    assert '[Clock "1:00 +5"]' in ptn_record(live, "0-R", "playtak.com")


@pytest.mark.parametrize(("start", "opponent"), [(WHITE_START, "bobby"), (BLACK_START, "bobby")])
def test_the_opponent_is_the_other_seats_player(start: str, opponent: str) -> None:
    script = Script()
    script.login()
    script.feed(start)
    assert script.state.live is not None and script.state.live.opponent == opponent


def test_a_record_whose_name_is_taken_is_written_beside_it_numbered(tmp_path: Path) -> None:
    script = Script()
    script.login()
    script.feed(WHITE_START)
    live = script.state.live
    assert live is not None
    first = write_record(live, "0-R", tmp_path, "playtak.com")
    second = write_record(live, "R-0", tmp_path, "playtak.com")
    assert second == first.with_name(first.name.replace(".ptn", "-2.ptn"))
    assert '[Result "0-R"]' in first.read_text() and '[Result "R-0"]' in second.read_text()


def _plan(clocks: str, **settings: Any) -> tuple[ev.MovePlan, float]:
    """The engine's plan as white, to move with the server's `clocks` (ms) just in."""
    script = Script(**settings)
    script.login()
    ticket = think(script.feed(WHITE_START)).ticket
    script.feed(f"Game#5 Timems {clocks}")
    plan = script.state.plan(ticket, script.now)
    assert plan is not None
    return plan, script.now


@pytest.mark.parametrize(
    ("ours", "overhead", "seconds", "grace"),
    [
        (20_000, 100, 18.0, 1.0),  # the clock less a tenth of it
        (400_000, 100, 100.0, 1.0),  # at most a quarter of the clock (over 30 s)
        (1_000, 1000, 0.05, 0.3),  # the overhead takes more than the clock: 50 ms
        (5_555, 100, 5.0, 0.3),  # a budget of 5000 ms: the short grace
        (5_556, 100, 5.001, 1.0),  # just over 5000 ms: the long grace
    ],
)
def test_the_deadline_and_grace_follow_our_clock(
    ours: int, overhead: int, seconds: float, grace: float
) -> None:
    plan, now = _plan(f"{ours} 60000", move_overhead_ms=overhead)
    assert plan.deadline == pytest.approx(now + seconds, abs=1e-9)
    assert plan.grace == grace


def test_the_default_move_overhead_is_the_documented_second() -> None:
    script = Script()
    script.login()
    script.feed(WHITE_START)
    assert script.state.live is not None
    plan = ev.move_plan(script.state.live, script.now, ev.BridgeSettings())
    assert (plan.limits.wtime, plan.limits.btime) == (59_000, 60_000)


def test_events_holding_mutable_parts_are_told_apart_by_identity() -> None:
    """An engine's declarations and a ponder request are each one event: two with equal
    contents are not the same event (and the declarations, a dict, still hash)."""
    ready = ev.EngineReady(HALFKOMI)
    assert ready != ev.EngineReady(HALFKOMI) and len({ready, ready}) == 1
    game = TakGame.new({"size": "5"})
    new_game = NewGame("tak", {"size": "5"}, key=5)
    assert ev.Ponder(1, new_game, game) != ev.Ponder(1, new_game, game)


def test_a_clock_of_another_game_leaves_ours_alone() -> None:
    script = Script()
    script.login()
    ticket = think(script.feed(WHITE_START)).ticket
    script.feed("Game#9 Timems 1000 2000")  # another game's clocks
    plan = script.state.plan(ticket, script.now)
    assert plan is not None and (plan.limits.wtime, plan.limits.btime) == (59_900, 60_000)


def test_a_komi_the_engine_declares_is_played() -> None:
    script = Script()
    script.login()
    out = script.feed("Game Start 5 Guest1 vs bobby white 5 60 0 4 21 1 0 0 0 0 0")
    assert dict(think(out).new_game.rules) == {"size": "5", "halfkomi": "4"}


def test_the_opponents_move_is_shown_as_the_other_seats() -> None:
    script = Script()
    script.login()
    script.answer(script.feed(WHITE_START), "a1")
    script.feed("Game#5 Timems 59000 60000", "Game#5 P E5")
    assert [o.seat for o in script.shown if isinstance(o, ev.ShowMove)] == [0, 1]
