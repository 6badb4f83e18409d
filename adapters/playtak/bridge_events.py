"""The inputs and outputs of the bridge's state (`bridge_state.BridgeState`).

Inputs: a server event of `adapters.playtak.protocol`, or `Connected`, `Settled`,
`Disconnected`, `EngineReady`, `EngineAnswered`, `EngineFailed`, `EngineIdle`, `Tick`,
`RecordWritten`, `RecordFailed`. Outputs: `Send`, `Think`, `Ponder`, `Restart`, `WarmUp`,
`CancelThinking`, `WriteRecord`, `Done`; the log lines `Log` and `LogSent`; and what the
live view shows, `ShowGame`, `ShowMove`, `ShowEnd`. Also the bridge's settings and error,
and the `Outbox` the state and its parts put their outputs in.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from adapters.playtak import protocol as p
from adapters.playtak.errors import PlaytakError
from adapters.playtak.game_policy import ChatTemplate, ScorePolicy
from adapters.playtak.live_game import LiveGame
from adapters.playtak.seek_filter import SeekFilter
from rules.game import Game
from rules.tak.move import Move
from tei.driver import Limits, declared_refusal
from tei.protocol import Info, OptionDecl, SizeDecl
from tei.seat import NewGame, SeatFault, seat_limits


@attrs.frozen
class BridgeSettings:
    #: our own seeks, posted in turn while no acceptable seek of another player is there
    seeks: tuple[p.Seek, ...] = ()
    #: a posted seek nobody took is replaced by the next of `seeks` after this many s
    seek_rotate_seconds: float = 120.0
    #: the seeks of other players we accept (None: we accept none)
    accept: SeekFilter | None = None
    games: int | None = None  # None: forever
    ptn_dir: Path | None = None
    move_overhead_ms: int = 1000
    #: resign and draw by our engine's scores; answers to draw offers and undo requests
    policy: ScorePolicy = attrs.field(factory=ScorePolicy)
    #: told to the opponent when a game starts / ends (None: nothing)
    greeting: ChatTemplate | None = None
    goodbye: ChatTemplate | None = None
    min_restart_ms: int = 3000
    max_engine_failures: int = 3
    #: give up on a silent engine after this many seconds (None: a quarter of the clock
    #: left, at least 30 s)
    max_move_seconds: float | None = None
    site: str = "PlayTak.com"
    #: search on the opponent's time on the reply our engine expects (built-in bots)
    ponder: bool = False


class BridgeError(PlaytakError):
    """The bridge cannot do what it was asked (e.g. the engine cannot play the seek)."""


# ---- inputs ----------------------------------------------------------------------------
@attrs.frozen
class Connected:
    """A connection is up and logged in under `name`."""

    name: str


@attrs.frozen
class Settled:
    """The login burst is over (seeks, games and any resumed game were replayed)."""


@attrs.frozen
class Disconnected:
    """The connection is gone (the session reconnects)."""


@attrs.frozen(eq=False)
class EngineReady:
    """The engine started: the options and sizes it declared."""

    options: Mapping[str, OptionDecl]
    sizes: SizeDecl | None = None


@attrs.frozen
class EngineAnswered:
    """The engine's move, its last informative `info`, all its infos (oldest first) and
    the time it took."""

    ticket: int
    action: Move
    info: Info | None = None
    infos: tuple[Info, ...] = ()
    #: seconds from `go` to `bestmove`
    elapsed: float = 0.0


@attrs.frozen
class EngineFailed:
    ticket: int
    fault: SeatFault


@attrs.frozen
class EngineIdle:
    """The work of `ticket` ended without a move (cancelled, or the restart is done)."""

    ticket: int


@attrs.frozen
class Tick:
    """The time `wake_at()` asked for has come (a posted seek may be rotated)."""


@attrs.frozen
class RecordWritten:
    game_id: int
    path: Path


@attrs.frozen
class RecordFailed:
    game_id: int
    error: str


Input = (
    p.ServerEvent
    | Connected
    | Settled
    | Disconnected
    | EngineReady
    | EngineAnswered
    | EngineFailed
    | EngineIdle
    | Tick
    | RecordWritten
    | RecordFailed
)


# ---- outputs ---------------------------------------------------------------------------
@attrs.frozen
class Send:
    command: p.ClientCommand


@attrs.frozen
class Think:
    """Tell the engine about `new_game`, then ask `plan(ticket, now)` and move."""

    ticket: int
    new_game: NewGame


@attrs.frozen(eq=False)
class Ponder:
    """Search `game` (our move and the expected reply played) with `go infinite` until
    cancelled; then `stop`, the answer discarded (answered by EngineIdle or EngineFailed).
    Tell the engine about `new_game` first and start only while `wanted(ticket)`."""

    ticket: int
    new_game: NewGame
    game: Game[Any]


@attrs.frozen
class Restart:
    """Replace the engine process (answered by EngineIdle, or EngineFailed)."""

    ticket: int


@attrs.frozen
class WarmUp:
    """Start the engine's new game while the opponent thinks (failures are ignored)."""

    new_game: NewGame


@attrs.frozen
class CancelThinking:
    ticket: int


@attrs.frozen
class WriteRecord:
    """Write the PTN record (answered by RecordWritten or RecordFailed)."""

    live: LiveGame
    result: str


@attrs.frozen
class Log:
    """Write `text` to the bridge's log at `level` (the I/O side writes each as soon as
    `feed` returns, before carrying out the other outputs)."""

    level: int
    text: str


@attrs.frozen
class LogSent(Log):
    """A `Log` with the last commands sent on this connection."""


@attrs.frozen(eq=False)
class ShowGame:
    """`live` begins, or is drawn again (a replay's start, a move taken back): the live
    view shows it (`name`: our account). Like every output, read when `feed` returns."""

    live: LiveGame
    name: str


@attrs.frozen(eq=False)
class ShowMove:
    """A move of `seat` was played in `live` (`info`: our engine's last report, when the
    move was ours)."""

    live: LiveGame
    seat: int
    info: Info | None = None


@attrs.frozen(eq=False)
class ShowEnd:
    """`live` is over with `result`."""

    live: LiveGame
    result: str


@attrs.frozen
class Done:
    """Stop the bridge (with the error to raise, if any)."""

    error: BridgeError | None = None


Output = (
    Send
    | Think
    | Ponder
    | Restart
    | WarmUp
    | CancelThinking
    | WriteRecord
    | Done
    | Log
    | ShowGame
    | ShowMove
    | ShowEnd
)


@attrs.define
class Outbox:
    """The outputs of one `feed`, in order: the state and its parts add to it."""

    items: list[Output] = attrs.field(factory=list)

    def add(self, *outputs: Output) -> None:
        self.items.extend(outputs)

    def debug(self, text: str) -> None:
        self.items.append(Log(logging.DEBUG, text))

    def info(self, text: str) -> None:
        self.items.append(Log(logging.INFO, text))

    def warning(self, text: str) -> None:
        self.items.append(Log(logging.WARNING, text))

    def error(self, text: str) -> None:
        self.items.append(Log(logging.ERROR, text))

    def take(self) -> list[Output]:
        """The outputs so far, in order; the box is empty afterwards."""
        items, self.items = self.items, []
        return items


@attrs.frozen(eq=False)
class MovePlan:
    """What to ask the engine: the position, the `go` limits, the deadline and grace."""

    game: Game[Any]
    limits: Limits
    deadline: float
    grace: float


def move_plan(live: LiveGame, now: float, settings: BridgeSettings) -> MovePlan:
    """The engine's next move in `live` at `now`: the server's clocks less the time
    since they came and the move overhead; a deadline within the clock, and shorter
    than `max_move_seconds` (or a quarter of the clock, at least 30 s)."""
    overhead = settings.move_overhead_ms
    ours, theirs = live.clock_ms(now)
    budget_ms = ours - max(2 * overhead, ours // 10)
    own = (max(1, ours - overhead), live.inc_ms)
    limits = seat_limits(live.seat, own, (max(1, theirs), live.inc_ms))
    stall = settings.max_move_seconds
    if stall is None:  # a search longer than this is no search but a hang
        stall = max(30.0, ours / 4000)
    budget = min(max(0.05, budget_ms / 1000), stall)
    grace = 1.0 if budget_ms > 5000 else 0.3
    return MovePlan(live.game.copy(), limits, now + budget, grace)


def engine_refusal(
    options: Mapping[str, OptionDecl], sizes: SizeDecl | None, size: int, komi: int
) -> str | None:
    """Why an engine declaring these options cannot play this size and komi
    (half-flats), or None if it can."""
    return declared_refusal("tak", {"size": str(size), "halfkomi": str(komi)}, options, sizes)
