"""Playtak bridge state behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from adapters.playtak import bridge_events as ev
from adapters.playtak.live_game import ptn_record, write_record
from tests.adapters.playtak.test_playtak_bridge_state import (
    BLACK_START,
    CRASH,
    WHITE_START,
    Script,
    of,
    sent,
    think,
)


@pytest.mark.parametrize(("clocks", "resigns"), [("2000 60000", True), ("60000 2000", False)])
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


def test_a_game_start_without_a_clock_warns_of_no_clamped_clock(
    caplog: pytest.LogCaptureFixture,
) -> None:
    script = Script()
    script.login()
    with caplog.at_level(logging.INFO):
        out = script.feed("Game Start 5 Guest1 vs bobby white 5 0 0 0 21 1 0 0 0 0 0")
    assert of(ev.Think, out)  # the game is played
    assert not [r.getMessage() for r in caplog.records if "clamped" in r.getMessage()]


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
