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
outputs in `bridge_events.py`); this module
only carries inputs to it (session hooks, engine answers, written records) and carries
out what it returns (commands, engine work, records, the stop).
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

from adapters.playtak import bridge_events as s
from adapters.playtak import protocol as p
from adapters.playtak.bridge_events import BridgeError, BridgeSettings
from adapters.playtak.bridge_state import BridgeState
from adapters.playtak.live_game import LiveGame, ptn_record, write_record
from adapters.playtak.live_view import BridgeWatch
from adapters.playtak.session import NotConnected, Session
from adapters.playtak.watch import Changes
from tei.errors import main_error
from tei.seat import EngineSeat, Launch, SeatFault, SeatUnavailable
from tei.transcript import Transcript

__all__ = ["Bridge", "BridgeError", "BridgeSettings"]

log = logging.getLogger("playtak.bridge")


class EngineLog(io.TextIOBase):
    """A transcript's sink that logs each engine line (debug, `playtak.engine`)."""

    def __init__(self) -> None:
        super().__init__()
        self.log = logging.getLogger("playtak.engine")

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.log.debug("%s", line)
        return len(text)


class Bridge:
    """Plays games on a server through a session with the engine of a seat."""

    def __init__(
        self,
        settings: BridgeSettings,
        session: Session,
        launch: Launch,
        timeout: float = 10.0,
        transcript: Transcript | None = None,
    ) -> None:
        self.settings = settings
        self.session = session
        self.launch = launch
        self.timeout = timeout
        #: the engine's traffic (`tei playtak -v` logs it)
        self.transcript = transcript
        self.state = BridgeState(settings)
        #: the engine's seat (made when `run` starts)
        self.seat: EngineSeat | None = None
        self.done = trio.Event()
        self.changes = Changes()
        #: the live view's hook (`tei playtak --live`), None without one
        self.watch: BridgeWatch | None = None
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
                    timeout=self.timeout,
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
        await self._feed(s.EngineReady(engine.options, engine.sizes))

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
        await self._feed(s.Connected(name))

    async def settled(self) -> None:
        await self._feed(s.Settled())

    async def disconnected(self) -> None:
        await self._feed(s.Disconnected())

    async def event(self, event: p.ServerEvent) -> None:
        await self._feed(event)

    async def _alarm(self) -> None:
        """Feed `Tick` whenever the time the state asks to be woken at has come."""
        while True:
            when = self.state.wake_at()
            if when is not None and trio.current_time() >= when:
                await self._feed(s.Tick())
                continue
            with trio.move_on_at(math.inf if when is None else when):
                await self.changes.next()

    # ---- carrying out --------------------------------------------------------------------
    async def _feed(self, item: s.Input) -> None:
        outputs = self.state.feed(item, trio.current_time(), datetime.now(UTC))
        if self.watch is not None:
            state = self.state
            self.watch.observe(state.live, state.finished, state.name, getattr(item, "info", None))
        for output in outputs:
            await self._apply(output)
        self.changes.notify()

    async def _apply(self, output: s.Output) -> None:
        match output:
            case s.Send():
                try:
                    await self.session.send(output.command)
                except NotConnected as exc:
                    log.warning("%s", exc)
            case s.Think() | s.Ponder() | s.Restart():
                assert self._nursery is not None
                self._nursery.start_soon(self._engine_work, output)
            case s.WarmUp():
                assert self._nursery is not None
                self._nursery.start_soon(self._warm_up, output)
            case s.CancelThinking():
                scope = self._scopes.get(output.ticket)
                if scope is not None:
                    scope.cancel()
            case s.WriteRecord():
                await self._feed(self._write(output))
            case s.LogSent():
                log.log(output.level, "%s (last sent: %s)", output.text, self.session.recent())
            case s.Done():
                self.done.set()

    def _write(self, output: s.WriteRecord) -> s.RecordWritten | s.RecordFailed:
        folder, site = self.settings.ptn_dir, self.settings.site
        assert folder is not None
        game_id = output.live.start.game_id
        try:
            path = write_record(output.live, output.result, folder, site)
        except (OSError, ValueError) as exc:  # ValueError: a path the OS cannot take
            return s.RecordFailed(game_id, str(exc))
        return s.RecordWritten(game_id, path)

    def _last_chance_for_records(self) -> None:
        """On the way out: one more try at records that could not be written; what
        still fails goes to the log as PTN text, so no finished game is lost."""
        for output in self.state.close():
            if isinstance(output, s.WriteRecord):
                self.state.feed(self._write(output), trio.current_time(), datetime.now(UTC))
        for live, result in self.state.unwritten:
            text = ptn_record(live, result, self.settings.site)
            log.error("record of game %d, not written:\n%s", live.start.game_id, text)

    async def _engine_work(self, work: s.Think | s.Ponder | s.Restart) -> None:
        """Run one ticket of engine work and report its outcome to the state."""
        assert self.seat is not None
        scope = self._scopes[work.ticket] = trio.CancelScope()
        report: s.Input = s.EngineIdle(work.ticket)
        try:
            with scope:
                if isinstance(work, s.Restart):
                    await self.seat.restart()
                elif isinstance(work, s.Ponder):
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
                        report = s.EngineAnswered(
                            work.ticket, answer.action, answer.info, answer.infos, answer.elapsed
                        )
        except SeatFault as fault:
            report = s.EngineFailed(work.ticket, fault)
        except Exception:
            log.exception("unexpected error while thinking (ticket %d)", work.ticket)
        finally:
            del self._scopes[work.ticket]
        await self._feed(report)

    async def _warm_up(self, work: s.WarmUp) -> None:
        """Start the engine's new game while the opponent thinks (errors wait for the
        move: the thinking task retries and restarts the engine)."""
        assert self.seat is not None
        with contextlib.suppress(SeatFault):
            await self.seat.prepare(work.new_game)
