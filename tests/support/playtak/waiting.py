"""Waiting in tests without polling: a count that can be awaited, and a log watch."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import trio


class Tally:
    """A count that tasks can wait on."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.count = 0
        self._changed = trio.Event()

    def add(self) -> None:
        self.count += 1
        self._changed.set()
        self._changed = trio.Event()

    async def reach(self, wanted: int, timeout: float = 10.0) -> None:
        """Return once the count is `wanted`; fail with a message after `timeout` s."""
        with trio.move_on_after(timeout):
            while self.count < wanted:
                await self._changed.wait()
            return
        raise AssertionError(f"{self.what}: {self.count} after {timeout:g} s, wanted {wanted}")


class LogWatch(logging.Handler):
    """Keeps the messages of a logger; counts those that contain `text` in `matches`."""

    def __init__(self, text: str) -> None:
        super().__init__(logging.DEBUG)
        self.text = text
        self.messages: list[str] = []
        self.matches = Tally(f"log messages with {text!r}")

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        self.messages.append(message)
        if self.text in message:
            self.matches.add()

    def with_text(self) -> list[str]:
        return [message for message in self.messages if self.text in message]


@contextmanager
def watch_log(text: str, logger: str = "playtak") -> Iterator[LogWatch]:
    """Watch the messages of `logger` (and those below it) while the block runs."""
    watch = LogWatch(text)
    target = logging.getLogger(logger)
    saved = target.level
    target.addHandler(watch)
    target.setLevel(logging.DEBUG)
    try:
        yield watch
    finally:
        target.removeHandler(watch)
        target.setLevel(saved)
