"""A real browser watches a short match of built-in bots on the live page: the board
changes move by move, the standings and the finished games fill in."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from adapters.referee.config import DEFAULTS, build_config
from adapters.referee.runner import Match
from adapters.stream.bus import EventBus
from adapters.stream.live_state import LiveState
from adapters.web.live import serve_live
from tests.support.browser import browser_page, chromium_path

pytestmark = pytest.mark.browser

WAIT_MS = 60_000


def watch_page(url: str, shot: Path) -> dict[str, Any]:
    """Open the page and follow the match; what was seen (raises on a wait that fails)."""
    seen: dict[str, Any] = {}
    with browser_page() as page:
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(url)
        page.wait_for_selector("#connection.online", timeout=WAIT_MS)
        board = page.wait_for_selector(".game .board svg", timeout=WAIT_MS)
        assert board is not None
        first = page.eval_on_selector(".game .board", "b => Number(b.dataset.plies)")
        first_svg = page.inner_html(".game .board")
        page.wait_for_function(
            "n => { const b = document.querySelector('.game .board');"
            " return b && Number(b.dataset.plies) >= n + 2; }",
            arg=first,
            timeout=WAIT_MS,
        )
        seen["board_changed"] = page.inner_html(".game .board") != first_svg
        seen["moves"] = page.inner_text(".game .moves")
        seen["clocks"] = page.eval_on_selector_all(
            ".game .clock", "cs => cs.map(c => c.textContent)"
        )
        page.wait_for_function(
            "() => [...document.querySelectorAll('#standings tbody tr')]"
            ".some(r => Number(r.children[2].textContent) >= 1)",
            timeout=WAIT_MS,
        )
        seen["standings"] = page.inner_text("#standings tbody")
        link = page.wait_for_selector("#finished tbody tr a", timeout=WAIT_MS)
        assert link is not None
        seen["record_link"] = link.get_attribute("href")
        seen["progress"] = page.inner_text("#progress")
        page.screenshot(path=str(shot), full_page=True)
        seen["errors"] = errors
    return seen


@pytest.mark.timeout(300)  # a browser start on a loaded machine takes tens of seconds
async def test_a_browser_sees_the_board_change_and_the_standings_update(
    tmp_path: Path, nursery: trio.Nursery
) -> None:
    chromium_path()  # skip (or fail under CI) before starting anything
    config = build_config(
        {
            **DEFAULTS,
            "engines": [{"bot": "search"}, {"bot": "greedy"}],
            "each": {"tc": "3+0.05"},
            "games": 2,
            "rules": {"size": "4"},
        }
    )
    bus = EventBus(LiveState(title="browser test"))
    match = Match.open(config, publish=bus.publish)
    url = await nursery.start(serve_live, bus, "127.0.0.1", 0)

    async def play() -> None:
        with trio.fail_after(180):
            await bus.wait_subscribers(1)  # the page is connected
        await match.run(handle_signals=False)

    nursery.start_soon(play)
    shot = tmp_path / "live.png"
    seen = await trio.to_thread.run_sync(watch_page, url, shot)
    bus.close()
    assert seen["errors"] == []
    assert seen["board_changed"], seen
    assert "1." in seen["moves"]
    assert all(":" in c for c in seen["clocks"]), seen["clocks"]  # m:ss clocks, not "–"
    assert "search" in seen["standings"] and "greedy" in seen["standings"]
    assert seen["record_link"].startswith("/games/") and seen["record_link"].endswith(".ptn")
    assert "of 2 games" in seen["progress"]
    assert shot.stat().st_size > 10_000
