"""Playtak bridge state behaviours a mutation run found untested (docs/mutation.md)."""

from __future__ import annotations

import pytest

from adapters.playtak import bridge_events as ev
from tests.adapters.playtak.test_playtak_bridge_state import (
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
