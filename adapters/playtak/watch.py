"""Waiting for a condition on state that its owner announces when it changes."""

from __future__ import annotations

from collections.abc import Callable

import trio


class Changes:
    """The owner calls `notify()` after every change; `wait_for` wakes on each one."""

    def __init__(self) -> None:
        self._event = trio.Event()

    def notify(self) -> None:
        self._event.set()
        self._event = trio.Event()

    async def next(self) -> None:
        """Return at the next change."""
        await self._event.wait()

    async def wait_for(
        self, predicate: Callable[[], object], what: str, timeout: float = 10.0
    ) -> None:
        """Return once `predicate()` is true; trio.TooSlowError naming `what` when it is
        still false after `timeout` seconds."""
        with trio.move_on_after(timeout):
            while not predicate():
                await self._event.wait()
            return
        raise trio.TooSlowError(f"{what}: not reached within {timeout} s")
