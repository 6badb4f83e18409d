"""The in-process channel from a match to its watchers: a small fan-out that never blocks.

`publish(event)` (called from the match's trio thread) folds the event into the page
state, calls the plain listeners (the terminal) and offers the update to every
subscription. A subscription buffers at most `limit` updates; a subscriber that falls
behind loses its backlog and is told to start over from a fresh snapshot, so a slow
browser never holds up a game.
"""

from __future__ import annotations

import collections
from collections.abc import Callable
from typing import Any

import attrs
import trio

from adapters.referee.events import Event
from adapters.referee.live_state import LiveState

Listener = Callable[[Event], None]

#: updates a subscription holds before it is reset to a snapshot
DEFAULT_LIMIT = 256


@attrs.frozen
class Update:
    """One step for a subscriber: a patch to merge, or (`reset`) a whole snapshot."""

    data: dict[str, Any]
    reset: bool = False


class Subscription:
    """One watcher's bounded queue of updates; its first update is a snapshot."""

    def __init__(self, bus: EventBus, limit: int) -> None:
        self._bus = bus
        self.limit = limit
        self._items: collections.deque[Update] = collections.deque()
        self._wake = trio.Event()
        self.closed = False
        #: how often this subscriber fell behind and was reset
        self.resets = 0
        self._items.append(Update(bus.state.snapshot(), reset=True))

    def offer(self, patch: dict[str, Any]) -> None:
        if self.closed:
            return
        if len(self._items) >= self.limit:
            self._items.clear()
            self.resets += 1
            self._items.append(Update(self._bus.state.snapshot(), reset=True))
        else:
            self._items.append(Update(patch))
        self._wake.set()

    async def next(self) -> Update | None:
        """The next update; None once the subscription (or the bus) is closed."""
        while not self._items:
            if self.closed:
                return None
            await self._wake.wait()
            self._wake = trio.Event()
        return self._items.popleft()

    def close(self) -> None:
        self.closed = True
        self._wake.set()
        self._bus._drop(self)

    def __enter__(self) -> Subscription:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EventBus:
    """Fan-out of events to listeners (called inline) and subscriptions (queued)."""

    def __init__(self, state: LiveState | None = None, *, limit: int = DEFAULT_LIMIT) -> None:
        self.state = state or LiveState()
        self.limit = limit
        self._listeners: list[Listener] = []
        self._subscriptions: list[Subscription] = []
        self.closed = False
        self._changed = trio.Event()

    def publish(self, event: Event) -> None:
        self.state = self.state.apply(event)
        for listener in list(self._listeners):
            listener(event)
        if self._subscriptions:
            patch = self.state.patch(event)
            for sub in list(self._subscriptions):
                sub.offer(patch)

    def listen(self, listener: Listener) -> None:
        """Call `listener(event)` for every event from now on (it must not block)."""
        self._listeners.append(listener)

    def subscribe(self, limit: int | None = None) -> Subscription:
        """A queue of updates starting with a snapshot of the state now."""
        sub = Subscription(self, limit or self.limit)
        if self.closed:
            sub.closed = True
        else:
            self._subscriptions.append(sub)
            self._note_change()
        return sub

    @property
    def subscribers(self) -> int:
        return len(self._subscriptions)

    async def wait_subscribers(self, count: int) -> None:
        """Return once exactly `count` subscriptions are open (e.g. a page connected)."""
        while len(self._subscriptions) != count:
            await self._changed.wait()

    def _note_change(self) -> None:
        self._changed.set()
        self._changed = trio.Event()

    def close(self) -> None:
        """End every subscription (they drain what they hold, then get None)."""
        self.closed = True
        for sub in list(self._subscriptions):
            sub.close()

    def _drop(self, sub: Subscription) -> None:
        if sub in self._subscriptions:
            self._subscriptions.remove(sub)
            self._note_change()
