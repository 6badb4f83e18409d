"""A hostile or broken server: starts that cannot be ours are ignored (said once, never
counted), repeated requests are logged once, negative clocks never reach a record."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import trio

from adapters.playtak import bridge_events as ev
from adapters.playtak.bridge_state import RESUME_WAIT
from adapters.playtak.live_game import ptn_record
from adapters.playtak.repeats import Repeats
from tests.adapters.playtak.test_playtak_bridge_state import (
    BLACK_START,
    SEEK_LINE,
    WHITE_START,
    Script,
    of,
    sent,
)
from tests.support.playtak.bridges import login_burst, run_until, scripted_bridge
from tests.support.playtak.lines import LineClient

NOT_OURS = [
    ("Game Start 5 Guest1 vs bobby purple 5 60 0 0 21 1 0 0 0 0 0", "the colour 'purple'"),
    ("Game Start 5 alice vs bobby white 5 60 0 0 21 1 0 0 0 0 0", "seats alice as white"),
    ("Game Start 5 bobby vs Guest1 white 5 60 0 0 21 1 0 0 0 0 0", "seats bobby as white"),
    ("Game Start 5 Guest1 vs bobby white 5 -60 -1 0 21 1 0 0 0 0 0", "negative clock"),
]


@pytest.mark.parametrize(("line", "why"), NOT_OURS)
def test_a_start_that_cannot_be_ours_is_ignored_said_once_and_not_counted(
    line: str, why: str, caplog: pytest.LogCaptureFixture
) -> None:
    script = Script(games=1)
    script.login()
    for _ in range(3):
        assert script.feed(line, "Game#5 P A1", "Game#5 Over 1-0") == []
    assert script.state.live is None and script.state.finished == [] and not script.state.done
    said = [r.getMessage() for r in caplog.records if "cannot be ours" in r.getMessage()]
    assert len(said) == 1 and why in said[0], said
    script.feed(WHITE_START)  # a game of ours is played as usual
    assert script.state.live is not None


def test_a_start_while_in_a_game_is_not_a_second_game() -> None:
    script = Script(games=2)
    script.login()
    script.feed(BLACK_START)
    assert script.feed(WHITE_START) == []
    live = script.state.live
    assert live is not None and live.start.game_id == 2 and script.state.finished == []


def test_a_start_before_the_login_that_is_never_resumed_is_dropped_uncounted(
    caplog: pytest.LogCaptureFixture,
) -> None:
    script = Script(games=1)
    script.feed(ev.Connected("Guest1"), WHITE_START, ev.Settled())
    assert script.state.live is not None and not of(ev.Think, script.feed(ev.Tick()))
    wake = script.state.wake_at()
    assert wake == script.now + RESUME_WAIT
    script.later(RESUME_WAIT)
    assert sent(script.feed(ev.Tick())) == [SEEK_LINE]  # not ours: the bot seeks
    assert script.state.live is None and script.state.finished == []
    assert "began before our login and was not resumed within 10 s" in caplog.text


def test_a_start_before_the_login_that_is_resumed_is_played() -> None:
    script = Script()
    script.feed(ev.Connected("Guest1"), WHITE_START, ev.Settled())
    script.later(1)
    assert of(ev.Think, script.feed("Message Your game is resumed"))
    script.later(RESUME_WAIT)
    script.feed(ev.Tick())
    assert script.state.live is not None


def test_thousands_of_draw_offers_and_undo_requests_are_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    script = Script()
    script.login()
    script.feed(BLACK_START)
    for _ in range(3000):
        assert script.feed("Game#2 OfferDraw", "Game#2 RequestUndo") == []
    texts = [r.getMessage() for r in caplog.records]
    assert sum("draw offered" in t for t in texts) == 1
    assert sum("undo requested" in t for t in texts) == 1
    assert len(caplog.records) < 10


def test_repeats_are_bounded_in_kinds_too() -> None:
    repeats = Repeats(limit=2, keys=3)
    assert [repeats.first("a") for _ in range(3)] == [True, True, False]
    assert [repeats.first(str(n)) for n in range(100)].count(True) == 2 + 2  # "0", "1", more


def test_a_negative_clock_never_reaches_the_clock_tag() -> None:
    script = Script()
    script.login()
    script.feed(BLACK_START)
    live = script.state.live
    assert live is not None
    live.inc_ms = -1000
    assert '[Clock "1:00 +0"]' in ptn_record(live, "*", "here")


@pytest.mark.process
async def test_a_hostile_server_gets_no_game_counted_and_a_bounded_log(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """End to end with a real engine: the bot sees starts that are not its games (before
    its login, of others, purple, negative clocks, a replay of another size) and
    thousands of draw offers and unreadable lines, and plays only its real game."""
    caplog.set_level(logging.INFO)
    done = trio.Event()
    seen: list[str] = []

    async def script(conn: LineClient) -> None:
        early = ["Game Start 7 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0"]
        await login_burst(conn, "Guest1", before_welcome=early)
        for line, _ in NOT_OURS:
            await conn.send(line.replace(" 5 Guest1", " 8 Guest1").replace("Start 5", "Start 8"))
        await conn.send("Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game Start 2 bobby vs Guest1 black 6 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game Start 7 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0")
        await conn.stream.send_all(b"Game#2 OfferDraw\nJunk here\n" * 3000)
        await conn.send("Game#2 P A1")
        seen.extend(await conn.expect("Game#2 *", timeout=30))
        await conn.send("Game#2 Over 0-1")
        seen.extend(await conn.expect("Seek *", timeout=30))
        done.set()
        await trio.sleep(30)

    bridge = await scripted_bridge(
        nursery, script, seek="5 60 0 A", games=2, ptn_dir=tmp_path, dead_after=30
    )
    await run_until(bridge, done, "the real game played and a seek after it", timeout=60)
    assert [(g, r) for g, r, _ in bridge.finished] == [(2, "0-1")]
    assert not any(line.startswith("Game#7") or line.startswith("Game#8") for line in seen)
    assert [p.name for p in tmp_path.iterdir()] == [str(bridge.finished[0][2].name)]
    assert len(caplog.records) < 60, len(caplog.records)
