"""The bridge's lobby, sans-IO: the open seeks of others, the one we accepted and wait
on, our own seek on the server and which of ours comes next.

`SeekDesk` decides what to send while no game runs (`next_command`: accept the best
acceptable seek, else post our next seek) and when our posted seek's turn is over
(`wake_at`, `due`); `BridgeState` feeds it the server's seek news and tells it when a
game starts or the connection is new.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs

from adapters.playtak import protocol as p
from adapters.playtak.bridge_events import Outbox
from adapters.playtak.seek_filter import SeekFilter

#: why our engine cannot play a size and komi (None: it can, or not known yet)
EngineRefusal = Callable[[int, int], "str | None"]


@attrs.define
class SeekDesk:
    """What the lobby holds (see the module); `seeks` are ours, posted in turn."""

    seeks: tuple[p.Seek, ...]
    accept: SeekFilter | None
    rotate_seconds: float
    #: the open seeks of the server, by number
    open: dict[int, p.SeekInfo] = attrs.field(factory=dict)
    #: the seek we accepted and wait on (None: none), and the last one accepted
    pending: p.SeekInfo | None = None
    accepted: p.SeekInfo | None = None
    #: our seek on the server (None: none), when it was posted, the next one's index
    posted: p.Seek | None = None
    posted_at: float = 0.0
    next_seek: int = 0
    refusals_logged: set[int] = attrs.field(factory=set)
    #: where its log lines go (the state's outbox)
    out: Outbox = attrs.field(factory=Outbox)

    def reconnected(self) -> None:
        """A new connection: the server dropped our seek and our acceptance."""
        self.pending = self.posted = None
        self.open.clear()

    def game_started(self) -> None:
        """A game began (or was refused at its start): the server removed both seeks."""
        self.pending = self.posted = None

    def seen(self, seek: p.SeekInfo) -> None:
        self.open[seek.no] = seek

    def gone(self, no: int) -> None:
        self.open.pop(no, None)
        self.refusals_logged.discard(no)

    def refused(self) -> bool:
        """The server said NOK to our acceptance (the seek is gone): True when we were
        waiting on one, so the next game is looked for again."""
        if self.pending is None:
            return False
        self.out.info(f"seek {self.pending.no} is gone")
        self.open.pop(self.pending.no, None)
        self.pending = None
        return True

    def next_command(
        self, name: str, now: float, refusal: EngineRefusal
    ) -> p.Accept | p.Seek | None:
        """Accept the best acceptable seek of another player, else post our next seek
        when none is posted; None when there is nothing to send."""
        if self.pending is not None:
            return None
        seek = self._best(name, refusal)
        if seek is not None:
            self.out.info(f"accepting seek {seek.no} of {seek.name}")
            self.pending = self.accepted = seek
            return p.Accept(seek.no)
        if self.posted is None and self.seeks:
            return self.post(now)
        return None

    def _best(self, name: str, refusal: EngineRefusal) -> p.SeekInfo | None:
        """The seek the filter's choice rule takes among the acceptable ones (refusals
        logged once per seek), or None."""
        if self.accept is None:
            return None
        acceptable = []
        for seek in self.open.values():
            why = self.accept.refusal(seek, name) or refusal(seek.size, seek.komi)
            if why is None:
                acceptable.append(seek)
            elif seek.no not in self.refusals_logged and seek.name != name:
                self.refusals_logged.add(seek.no)
                self.out.info(f"not accepting seek {seek.no} of {seek.name}: {why}")
        return self.accept.best(acceptable, name)

    def post(self, now: float) -> p.Seek:
        """Our next seek (it replaces the one posted before)."""
        self.posted = seek = self.seeks[self.next_seek % len(self.seeks)]
        self.next_seek += 1
        self.posted_at = now
        self.out.info(f"seeking: {seek.to_line()}")
        return seek

    def wake_at(self, waiting: bool) -> float | None:
        """When the posted seek's turn is over (while `waiting` for a game with nothing
        accepted and more than one seek of ours), or None."""
        if not waiting or self.pending is not None or self.posted is None:
            return None
        if len(self.seeks) < 2:
            return None
        return self.posted_at + self.rotate_seconds

    def increment(self, event: p.GameStart) -> int:
        """The game's increment (s): from the start line, or (protocol 0) from the seek
        it came from, ours or the one we accepted."""
        if event.inc is not None:
            return event.inc
        sources = [self.pending, self.posted, self.accepted, *self.seeks]
        known = [s for s in sources if s is not None]
        fitting = [s for s in known if (s.size, s.time) == (event.size, event.time)]
        chosen = fitting or known
        return chosen[0].inc if chosen else 0
