"""The live view beside a match: its server in a thread and trio loop of its own.

The match's loop only does what it does without watchers: its bus folds each event into
the page state and `LiveFeed.put` hands (state, event) to a bounded queue (an append and
at most one wake-up of the server's loop); it never waits for the server. The server's
loop keeps a mirror bus (`EventBus.advance`) and does all the web work: encoding, the
fan-out to watchers, their sockets. It sends the watchers at most one update every
`INTERVAL` seconds, a patch for all the events since the last, so a fast match does not
make a watcher's data grow with the number of moves. Should the server fall more than
`limit` events behind, the oldest are dropped and its watchers start again from a
snapshot.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import socket
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

import attrs
import trio

from adapters.stream.bus import EventBus
from adapters.stream.events import Event
from adapters.stream.live_state import LiveState
from adapters.web.live import Watchers, bind, serve_sockets
from adapters.web.options import DEFAULT_MAX_WATCHERS

T = TypeVar("T")
log = logging.getLogger("tei.live")

#: events the hand-over holds before it drops the oldest
DEFAULT_LIMIT = 4096
#: seconds between two updates to the watchers (the events between make one patch)
INTERVAL = 0.1
#: seconds the watchers get to receive the end of the match before the server stops
GRACE = 0.5


class LiveFeed:
    """A bounded, never-blocking hand-over of (state, event) from one thread to a trio loop."""

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        self._items: collections.deque[tuple[LiveState, Event]] = collections.deque(maxlen=limit)
        self._lock = threading.Lock()
        self._token: trio.lowlevel.TrioToken | None = None
        self._poked = False
        self._event: trio.Event | None = None
        self.closed = False

    def put(self, state: LiveState, event: Event) -> None:
        """From the publishing thread: never waits (a full queue drops its oldest item)."""
        self._items.append((state, event))
        self._poke()

    def close(self) -> None:
        self.closed = True
        self._poke()

    def _poke(self) -> None:
        with self._lock:
            if self._poked or self._token is None:
                return
            self._poked = True
            token = self._token
        with contextlib.suppress(trio.RunFinishedError):  # the server has stopped
            token.run_sync_soon(self._woken)

    def _woken(self) -> None:
        if self._event is not None:
            self._event.set()

    async def pump(self, bus: EventBus, interval: float = INTERVAL) -> None:
        """In the server's loop: move the items to `bus`, all that arrived in `interval`
        seconds as one patch (a gap resets its watchers instead); returns, with `bus`
        closed, once the feed is closed and drained."""
        with self._lock:
            self._token = trio.lowlevel.current_trio_token()
        while True:
            self._event = trio.Event()
            with self._lock:
                self._poked = False
            closing = self.closed  # read before draining: every item put before is drained
            events: list[Event] | None = []
            start = bus.state.seq
            state = bus.state
            while self._items:
                state, event = self._items.popleft()
                if events is not None and state.seq == start + len(events) + 1:
                    events.append(event)
                else:
                    events = None
            if state is not bus.state:
                bus.advance(state, events)
            if closing:
                bus.close()
                return
            await self._event.wait()
            await trio.sleep(interval)


@attrs.frozen
class _ServerThread:
    """The live view's server, run in a thread of its own with its own trio loop."""

    feed: LiveFeed
    state: LiveState
    sockets: list[socket.socket]
    watchers: Watchers
    ready: threading.Event

    def run(self) -> None:
        try:
            trio.run(self._main)
        except Exception:  # the view is gone, the match goes on
            log.exception("the live view's server failed")
        finally:
            self.ready.set()

    async def _main(self) -> None:
        mirror = EventBus(self.state)
        async with trio.open_nursery() as nursery:
            await nursery.start(serve_sockets, mirror, self.sockets, self.watchers)
            self.ready.set()
            await self.feed.pump(mirror)
            with trio.move_on_after(GRACE):
                await mirror.wait_subscribers(0)
            nursery.cancel_scope.cancel()


async def serve_while(
    bus: EventBus,
    host: str,
    port: int,
    main: Callable[[], Awaitable[T]],
    announce: Callable[[str], None] = lambda url: None,
    max_watchers: int = DEFAULT_MAX_WATCHERS,
    watchers: Watchers | None = None,
) -> T:
    """Serve the live view of `bus` (in a thread of its own) while `main()` runs here;
    `announce(url)` once it listens. LiveAddressError before `main` starts if the address
    cannot be bound; the server stops when `main` returns or fails."""
    sockets, url = bind(host, port)
    watchers = watchers or Watchers(max_watchers=max_watchers)
    feed = LiveFeed()
    state = bus.state
    bus.listen(lambda event: feed.put(bus.state, event))
    ready = threading.Event()
    thread = threading.Thread(
        target=_ServerThread(feed, state, sockets, watchers, ready).run,
        name="tei-live-view",
        daemon=True,
    )
    thread.start()
    await trio.to_thread.run_sync(ready.wait)
    announce(url)
    try:
        return await main()
    finally:
        bus.close()
        feed.close()
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(thread.join, GRACE + 5.0)
