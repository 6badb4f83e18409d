"""The in-process channel from a match to its watchers: a small fan-out that never blocks.

`publish(event)` (called from the match's trio thread) folds the event into the page
state, calls the plain listeners (the terminal) and offers the update to every
subscription. Each update is built and encoded (as JSON) once and the same object is
shared by every subscription. A subscription buffers at most `limit`
updates; a subscriber that falls behind loses its backlog and next receives the state
as it is then, as one snapshot shared by every subscriber behind at that moment, so a
slow watcher costs the publisher nothing more than a fast one.

`advance(state, event)` moves a bus to a state computed elsewhere: the live view's
server keeps such a mirror of the match's bus in its own thread (adapters/web/live_feed.py).
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable, Sequence
from typing import Any

import attrs
import trio

from adapters.stream.events import Event
from adapters.stream.live_state import LiveState

Listener = Callable[[Event], None]

#: updates a subscription holds before it is reset to a snapshot
DEFAULT_LIMIT = 256


def json_bytes(data: dict[str, Any]) -> bytes:
    """Compact JSON."""
    return json.dumps(data, separators=(",", ":")).encode()


@attrs.frozen
class Update:
    """One step for a subscriber: a patch to merge, or (`reset`) a whole snapshot.

    `payload` is `data` as JSON, encoded once and shared by every subscriber."""

    data: dict[str, Any]
    reset: bool = False
    payload: bytes = b""


class Subscription:
    """One watcher's bounded queue of updates; its first update is a snapshot."""

    def __init__(self, bus: EventBus, limit: int) -> None:
        self._bus = bus
        self.limit = limit
        self._items: collections.deque[Update] = collections.deque()
        self._wake = trio.Event()
        self.closed = False
        #: True when the next update is a fresh snapshot (the queue was dropped)
        self.behind = False
        #: how often this subscriber fell behind and was reset
        self.resets = 0
        self._items.append(bus.snapshot_update())

    def offer(self, update: Update) -> None:
        if self.closed or self.behind:
            return
        if len(self._items) >= self.limit:
            self.reset()
            return
        self._items.append(update)
        self._wake.set()

    def reset(self) -> None:
        """Drop the backlog: the next update is a snapshot of the state then."""
        self._items.clear()
        self.behind = True
        self.resets += 1
        self._wake.set()

    async def next(self) -> Update | None:
        """The next update; None once the subscription (or the bus) is closed."""
        while not self._items and not self.behind:
            if self.closed:
                return None
            await self._wake.wait()
            self._wake = trio.Event()
        if self.behind:
            self.behind = False
            return self._bus.snapshot_update()
        return self._items.popleft()

    def ready(self) -> list[Update]:
        """The updates already waiting (none while behind: `next` gives the snapshot)."""
        items = list(self._items)
        self._items.clear()
        return items

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

    def __init__(
        self,
        state: LiveState | None = None,
        *,
        limit: int = DEFAULT_LIMIT,
    ) -> None:
        self.state = state or LiveState()
        self.limit = limit
        self._listeners: list[Listener] = []
        self._subscriptions: list[Subscription] = []
        self.closed = False
        self._changed = trio.Event()
        self._snapshot: tuple[LiveState, Update] | None = None

    def publish(self, event: Event) -> None:
        self.state = self.state.apply(event)
        for listener in list(self._listeners):
            listener(event)
        self._offer(event)

    def advance(self, state: LiveState, events: Sequence[Event] | None) -> None:
        """Take `state`, reached elsewhere by applying `events` to this bus's state, and
        offer one patch for them all; with `events` None (some were missed) every
        subscription is reset to a snapshot. Listeners are not called (they belong to
        the bus that published)."""
        self.state = state
        if events is None:
            for sub in list(self._subscriptions):
                sub.reset()
        elif events:
            self._offer(*events)

    def _offer(self, *events: Event) -> None:
        if self._subscriptions:
            data = self.state.patch(*events)
            update = Update(data, payload=json_bytes(data))
            for sub in list(self._subscriptions):
                sub.offer(update)

    def snapshot_update(self) -> Update:
        """The state now as a reset update, built at most once per state."""
        if self._snapshot is None or self._snapshot[0] is not self.state:
            data = self.state.snapshot()
            update = Update(data, reset=True, payload=json_bytes(data))
            self._snapshot = (self.state, update)
        return self._snapshot[1]

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
