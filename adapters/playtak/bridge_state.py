"""What the bridge knows and decides, sans-IO: lobby, games, clocks, when to think.

`BridgeState.feed(item, now, wall)` takes one input of `bridge_events` (a server event,
the session's news, the engine's answer, a record's fate) at the monotonic time `now`
and the wall time `wall`, and returns the outputs: commands to send, engine work (a
`Think` is followed by `plan(ticket, now)` once the engine is ready), records to write,
the stop. Engine work is one ticket at a time: each `Think`, `Ponder` or `Restart` is
answered by one `EngineAnswered`, `EngineFailed` or `EngineIdle` of its ticket before the
next. With `ponder`, our move is followed by a `Ponder` of the reply our engine expects
(the second move of its last pv); it is cancelled, its answer discarded, before anything
else the engine must do (our next move above all), and when the game ends.

Its parts, each sans-IO: the lobby (`seek_desk.SeekDesk`), the engine work and its
tickets (`engine_work.EngineWork`), the finished games and their records
(`record_shelf.RecordShelf`), the live game's own state (`live_game.LiveGame`).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from adapters.playtak import bridge_events as ev
from adapters.playtak import protocol as p
from adapters.playtak.engine_work import EngineWork, Work
from adapters.playtak.game_policy import ChatTemplate
from adapters.playtak.game_starts import not_ours
from adapters.playtak.live_game import (
    LiveGame,
    describe_info,
    play_server_move,
    result_words,
    rules_game,
)
from adapters.playtak.notation import ServerMove
from adapters.playtak.ponder_reply import expected_reply
from adapters.playtak.record_shelf import RecordShelf
from adapters.playtak.repeats import Repeats
from adapters.playtak.seek_desk import SeekDesk
from adapters.referee.adjudication import score_words
from adapters.referee.records import info_comment
from rules.game import GameError
from tei.lines import printable
from tei.seat import NewGame, SeatUnavailable

log = logging.getLogger("playtak.bridge")

#: seconds after the login's end a game begun before it waits for `Your game is resumed`
RESUME_WAIT = 10.0
#: said with the first of the requests a game's opponent may repeat without end
AGAIN = "the next ones of this game are answered alike without a word"


class BridgeState:
    """The bridge's decisions; `feed` one input, get the outputs (see the module)."""

    def __init__(self, settings: ev.BridgeSettings, rng: random.Random | None = None) -> None:
        self.settings = settings
        self.rng = rng or random.Random()
        self.name = ""
        self.live: LiveGame | None = None
        #: every finished game and the fate of its record
        self.records = RecordShelf(settings.ptn_dir is not None)
        self.done = False
        self.error: ev.BridgeError | None = None
        self._settled = False
        self.lobby = SeekDesk(settings.seeks, settings.accept, settings.seek_rotate_seconds)
        self._scores = settings.policy.watch()
        self._unscored_noted = False
        self._ignored_starts = Repeats()
        self._settled_at = 0.0
        self._engine: ev.EngineReady | None = None
        self._new_game: NewGame | None = None
        self.work = EngineWork()
        self._out: list[ev.Output] = []
        self._now = 0.0
        self._wall = datetime.min

    @property
    def finished(self) -> list[tuple[int, str, Path | None]]:
        """(game id, result, record path or None) of every finished game."""
        return self.records.finished

    @property
    def unwritten(self) -> list[tuple[LiveGame, str]]:
        """Finished games whose record could not be written yet."""
        return self.records.unwritten

    @property
    def in_game(self) -> bool:
        return self.live is not None

    @property
    def settled(self) -> bool:
        """The login burst of the current connection is over."""
        return self._settled

    def feed(self, item: ev.Input, now: float, wall: datetime) -> list[ev.Output]:
        """Take one input at monotonic time `now` and wall time `wall`; the outputs."""
        self._now, self._wall = now, wall
        match item:
            case ev.Connected():
                self._connected(item.name)
            case ev.Settled():
                self._on_settled()
            case ev.Disconnected():
                self._disconnected()
            case ev.EngineReady():
                self._engine_ready(item)
            case ev.EngineAnswered():
                self._answered(item)
            case ev.EngineFailed():
                self._failed(item)
            case ev.EngineIdle():
                if self.work.end(item.ticket) is not None:
                    self._maybe_think()
            case ev.Tick():
                self._drop_unconfirmed()
                self._rotate_seek()
            case ev.RecordWritten():
                self.records.written(item)
            case ev.RecordFailed():
                self.records.failed(item)
            case _:
                self._event(item)
        out, self._out = self._out, []
        return out

    def wake_at(self) -> float | None:
        """When the bridge must feed `ev.Tick` (the posted seek's turn is over, or the
        wait for a game begun before our login to be resumed), or None."""
        seek = self.lobby.wake_at(self._settled and self.live is None)
        if self._settled and self.live is not None and self.live.unconfirmed:
            resume = self._settled_at + RESUME_WAIT
            return resume if seek is None else min(seek, resume)
        return seek

    def _drop_unconfirmed(self, why: str | None = None) -> None:
        """A game that began before our login and that the server has not resumed
        within RESUME_WAIT s of the login's end (or before `why`: another game started)
        was not ours: ignored, not counted."""
        live = self.live
        if live is None or not live.unconfirmed or not self._settled:
            return
        late = why is None and self._now >= self._settled_at + RESUME_WAIT
        if late or why is not None:
            said = f"was not resumed within {RESUME_WAIT:g} s" if late else f"{why}"
            self._ignore_start(live.start, f"it began before our login and {said}")
            self._cancel_thinking()
            self.live = None
            if late:
                self._look_for_game()

    def close(self) -> list[ev.Output]:
        """On the way out: one more try at the records not written yet."""
        self._out += self.records.retry()
        out, self._out = self._out, []
        return out

    # ---- connection ----------------------------------------------------------------------
    def _connected(self, name: str) -> None:
        self.name = name
        self._settled = False
        self.lobby.reconnected()
        if self.live is not None:
            self.live.awaiting_replay = True

    def _on_settled(self) -> None:
        self._settled = True
        self._settled_at = self._now
        live = self.live
        if live is not None and live.awaiting_replay:
            log.warning("game %d was not resumed by the server: it is over", live.start.game_id)
            self._finish(live, "*")
        elif live is None:
            self._look_for_game()

    def _disconnected(self) -> None:
        self._settled = False
        live = self.live
        if live is not None:
            live.resuming = True
            live.move_in_flight = None
            self._cancel_thinking()

    def _engine_ready(self, engine: ev.EngineReady) -> None:
        """The engine started (while the session logs in: neither waits for the other);
        what waited for it goes on: the seek or accept, a resumed game's move."""
        self._engine = engine
        for seek in self.settings.seeks:
            why = self._engine_refusal(seek.size, seek.komi)
            if why:
                line = seek.to_line()
                self._stop(ev.BridgeError(f"the engine cannot play the seek {line!r}: {why}"))
                return
        live = self.live
        if live is None:
            if self._settled:
                self._look_for_game()
            return
        self._new_game = self._engine_game(live.start)  # its komi as the engine plays it
        if not live.our_turn and not live.resuming:
            self._out.append(ev.WarmUp(self._new_game))
        self._maybe_think()

    def _engine_refusal(self, size: int, komi: int) -> str | None:
        """Why our engine cannot play this size and komi (None: it can, or not known yet)."""
        engine = self._engine
        if engine is None:
            return None
        return ev.engine_refusal(engine.options, engine.sizes, size, komi)

    def _stop(self, error: ev.BridgeError | None = None) -> None:
        self.done = True
        self.error = self.error or error
        self._out.append(ev.Done(error))

    # ---- server events ---------------------------------------------------------------
    def _event(self, event: p.ServerEvent) -> None:
        live = self.live
        mine = live is not None and getattr(event, "game_id", None) == live.start.game_id
        match event:
            case p.GameStart():
                self._game_start(event)
            case p.GameMove() if live and mine:
                self._game_move(live, event.move)
            case p.GameTime() if live and mine:
                live.set_clocks(event.white_ms, event.black_ms, self._now, self._wall)
            case p.GameOver() if live and mine:
                self._finish(live, event.result)
            case p.GameAbandoned() if live and mine:
                quitter_white = event.quitter == live.start.white
                self._finish(live, "0-1" if quitter_white else "1-0", goodbye=False)
            case p.GameSignal() if live and mine:
                self._signal(live, event.kind)
            case p.GameResumed() if live:
                log.info("game %d resumed after %d moves", live.start.game_id, len(live.moves))
                live.resuming = False
                live.awaiting_replay = False
                live.unconfirmed = False
                self._maybe_think()
            case p.Nok():
                self._refused()
            case p.ErrorText():
                self._out.append(ev.LogSent(logging.WARNING, f"server error: {event.text}"))
            case p.SeekNew():
                self.lobby.seen(event.seek)
                if self.settings.accept is not None and self._settled and self.live is None:
                    self._look_for_game()
            case p.SeekRemove():
                self.lobby.gone(event.seek.no)
            case p.Chat(kind="Tell"):
                # words to us are logged, never obeyed: the bot takes no chat commands
                who, text = printable(event.name), printable(event.text)
                log.info("tell from %s (not a command; nothing done): %s", who, text)
            case p.Chat():
                log.debug("%s", printable(event.to_line()))
            case p.PlayerDisconnected() | p.PlayerReconnected() | p.Message():
                log.info("%s", printable(event.to_line()))
            case _:
                pass

    # ---- lobby -------------------------------------------------------------------------
    def _look_for_game(self) -> None:
        """Accept the best acceptable seek of another player, or else post our own seek
        (never during a game)."""
        if self.live is not None or self.done or self._engine is None:
            return  # no engine yet: EngineReady looks again
        command = self.lobby.next_command(self.name, self._now, self._engine_refusal)
        if command is not None:
            self._out.append(ev.Send(command))

    def _rotate_seek(self) -> None:
        when = self.wake_at()
        if when is not None and self._now >= when:
            self._out.append(ev.Send(self.lobby.post(self._now)))

    def _game_start(self, event: p.GameStart) -> None:
        live = self.live
        if live is not None and live.unconfirmed and live.start.game_id != event.game_id:
            self._drop_unconfirmed(f"game {event.game_id} started before it was resumed")
            live = None
        why = not_ours(event, self.name, live.start if live is not None else None)
        if why:
            self._ignore_start(event, why)
            return
        try:
            game = rules_game(event)
        except GameError as exc:
            self._refuse_game(event, exc)
            return
        if live is not None:  # the same game (not_ours: no other), replayed by the server
            live.replayed(game)
            return
        inc = self.lobby.increment(event)
        self.lobby.game_started()
        self._scores = self.settings.policy.watch()
        late = not self._settled
        self.live = live = LiveGame.begin(event, inc, game, self._now, self._wall, late)
        self._new_game = self._engine_game(event)
        if self.settings.greeting is not None and not late:
            self._tell(live, self.settings.greeting)
        if not live.our_turn and not live.resuming and self._engine is not None:
            self._out.append(ev.WarmUp(self._new_game))
        self._maybe_think()

    def _ignore_start(self, event: p.GameStart, why: str) -> None:
        """A `Game Start` that cannot be ours: not played, recorded nor counted; said once
        per game (and for a bounded number of games)."""
        if self._ignored_starts.first(str(event.game_id)):
            log.warning(
                "a start of game %d ignored (it cannot be ours: %s)", event.game_id, printable(why)
            )

    def _refuse_game(self, event: p.GameStart, why: GameError) -> None:
        """A game the rules cannot set up (a size of 0 or 100, a bad piece count): resign
        it at once, record nothing, and look for the next game."""
        log.error("game %d cannot be played (%s): resigning", event.game_id, why)
        self._out.append(ev.Send(p.GameAction(event.game_id, "Resign")))
        self.lobby.game_started()
        if self._settled:
            self._look_for_game()

    def _tell(self, live: LiveGame, template: ChatTemplate) -> None:
        opponent = live.opponent
        self._out.append(ev.Send(p.Say(template.fill(self.name, opponent), to=opponent)))

    def _engine_game(self, start: p.GameStart) -> NewGame:
        """The engine's new game for a server game (without komi when it has none)."""
        rules = {"size": str(start.size), "halfkomi": str(start.komi)}
        why = self._engine_refusal(start.size, start.komi)
        if why and start.komi:
            log.warning("the engine cannot play komi %d (%s): playing without", start.komi, why)
            del rules["halfkomi"]
        return NewGame("tak", rules, key=start.game_id)

    def _game_move(self, live: LiveGame, move: ServerMove) -> None:
        try:
            action = play_server_move(live.game, move)
        except GameError as exc:
            log.error("server move %r does not fit our game (%s): resigning", str(move), exc)
            self._resign(live)
            return
        live.played(move.to_text())
        ptn = live.game.format_action(action)
        if live.resuming:
            log.debug("game %d: replayed %s", live.start.game_id, ptn)
        else:
            log.info("game %d: %s plays %s", live.start.game_id, live.opponent, ptn)
        live.rejected.clear()
        work = self.work.current
        if work is not None and work.pondering and not work.cancelled:
            hit = "a ponder hit" if work.expected == live.moves[-1] else "a ponder miss"
            log.info(
                "game %d: their reply %s (%s: %s was expected): ponder stopped",
                *(live.start.game_id, live.moves[-1], hit, work.expected),
            )
        self._maybe_think()

    def _signal(self, live: LiveGame, kind: str) -> None:
        game_id = live.start.game_id
        if kind == "OfferDraw":
            if self._scores.takes_draw(len(live.game.history)):
                log.info("game %d: draw offered: accepting", game_id)
                self._out.append(ev.Send(p.GameAction(game_id, "OfferDraw")))
            elif live.said.first("declined draw"):
                log.info("game %d: draw offered: declined (ignored; %s)", game_id, AGAIN)
        elif kind == "RequestUndo":
            if self.settings.policy.accept_undo:
                log.info("game %d: undo requested: accepting", game_id)
                self._out.append(ev.Send(p.GameAction(game_id, "RequestUndo")))
            elif live.said.first("refused undo"):
                log.info("game %d: undo requested: refused (ignored; %s)", game_id, AGAIN)
        elif kind == "Undo" and live.moves:
            self._cancel_thinking()
            live.take_back()
            self._maybe_think()

    def _refused(self) -> None:
        live = self.live
        if live is not None and live.move_in_flight is not None:
            move = live.refused()
            self._out.append(ev.LogSent(logging.ERROR, f"the server refused our move {move!r}"))
            self._maybe_think()
        elif self.lobby.refused():
            self._look_for_game()
        else:
            self._out.append(ev.LogSent(logging.WARNING, "the server said NOK"))

    # ---- finished games ----------------------------------------------------------------
    def _finish(self, live: LiveGame, result: str, goodbye: bool = True) -> None:
        """The game is over (`goodbye`: and the opponent is there to be told so)."""
        self._cancel_thinking()
        if self.settings.goodbye is not None and goodbye and result != "*":
            self._tell(live, self.settings.goodbye)
        self.live = None
        self._out += self.records.finish(live, result)
        log.info(
            "game %d over: %s after %d plies (%d finished)",
            *(live.start.game_id, result_words(result, live.seat), len(live.moves)),
            len(self.finished),
        )
        if self.settings.games is not None and len(self.finished) >= self.settings.games:
            self._stop()
        elif self._settled:
            self._look_for_game()

    # ---- thinking ----------------------------------------------------------------------
    def _cancel_thinking(self) -> None:
        self._out += self.work.cancel()

    def _maybe_think(self) -> None:
        live = self.live
        work = self.work.current
        if work is not None and work.pondering and live is not None:
            if live.our_turn or live is not work.live:
                self._cancel_thinking()  # pondering is over; its ev.EngineIdle calls us again
            return
        if (
            live is None
            or self._engine is None  # still starting: EngineReady thinks
            or work is not None
            or live.resigned
            or self.done
            or live.resuming
            or live.move_in_flight is not None
            or not live.our_turn
        ):
            return
        if live.failures >= self.settings.max_engine_failures:
            log.error("game %d: too many engine failures, resigning", live.start.game_id)
            self._resign(live)
            return
        new = self._new_game or self._engine_game(live.start)
        self._out.append(ev.Think(self.work.start(live), new))

    def wanted(self, ticket: int) -> bool:
        """The work of `ticket` is still wanted (not cancelled, its game still on)."""
        return self.work.wanted(ticket, self.live)

    def plan(self, ticket: int, now: float) -> ev.MovePlan | None:
        """The position, limits, deadline and grace of the move `ticket` asks for, at
        `now`; None when that work was cancelled meanwhile."""
        work = self.work.of(ticket)
        if work is None or not self.wanted(ticket):
            return None
        work.plies = len(work.live.game.history)
        return ev.move_plan(work.live, now, self.settings)

    def _current(self, ticket: int) -> Work | None:
        """The work of `ticket` (now over) when its game still wants its outcome."""
        work = self.work.end(ticket)
        if work is None:
            return None
        if work.cancelled or work.live is not self.live:
            self._maybe_think()
            return None
        return work

    def _answered(self, item: ev.EngineAnswered) -> None:
        work = self._current(item.ticket)
        if work is None:
            return
        live = work.live
        if work.plies != len(live.game.history):  # the game moved on while we thought
            self._maybe_think()
            return
        action = item.action
        move = ServerMove.from_move(action).to_text()
        if move in live.rejected:
            action, move = live.unrefused_move(self.rng)
            if action is None:
                self._resign(live)
                return
        live.game.play(action)
        live.played(move, info_comment(item.info, item.elapsed))
        live.move_in_flight = move
        ptn = live.game.format_action(live.game.history[-1])
        log.info("game %d: we play %s%s", live.start.game_id, ptn, describe_info(item.info))
        self._out.append(ev.Send(p.PlayMove(live.start.game_id, move)))
        self._judge_score(live, item.info)
        if action is item.action:
            self._ponder(live, (item.info, *reversed(item.infos)))

    def _ponder(self, live: LiveGame, infos: Sequence[Any]) -> None:
        """With `ponder`, search on the opponent's time on the reply our engine expects:
        the second move of the first pv among `infos` (newest first) that begins with the
        move just played; none expected: no ponder."""
        if not self.settings.ponder or self.done or live.resigned or live.game.result is not None:
            return
        found = expected_reply(live.game, infos)
        if found is None:
            log.debug("game %d: not pondering: no expected reply in a pv", live.start.game_id)
            return
        game, expected = found
        log.info("game %d: pondering on %s", live.start.game_id, expected)
        new = self._new_game or self._engine_game(live.start)
        self._out.append(ev.Ponder(self.work.start(live, expected=expected), new, game))

    def _judge_score(self, live: LiveGame, info: Any) -> None:
        """Resign, offer or withdraw a draw by the score of the move just played."""
        policy = self.settings.policy
        if (policy.resign is None and policy.draw is None) or live.game.result is not None:
            return
        game_id = live.start.game_id
        score = score_words(getattr(info, "score", None))
        action = self._scores.after_our_move(score, len(live.game.history))
        if not self._scores.scored and not self._unscored_noted:
            self._unscored_noted = True
            log.warning("the engine reports no scores: --resign and --draw never act on it")
        if action == "resign":
            log.info("game %d: resigning (%s)", game_id, policy.resign)
            self._resign(live)
        elif action == "offer draw":
            log.info("game %d: offering a draw (%s)", game_id, policy.draw)
            self._out.append(ev.Send(p.GameAction(game_id, "OfferDraw")))
        elif action == "withdraw draw":
            log.info("game %d: withdrawing our draw offer (the score left the band)", game_id)
            self._out.append(ev.Send(p.GameAction(game_id, "RemoveDraw")))

    def _failed(self, item: ev.EngineFailed) -> None:
        work = self.work.of(item.ticket)
        if work is not None and work.pondering:
            work.cancelled = False  # a ponder that did not stop: restart the engine all the same
        work = self._current(item.ticket)
        if work is None:
            return
        live, fault = work.live, item.fault
        game_id = live.start.game_id
        if not work.restart:
            if not work.pondering:  # a failed ponder search costs no move
                live.failures += 1
            log.error("game %d: engine failure: %s", game_id, fault)
        if isinstance(fault, SeatUnavailable):
            self._give_up(live, fault)
        elif live.clock_ms(self._now)[0] < self.settings.min_restart_ms:
            log.error("game %d: no time to restart the engine, resigning", game_id)
            self._resign(live)
        else:
            self._out.append(ev.Restart(self.work.start(live, restart=True)))

    def _resign(self, live: LiveGame) -> None:
        """Resign once (the thinking stops until the server ends the game)."""
        if not live.resigned:
            live.resigned = True
            self._out.append(ev.Send(p.GameAction(live.start.game_id, "Resign")))

    def _give_up(self, live: LiveGame, exc: BaseException) -> None:
        """The engine cannot be started again: resign and stop the bridge."""
        log.error("game %d: %s; resigning and stopping", live.start.game_id, exc)
        self._resign(live)
        self._stop(ev.BridgeError(f"the engine is gone: {exc}"))
