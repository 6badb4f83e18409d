"""Time controls and game clocks, measured by the referee.

Semantics (the same for every engine and game):

* `tc=BASE+INC`: the clock starts at BASE; after each move the time the move took (as
  measured by the referee, from sending `go` to reading `bestmove`) is subtracted, then
  INC is added. `st=T`: every move may take T. `nodes=`/`depth=` are passed on to the
  engine and limit nothing on the referee's side.
* `margin=MS` (default 50): how far past its time an engine may answer without losing.
  A move is allowed `time left + margin` (and `st + margin`); the referee stops the
  search at that deadline (`stop`, a short grace for `bestmove`) and the engine loses on
  time. A move that overran its clock by no more than the margin leaves the clock at 0
  before the increment is added, so the overrun is forgiven but never carried on.
* The times sent in `go` are never negative.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import attrs

from adapters.referee.errors import RefereeError
from tei.driver import Limits
from tei.seat import seat_limits

DEFAULT_MARGIN_MS = 50


class TimeControlError(RefereeError):
    """A time-control text that cannot be read (the message names it)."""


_NUMBER = r"\d+(?:\.\d*)?|\.\d+"
_BASE_RE = re.compile(rf"^(?:(?P<min>\d+):(?P<sec>{_NUMBER})|(?P<plain>{_NUMBER}))$")


def _seconds(text: str, what: str) -> float:
    match = _BASE_RE.match(text.strip())
    if not match:
        raise TimeControlError(f"bad {what} {text!r}: use seconds, e.g. 10 or 0.5, or m:ss")
    if match["plain"] is not None:
        return float(match["plain"])
    return int(match["min"]) * 60 + float(match["sec"])


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def _show_seconds(ms: int) -> str:
    text = f"{ms / 1000:.3f}".rstrip("0").rstrip(".")
    return text or "0"


@attrs.frozen
class TimeControl:
    """What limits an engine's moves: a clock, a fixed time per move, nodes, depth."""

    base_ms: int | None = None
    inc_ms: int = 0
    movetime_ms: int | None = None
    nodes: int | None = None
    depth: int | None = None
    margin_ms: int = DEFAULT_MARGIN_MS

    @classmethod
    def parse_tc(cls, text: str) -> tuple[int | None, int]:
        """(base ms, increment ms) of `BASE+INC` in seconds (`m:ss` allowed); `inf` = none."""
        text = text.strip().lower()
        if text in ("inf", "infinite", "none", ""):
            return None, 0
        if "/" in text:
            raise TimeControlError(f"moves/time controls are not supported: {text!r}")
        base, sep, inc = text.partition("+")
        base_ms = _ms(_seconds(base, "time control"))
        inc_ms = _ms(_seconds(inc, "increment")) if sep else 0
        if base_ms <= 0:
            raise TimeControlError(f"time control {text!r} gives no time")
        return base_ms, inc_ms

    @classmethod
    def from_settings(
        cls,
        tc: str | None = None,
        st: str | None = None,
        nodes: str | None = None,
        depth: str | None = None,
        margin: str | None = None,
    ) -> TimeControl:
        """From the engine keys tc=, st= (seconds), nodes=, depth=, margin= (ms)."""
        base_ms, inc_ms = cls.parse_tc(tc) if tc is not None else (None, 0)
        movetime = None
        if st is not None:
            movetime = _ms(_seconds(st, "st"))
            if movetime <= 0:
                raise TimeControlError(f"st={st} gives no time")
        return cls(
            base_ms=base_ms,
            inc_ms=inc_ms,
            movetime_ms=movetime,
            nodes=_count(nodes, "nodes"),
            depth=_count(depth, "depth"),
            margin_ms=DEFAULT_MARGIN_MS
            if margin is None
            else (_count(margin, "margin", allow_zero=True) or 0),
        )

    @property
    def timed(self) -> bool:
        """True when the referee enforces a time limit on each move."""
        return self.base_ms is not None or self.movetime_ms is not None

    def describe(self) -> str:
        """The PTN `Clock` text: `m:ss +inc`, `st 0.5`, `nodes 1000`, or `none`."""
        parts = []
        if self.base_ms is not None:
            total = self.base_ms / 1000
            minutes = int(total // 60)
            rest = _show_seconds(round((total - minutes * 60) * 1000))
            parts.append(f"{minutes}:{rest} +{_show_seconds(self.inc_ms)}")
        if self.movetime_ms is not None:
            parts.append(f"st {_show_seconds(self.movetime_ms)}")
        if self.nodes is not None:
            parts.append(f"nodes {self.nodes}")
        if self.depth is not None:
            parts.append(f"depth {self.depth}")
        return ", ".join(parts) or "none"


def _count(text: str | None, what: str, *, allow_zero: bool = False) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise TimeControlError(f"{what}={text} is not a whole number") from None
    if value < 0 or (value == 0 and not allow_zero):
        raise TimeControlError(f"{what}={text} must be positive")
    return value


@attrs.define
class Clock:
    """One seat's clock in one game."""

    control: TimeControl
    left_ms: float = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        self.left_ms = float(self.control.base_ms or 0)

    def allowed_ms(self) -> float | None:
        """How long the next move may take before the engine loses on time (None: no limit)."""
        limits = []
        if self.control.base_ms is not None:
            limits.append(max(0.0, self.left_ms) + self.control.margin_ms)
        if self.control.movetime_ms is not None:
            limits.append(float(self.control.movetime_ms + self.control.margin_ms))
        return min(limits) if limits else None

    def punch(self, elapsed_ms: float) -> bool:
        """Charge a move; False when it took longer than allowed (a time forfeit)."""
        allowed = self.allowed_ms()
        if allowed is not None and elapsed_ms > allowed:
            if self.control.base_ms is not None:
                self.left_ms -= elapsed_ms
            return False
        if self.control.base_ms is not None:
            self.left_ms = max(0.0, self.left_ms - elapsed_ms) + self.control.inc_ms
        return True

    def sent_ms(self) -> int:
        """The time left as sent to engines: whole ms, never negative."""
        return max(0, math.floor(self.left_ms))


def go_limits(clocks: Sequence[Clock], seat: int) -> Limits:
    """The `go` limits for the engine in `seat`: its own clock, and the next seat's (the
    opponent in a two-seat game, or its own when that seat has no clock); see
    `tei.seat.seat_limits`. A mover without a clock gets no clock fields."""
    own = clocks[seat]
    control = own.control
    mine = theirs = None
    if control.base_ms is not None:
        other = clocks[(seat + 1) % len(clocks)]
        if other.control.base_ms is None:
            other = own
        mine = (own.sent_ms(), control.inc_ms)
        theirs = (other.sent_ms(), other.control.inc_ms)
    return seat_limits(
        seat,
        mine,
        theirs,
        movetime=control.movetime_ms,
        nodes=control.nodes,
        depth=control.depth,
    )
