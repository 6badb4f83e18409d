"""`Changes.wait_for`: wakes on each notice, fails naming what it waited for."""

from __future__ import annotations

import pytest
import trio

from adapters.playtak.watch import Changes


async def test_wait_for_returns_once_a_notified_change_makes_it_true(
    nursery: trio.Nursery, autojump_clock: trio.abc.Clock
) -> None:
    changes = Changes()
    state = {"n": 0}

    async def count() -> None:
        for _ in range(3):
            await trio.sleep(1)
            state["n"] += 1
            changes.notify()

    nursery.start_soon(count)
    await changes.wait_for(lambda: state["n"] == 3, "three counts", timeout=10)
    assert state["n"] == 3


async def test_wait_for_fails_naming_what_never_came(autojump_clock: trio.abc.Clock) -> None:
    changes = Changes()
    changes.notify()  # a change that leaves the condition false
    with pytest.raises(trio.TooSlowError, match="the moon: not reached within 5 s"):
        await changes.wait_for(lambda: False, "the moon", timeout=5)
