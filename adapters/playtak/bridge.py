"""The bridge: a playtak session on one side, one TEI engine on the other.

The bridge keeps the server's game as a rules `Game`, turns the opponent's moves (server
notation) into that game, asks the engine with the server's clocks (ms) and the seek's
increment, and sends the engine's move back in server notation. Around that: accepting
the seeks of others that pass the filters or posting our own in turn (never during a
game; `Tick` when the state's `wake_at()` comes), resign and draw offers by the engine's
score, undo requests, greeting and goodbye, resume after a reconnect (rebuild from the
replay, move only after `Your game is resumed`), refused moves, engines that crash or
stall (restarted while the clock allows), pondering on the opponent's time (`--ponder`:
`go infinite` on the expected reply, `stop` when the real one comes), and a PTN record
of every finished game.

Every decision is made by the sans-IO `BridgeState` (`bridge_state.py`, its inputs and
outputs in `bridge_events.py`); this module only carries inputs to it (session hooks,
engine answers, written records) and carries out what it returns: it writes the log
lines and hands every output to the live view (`watch`) as soon as `feed` returns, then
sends the commands, runs the engine work, writes the records and stops.
"""

from __future__ import annotations

import contextlib
import io
import logging
import math
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import trio

from adapters.playtak import bridge_events as ev
from adapters.playtak import protocol as p
from adapters.playtak.bridge_events import BridgeError, BridgeSettings
from adapters.playtak.bridge_state import BridgeState
from adapters.playtak.live_game import LiveGame, ptn_record, write_record
from adapters.playtak.session import NotConnected, Session
from adapters.playtak.watch import Changes
from tei.errors import main_error
from tei.seat import EngineSeat, Launch, SeatFault, SeatUnavailable
from tei.transcript import Transcript

__all__ = ["Bridge", "BridgeError", "BridgeSettings"]

log = logging.getLogger("playtak.bridge")


def write_log(output: ev.Log, recent: str = "") -> None:
    """Write a log line of the state (a `LogSent` with `recent`, the commands last sent)."""
    text = f"{output.text} (last sent: {recent})" if isinstance(output, ev.LogSent) else output.text
    log.log(output.level, "%s", text)


class EngineLog(io.TextIOBase):
    """A transcript's sink that logs each engine line (debug, `playtak.engine`)."""

    def __init__(self) -> None:
        super().__init__()
        self.log = logging.getLogger("playtak.engine")

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.log.debug("%s", line)
        return len(text)


#: seconds the engine's seat waits for `teiok`, `readyok` and a new game (moves have
#: their own limits)
SEAT_TIMEOUT = 10.0


class Bridge:
    """Plays games on a server through a session with the engine of a seat."""

    def __init__(
        self,
        settings: BridgeSettings,
        session: Session,
        launch: Launch,
        transcript: Transcript | None = None,
    ) -> None:
        self.settings = settings
        self.session = session
        self.launch = launch
        #: the engine's traffic (`tei playtak -v` logs it)
        self.transcript = transcript
        self.state = BridgeState(settings)
        #: the engine's seat (made when `run` starts)
        self.seat: EngineSeat | None = None
        self.done = trio.Event()
        self.changes = Changes()
        #: the live view (`tei playtak --live`): called with every output of the state
        self.watch: Callable[[ev.Output], None] | None = None
        self._nursery: trio.Nursery | None = None
        self._scopes: dict[int, trio.CancelScope] = {}

    @property
    def name(self) -> str:
        return self.state.name

    @property
    def live(self) -> LiveGame | None:
        return self.state.live

    @property
    def in_game(self) -> bool:
        return self.state.in_game

    @property
    def finished(self) -> list[tuple[int, str, Path | None]]:
        return self.state.finished

    async def wait_for(
        self, predicate: Callable[[], object], what: str, timeout: float = 10.0
    ) -> None:
        """Wait until `predicate()` holds (checked after every input of the state, once
        its outputs are carried out)."""
        await self.changes.wait_for(predicate, what, timeout)

    async def run(self) -> list[tuple[int, str, Path | None]]:
        """Start the engine and log in (at once, neither waits for the other), play
        until the number of games is reached (or forever)."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self.seat = EngineSeat(
                    self.launch,
                    nursery=nursery,
                    timeout=SEAT_TIMEOUT,
                    start_attempts=3,
                    transcript=self.transcript,
                )
                # the login does not wait for the engine to start (nor the engine for
                # the login): a restart resumes its game sooner; the state holds seeks
                # and moves until EngineReady
                nursery.start_soon(self._open_engine)
                nursery.start_soon(self.session.run, self)
                nursery.start_soon(self._alarm)
                await self.done.wait()
                with trio.move_on_after(2):
                    with contextlib.suppress(NotConnected):
                        await self.session.quit()
                nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            raise main_error(group) from None
        finally:
            self._last_chance_for_records()
        if self.state.error is not None:
            raise self.state.error
        return self.state.finished

    async def _open_engine(self) -> None:
        """Start the engine and tell the state (BridgeError when it cannot start)."""
        assert self.seat is not None
        try:
            engine = await self.seat.open()
        except SeatUnavailable as exc:
            raise BridgeError(f"cannot start {list(self.launch.argv)}: {exc.cause}") from None
        await self._feed(ev.EngineReady(engine.options, engine.sizes))

    async def run_until_signal(self) -> list[tuple[int, str, Path | None]]:
        """`run`, ended cleanly by SIGTERM, SIGHUP or SIGINT (Ctrl-C): a search is stopped
        at once and the engine shut down (quit, then the driver's kill ladder), finished
        games keep their records, and a restart within the server's reconnect window
        resumes a running game. After Ctrl-C, KeyboardInterrupt comes out once all that
        is done (status 130). Main thread only (signals)."""
        finished: list[tuple[int, str, Path | None]] = []
        received: list[int] = []
        async with trio.open_nursery() as nursery:

            async def bridge_task() -> None:
                finished.extend(await self.run())
                nursery.cancel_scope.cancel()

            async def signal_task() -> None:
                stopping = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
                with trio.open_signal_receiver(*stopping) as signals:
                    async for signum in signals:
                        log.warning("signal %d: stopping", signum)
                        received.append(signum)
                        finished.extend(self.finished)
                        nursery.cancel_scope.cancel()
                        return

            nursery.start_soon(bridge_task)
            nursery.start_soon(signal_task)
        if signal.SIGINT in received:
            raise KeyboardInterrupt
        return finished

    # ---- session hooks -----------------------------------------------------------------
    async def connected(self, name: str) -> None:
        await self._feed(ev.Connected(name))

    async def settled(self) -> None:
        await self._feed(ev.Settled())

    async def disconnected(self) -> None:
        await self._feed(ev.Disconnected())

    async def event(self, event: p.ServerEvent) -> None:
        await self._feed(event)

    async def _alarm(self) -> None:
        """Feed `Tick` whenever the time the state asks to be woken at has come."""
        while True:
            when = self.state.wake_at()
            if when is not None and trio.current_time() >= when:
                await self._feed(ev.Tick())
                continue
            with trio.move_on_at(math.inf if when is None else when):
                await self.changes.next()

    # ---- carrying out --------------------------------------------------------------------
    async def _feed(self, item: ev.Input) -> None:
        outputs = self.state.feed(item, trio.current_time(), datetime.now(UTC))
        self._tell(outputs)
        for output in outputs:
            await self._apply(output)
        self.changes.notify()

    async def _apply(self, output: ev.Output) -> None:
        match output:
            case ev.Send():
                try:
                    await self.session.send(output.command)
                except NotConnected as exc:
                    log.warning("%s", exc)
            case ev.Think() | ev.Ponder() | ev.Restart():
                assert self._nursery is not None
                self._nursery.start_soon(self._engine_work, output)
            case ev.WarmUp():
                assert self._nursery is not None
                self._nursery.start_soon(self._warm_up, output)
            case ev.CancelThinking():
                scope = self._scopes.get(output.ticket)
                if scope is not None:
                    scope.cancel()
            case ev.WriteRecord():
                await self._feed(self._write(output))
            case ev.LogSent():
                write_log(output, self.session.recent())
            case ev.Done():
                self.done.set()
            case _:  # the log lines and the live view's outputs: told by `_tell`
                pass

    def _tell(self, outputs: list[ev.Output]) -> None:
        """Write the log lines and hand every output to the live view, at once (before
        any output is carried out: the live game is as the input left it)."""
        for output in outputs:
            if isinstance(output, ev.Log) and not isinstance(output, ev.LogSent):
                write_log(output)
            if self.watch is not None:
                self.watch(output)

    def _write(self, output: ev.WriteRecord) -> ev.RecordWritten | ev.RecordFailed:
        folder, site = self.settings.ptn_dir, self.settings.site
        assert folder is not None
        game_id = output.live.start.game_id
        try:
            path = write_record(output.live, output.result, folder, site)
        except (OSError, ValueError) as exc:  # ValueError: a path the OS cannot take
            return ev.RecordFailed(game_id, str(exc))
        log.info("wrote %s", path)
        return ev.RecordWritten(game_id, path)

    def _last_chance_for_records(self) -> None:
        """On the way out: one more try at records that could not be written; what
        still fails goes to the log as PTN text, so no finished game is lost."""
        outputs = self.state.close()
        self._tell(outputs)
        for output in outputs:
            if isinstance(output, ev.WriteRecord):
                fate = self._write(output)
                self._tell(self.state.feed(fate, trio.current_time(), datetime.now(UTC)))
        for live, result in self.state.unwritten:
            text = ptn_record(live, result, self.settings.site)
            log.error("record of game %d, not written:\n%s", live.start.game_id, text)

    async def _engine_work(self, work: ev.Think | ev.Ponder | ev.Restart) -> None:
        """Run one ticket of engine work and report its outcome to the state."""
        assert self.seat is not None
        scope = self._scopes[work.ticket] = trio.CancelScope()
        report: ev.Input = ev.EngineIdle(work.ticket)
        try:
            with scope:
                if isinstance(work, ev.Restart):
                    await self.seat.restart()
                elif isinstance(work, ev.Ponder):
                    await self.seat.prepare(work.new_game)
                    if self.state.wanted(work.ticket):  # not cancelled before this task began
                        await self.seat.ponder(work.game, work.new_game)
                else:
                    await self.seat.prepare(work.new_game)
                    plan = self.state.plan(work.ticket, trio.current_time())
                    if plan is not None:
                        answer = await self.seat.move(
                            plan.game,
                            plan.limits,
                            work.new_game,
                            deadline=plan.deadline,
                            grace=plan.grace,
                        )
                        if answer.failure is not None:  # the engine host's stand-in move
                            log.warning(
                                "our bot failed (%s: %s); its host answered with a stand-in"
                                " move, which is played (the traceback is in the engine's"
                                " stderr)",
                                answer.failure.kind,
                                answer.failure.detail,
                            )
                        report = ev.EngineAnswered(
                            work.ticket, answer.action, answer.info, answer.infos, answer.elapsed
                        )
        except SeatFault as fault:
            report = ev.EngineFailed(work.ticket, fault)
        except Exception:
            log.exception("unexpected error while thinking (ticket %d)", work.ticket)
        finally:
            del self._scopes[work.ticket]
        await self._feed(report)

    async def _warm_up(self, work: ev.WarmUp) -> None:
        """Start the engine's new game while the opponent thinks (errors wait for the
        move: the thinking task retries and restarts the engine)."""
        assert self.seat is not None
        with contextlib.suppress(SeatFault):
            await self.seat.prepare(work.new_game)
