"""The bridge: a playtak session on one side, one TEI engine on the other.

The bridge keeps the server's game as a rules `Game`, turns the opponent's moves (server
notation) into that game, asks the engine with the server's clocks (ms) and the seek's
increment, and sends the engine's move back in server notation. Around that: seeking
(never during a game) or accepting a named player's seeks, draw offers (declined unless
told otherwise), resume after a reconnect (rebuild from the replay, move only after
`Your game is resumed`), refused moves, engines that crash or stall (restarted while
the clock allows), and a PTN record of every finished game.
"""

from __future__ import annotations

import contextlib
import logging
import random
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs
import trio

from adapters.playtak import protocol as p
from adapters.playtak.errors import PlaytakError
from adapters.playtak.live_game import (
    LiveGame,
    describe_info,
    estimated_start,
    play_server_move,
    ptn_record,
    rules_game,
    server_clock_ms,
    write_record,
)
from adapters.playtak.notation import ServerMove
from adapters.playtak.session import NotConnected, Session, first_leaf
from rules.game import GameError
from tei.driver import Engine
from tei.seat import EngineSeat, Launch, NewGame, SeatFault, SeatUnavailable, seat_limits

log = logging.getLogger("playtak.bridge")


@attrs.frozen
class BridgeSettings:
    seek: p.Seek | None = None
    accept_from: str | None = None
    games: int | None = None  # None: forever
    ptn_dir: Path | None = None
    move_overhead_ms: int = 1000
    accept_draws: bool = False
    min_restart_ms: int = 3000
    max_engine_failures: int = 3
    #: give up on a silent engine after this many seconds (None: a quarter of the clock
    #: left, at least 30 s)
    max_move_seconds: float | None = None
    site: str = "PlayTak.com"


class BridgeError(PlaytakError):
    """The bridge cannot do what it was asked (e.g. the engine cannot play the seek)."""


def seek_rules(size: int, komi: int) -> dict[str, str]:
    """The rules options of a game's size and komi (half-flats)."""
    return {"size": str(size), "halfkomi": str(komi)}


class Bridge:
    """Plays games on a server through a session with the engine of a keeper."""

    def __init__(
        self, settings: BridgeSettings, session: Session, launch: Launch, timeout: float = 10.0
    ) -> None:
        self.settings = settings
        self.session = session
        self.launch = launch
        self.timeout = timeout
        #: the engine's seat (made when `run` starts)
        self.seat: EngineSeat | None = None
        self.live: LiveGame | None = None
        self.name = ""
        self.finished: list[tuple[int, str, Path | None]] = []
        self.done = trio.Event()
        self._settled = False
        self._open_seeks: dict[int, p.SeekInfo] = {}
        self._accept_pending: p.SeekInfo | None = None
        self._accepted: p.SeekInfo | None = None
        self._nursery: trio.Nursery | None = None
        self._fatal: BridgeError | None = None
        #: finished games whose record could not be written yet
        self._unwritten: list[tuple[LiveGame, str]] = []

    @property
    def in_game(self) -> bool:
        return self.live is not None

    async def run(self) -> list[tuple[int, str, Path | None]]:
        """Start the engine, play until the number of games is reached (or forever)."""
        try:
            async with trio.open_nursery() as nursery:
                self._nursery = nursery
                self.seat = EngineSeat(
                    self.launch, nursery=nursery, timeout=self.timeout, start_attempts=3
                )
                try:
                    engine = await self.seat.open()
                except SeatUnavailable as exc:
                    raise BridgeError(
                        f"cannot start {list(self.launch.argv)}: {exc.cause}"
                    ) from None
                seek = self.settings.seek
                why = engine.refusal("tak", seek_rules(seek.size, seek.komi)) if seek else None
                if seek and why:
                    raise BridgeError(f"the engine cannot play the seek {seek.to_line()!r}: {why}")
                nursery.start_soon(self.session.run, self)
                await self.done.wait()
                with trio.move_on_after(2):
                    with contextlib.suppress(NotConnected):
                        await self.session.quit()
                nursery.cancel_scope.cancel()
        except BaseExceptionGroup as group:
            raise first_leaf(group) from None
        finally:
            self._last_chance_for_records()
        if self._fatal is not None:
            raise self._fatal
        return self.finished

    # ---- session hooks -----------------------------------------------------------------
    async def connected(self, name: str) -> None:
        self.name = name
        self._settled = False
        self._accept_pending = None
        self._open_seeks.clear()
        if self.live is not None:
            self.live.awaiting_replay = True

    async def settled(self) -> None:
        self._settled = True
        live = self.live
        if live is not None and live.awaiting_replay:
            log.warning("game %d was not resumed by the server: it is over", live.start.game_id)
            await self._finish(live, "*")
            return
        if live is None:
            await self._look_for_game()

    async def disconnected(self) -> None:
        self._settled = False
        live = self.live
        if live is not None:
            live.resuming = True
            live.move_in_flight = None
            if live.think_scope is not None:
                live.think_scope.cancel()

    async def event(self, event: p.ServerEvent) -> None:
        live = self.live
        match event:
            case p.GameStart():
                await self._game_start(event)
            case p.GameMove() if live and event.game_id == live.start.game_id:
                await self._game_move(live, event.move)
            case p.GameTime() if live and event.game_id == live.start.game_id:
                live.clocks = [server_clock_ms(event.white_ms), server_clock_ms(event.black_ms)]
                if live.joined_late:
                    white, black = live.clocks
                    live.began = estimated_start(live, white, black, datetime.now(UTC))
                    live.joined_late = False
                live.clock_at = trio.current_time()
                live.move_in_flight = None
            case p.GameOver() if live and event.game_id == live.start.game_id:
                await self._finish(live, event.result)
            case p.GameAbandoned() if live and event.game_id == live.start.game_id:
                quitter_white = event.quitter == live.start.white
                await self._finish(live, "0-1" if quitter_white else "1-0")
            case p.GameSignal() if live and event.game_id == live.start.game_id:
                await self._signal(live, event.kind)
            case p.GameResumed() if live:
                log.info("game %d resumed after %d moves", live.start.game_id, len(live.moves))
                live.resuming = False
                live.awaiting_replay = False
                self._start_thinking(live)
            case p.Nok():
                await self._refused()
            case p.ErrorText():
                log.warning("server error: %s (last sent: %s)", event.text, self.session.recent())
            case p.SeekNew():
                self._open_seeks[event.seek.no] = event.seek
                if self.settings.accept_from and self._settled and self.live is None:
                    await self._look_for_game()
            case p.SeekRemove():
                self._open_seeks.pop(event.seek.no, None)
            case p.PlayerDisconnected() | p.PlayerReconnected() | p.Message() | p.Chat():
                log.info("%s", event.to_line())
            case _:
                pass

    # ---- lobby -------------------------------------------------------------------------
    async def _look_for_game(self) -> None:
        """Post our seek, or accept a seek of the chosen player (never during a game)."""
        if self.live is not None or self.done.is_set():
            return
        try:
            if self.settings.seek is not None:
                log.info("seeking: %s", self.settings.seek.to_line())
                await self.session.send(self.settings.seek)
            elif self.settings.accept_from and self._accept_pending is None:
                wanted = self.settings.accept_from.lower()
                for seek in self._open_seeks.values():
                    for_us = seek.opponent.lower() in ("", self.name.lower())
                    if seek.name.lower() != wanted or not for_us:
                        continue
                    engine = self.seat.engine if self.seat is not None else None
                    why = engine and engine.refusal("tak", seek_rules(seek.size, seek.komi))
                    if why:
                        log.info("not accepting seek %d: %s", seek.no, why)
                        continue
                    log.info("accepting seek %d of %s", seek.no, seek.name)
                    self._accept_pending = self._accepted = seek
                    await self.session.send(p.Accept(seek.no))
                    break
        except NotConnected:
            pass

    async def _game_start(self, event: p.GameStart) -> None:
        live = self.live
        now = trio.current_time()
        if live is not None and live.start.game_id == event.game_id:
            log.info("game %d is being replayed by the server", event.game_id)
            live.game = rules_game(event)
            live.moves.clear()
            live.resuming = True
            live.awaiting_replay = False
            return
        if live is not None:
            await self._finish(live, "*")
        self._accept_pending = None
        inc = event.inc
        if inc is None:  # protocol 0: the increment comes from the seek
            source = self.settings.seek if self._accepted is None else self._accepted
            inc = source.inc if source is not None else 0
        clock = server_clock_ms((event.time or 0) * 1000)
        self.live = live = LiveGame(
            event,
            inc * 1000,
            rules_game(event),
            [clock, clock],
            now,
            resuming=not self._settled,
            began=datetime.now(UTC),
            joined_late=not self._settled,
        )
        log.info(
            "game %d: %s vs %s, %dx%d, %s+%s s, komi %d, we are %s",
            event.game_id,
            event.white,
            event.black,
            event.size,
            event.size,
            event.time,
            inc,
            event.komi,
            event.color,
        )
        if not live.our_turn and not live.resuming and self._nursery is not None:
            self._nursery.start_soon(self._warm_up, live)
        self._start_thinking(live)

    async def _game_move(self, live: LiveGame, move: ServerMove) -> None:
        try:
            play_server_move(live.game, move)
        except GameError as exc:
            log.error("server move %r does not fit our game (%s): resigning", str(move), exc)
            await self._resign(live)
            return
        live.moves.append(move.to_text())
        live.rejected.clear()
        self._start_thinking(live)

    async def _signal(self, live: LiveGame, kind: str) -> None:
        if kind == "OfferDraw":
            if self.settings.accept_draws:
                log.info("draw offered: accepting")
                await self._send(p.GameAction(live.start.game_id, "OfferDraw"))
            else:
                log.info("draw offered: declined (ignored)")
        elif kind == "RequestUndo":
            log.info("undo requested: declined (ignored)")
        elif kind == "Undo" and live.moves:
            if live.think_scope is not None:
                live.think_scope.cancel()
            live.game.undo()
            live.moves.pop()
            self._start_thinking(live)

    async def _refused(self) -> None:
        live = self.live
        if live is not None and live.move_in_flight is not None:
            move = live.move_in_flight
            log.error("the server refused our move %r (last sent: %s)", move, self.session.recent())
            live.move_in_flight = None
            live.game.undo()
            live.moves.pop()
            live.rejected.add(move)
            live.failures += 1
            self._start_thinking(live)
        elif self._accept_pending is not None:
            log.info("seek %d is gone", self._accept_pending.no)
            self._open_seeks.pop(self._accept_pending.no, None)
            self._accept_pending = None
            await self._look_for_game()
        else:
            log.warning("the server said NOK (last sent: %s)", self.session.recent())

    async def _finish(self, live: LiveGame, result: str) -> None:
        if live.think_scope is not None:
            live.think_scope.cancel()
        self.live = None
        path = None
        if self.settings.ptn_dir is not None:
            self._unwritten.append((live, result))
            path = self._write_records().get(live.start.game_id)
        self.finished.append((live.start.game_id, result, path))
        log.info(
            "game %d over: %s after %d plies (%d finished)",
            live.start.game_id,
            result,
            len(live.moves),
            len(self.finished),
        )
        if self.settings.games is not None and len(self.finished) >= self.settings.games:
            self.done.set()
        elif self._settled:
            await self._look_for_game()

    def _write_records(self) -> dict[int, Path]:
        """Write the records still waiting (the one just finished, and any an earlier
        failure kept in memory); the paths written, by game id. A failure is logged and
        the record kept for the next try: it never stops the bot."""
        assert self.settings.ptn_dir is not None
        written: dict[int, Path] = {}
        waiting, self._unwritten = self._unwritten, []
        for live, result in waiting:
            try:
                written[live.start.game_id] = write_record(
                    live, result, self.settings.ptn_dir, self.settings.site
                )
            except OSError as exc:
                log.error(
                    "cannot write the record of game %d (kept, retried after the next game): %s",
                    live.start.game_id,
                    exc,
                )
                self._unwritten.append((live, result))
        for i, (game_id, result, path) in enumerate(self.finished):
            if path is None and game_id in written:
                self.finished[i] = (game_id, result, written[game_id])
        return written

    def _last_chance_for_records(self) -> None:
        """On the way out: one more try at records that could not be written; what
        still fails goes to the log as PTN text, so no finished game is lost."""
        if not self._unwritten or self.settings.ptn_dir is None:
            return
        self._write_records()
        for live, result in self._unwritten:
            text = ptn_record(live, result, self.settings.site).text()
            log.error("record of game %d, not written:\n%s", live.start.game_id, text)

    # ---- thinking ----------------------------------------------------------------------
    def _start_thinking(self, live: LiveGame) -> None:
        if (
            live.think_scope is not None
            or live.resigned
            or self.done.is_set()
            or live.resuming
            or live.move_in_flight is not None
            or not live.our_turn
            or self._nursery is None
            or self.live is not live
        ):
            return
        scope = trio.CancelScope()
        live.think_scope = scope
        self._nursery.start_soon(self._think, live, scope)

    async def _think(self, live: LiveGame, scope: trio.CancelScope) -> None:
        try:
            with scope:
                await self._think_and_move(live)
        except Exception:
            log.exception("unexpected error while thinking in game %d", live.start.game_id)
        finally:
            if live.think_scope is scope:
                live.think_scope = None
        # the opponent may have answered while our move was still being sent
        self._start_thinking(live)

    def _our_clock_ms(self, live: LiveGame) -> tuple[int, int]:
        """(our time, opponent's time) in ms now, before the move overhead."""
        ours, theirs = live.clocks[live.seat], live.clocks[1 - live.seat]
        if live.moves:
            ours -= int((trio.current_time() - live.clock_at) * 1000)
        return ours, theirs

    async def _think_and_move(self, live: LiveGame) -> None:
        game_id = live.start.game_id
        overhead = self.settings.move_overhead_ms
        assert self.seat is not None
        while True:
            if live.failures >= self.settings.max_engine_failures:
                log.error("game %d: too many engine failures, resigning", game_id)
                await self._resign(live)
                return
            try:
                new = self._new_game(await self.seat.open(), live)
                await self.seat.prepare(new)
                ours, theirs = self._our_clock_ms(live)
                budget_ms = ours - max(2 * overhead, ours // 10)
                own = (max(1, ours - overhead), live.inc_ms)
                limits = seat_limits(live.seat, own, (max(1, theirs), live.inc_ms))
                budget = max(0.05, budget_ms / 1000)
                stall = self.settings.max_move_seconds
                if stall is None:  # a search longer than this is no search but a hang
                    stall = max(30.0, ours / 4000)
                budget = min(budget, stall)
                deadline = trio.current_time() + budget
                grace = 1.0 if budget_ms > 5000 else 0.3
                answer = await self.seat.move(
                    live.game, limits, new, deadline=deadline, grace=grace
                )
                action = answer.action
            except SeatFault as fault:
                live.failures += 1
                log.error("game %d: engine failure: %s", game_id, fault)
                ours, _ = self._our_clock_ms(live)
                if isinstance(fault, SeatUnavailable):
                    await self._give_up(live, fault)
                    return
                if ours < self.settings.min_restart_ms:
                    log.error("game %d: no time to restart the engine, resigning", game_id)
                    await self._resign(live)
                    return
                try:
                    await self.seat.restart()
                except SeatUnavailable as again:
                    await self._give_up(live, again)
                    return
                continue
            move = ServerMove.from_move(action).to_text()
            if move in live.rejected:
                action, move = self._alternative(live)
                if action is None:
                    await self._resign(live)
                    return
            live.game.play(action)
            live.moves.append(move)
            live.move_in_flight = move
            log.info("game %d: we play %s%s", game_id, move, describe_info(answer.info))
            await self._send(p.PlayMove(game_id, move))
            return

    async def _resign(self, live: LiveGame) -> None:
        """Resign once (the thinking stops until the server ends the game)."""
        if not live.resigned:
            live.resigned = True
            await self._send(p.GameAction(live.start.game_id, "Resign"))

    async def _give_up(self, live: LiveGame, exc: BaseException) -> None:
        """The engine cannot be started again: resign and stop the bridge."""
        log.error("game %d: %s; resigning and stopping", live.start.game_id, exc)
        await self._resign(live)
        self._fatal = BridgeError(f"the engine is gone: {exc}")
        self.done.set()

    def _alternative(self, live: LiveGame) -> tuple[Any, str]:
        """A random legal move the server has not refused (None when there is none)."""
        options = [(a, ServerMove.from_move(a).to_text()) for a in live.game.legal()]
        options = [(a, m) for a, m in options if m not in live.rejected]
        if not options:
            return None, ""
        log.warning("game %d: playing a random move instead of a refused one", live.start.game_id)
        return random.choice(options)

    async def _warm_up(self, live: LiveGame) -> None:
        """Start the engine's new game while the opponent thinks (errors wait for the
        move: the thinking task retries and restarts the engine)."""
        assert self.seat is not None
        with contextlib.suppress(SeatFault):
            await self.seat.prepare(self._new_game(await self.seat.open(), live))

    @staticmethod
    def _new_game(engine: Engine, live: LiveGame) -> NewGame:
        """The engine's new game for a server game (without komi when it has none)."""
        start = live.start
        rules = seek_rules(start.size, start.komi)
        why = engine.refusal("tak", rules)
        if why is not None and start.komi:
            log.warning("the engine cannot play komi %d (%s): playing without", start.komi, why)
            del rules["halfkomi"]
        return NewGame("tak", rules, key=start.game_id)

    async def _send(self, command: p.ClientCommand) -> None:
        try:
            await self.session.send(command)
        except NotConnected as exc:
            log.warning("%s", exc)
