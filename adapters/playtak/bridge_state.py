"""What the bridge knows and decides, sans-IO: lobby, games, clocks, when to think.

`BridgeState.feed(item, now, wall)` takes one input of `bridge_events` (a server event,
the session's news, the engine's answer, a record's fate) at the monotonic time `now`
and the wall time `wall`, and returns the outputs: commands to send, engine work (a
`Think` is followed by `plan(ticket, now)` once the engine is ready), records to write,
the log lines, what the live view shows, the stop. Nothing else changes the state
(`plan` and `wanted` are queries), and it does no I/O and no logging itself. Engine work
is one ticket at a time: each `Think`, `Ponder` or `Restart` is answered by one
`EngineAnswered`, `EngineFailed` or `EngineIdle` of its ticket before the next. With
`ponder`, our move is followed by a `Ponder` of the reply our engine expects (the second
move of its last pv); it is cancelled, its answer discarded, before anything else the
engine must do (our next move above all), and when the game ends.

Its parts, each sans-IO: the lobby (`seek_desk.SeekDesk`), the engine decisions
(`bridge_thinking.Thinking`, its base) and their tickets (`engine_work.EngineWork`), the
finished games and their records (`record_shelf.RecordShelf`), the live game and its
phase (`live_game.LiveGame`, `live_phase`).
"""

from __future__ import annotations

import logging
import random
from datetime import datetime
from pathlib import Path

from adapters.playtak import bridge_events as ev
from adapters.playtak import protocol as p
from adapters.playtak.bridge_thinking import Thinking
from adapters.playtak.game_policy import ChatTemplate
from adapters.playtak.game_starts import not_ours
from adapters.playtak.live_game import (
    LiveGame,
    clamped_clocks,
    result_words,
    rules_game,
)
from adapters.playtak.notation import ServerMove
from adapters.playtak.record_shelf import RecordShelf
from adapters.playtak.repeats import Repeats
from adapters.playtak.seek_desk import SeekDesk
from rules.game import GameError
from tei.lines import printable
from tei.seat import NewGame

#: seconds after the login's end a game begun before it waits for `Your game is resumed`
RESUME_WAIT = 10.0
#: said with the first of the requests a game's opponent may repeat without end
AGAIN = "the next ones of this game are answered alike without a word"


class BridgeState(Thinking):
    """The bridge's decisions; `feed` one input, get the outputs (see the module)."""

    def __init__(self, settings: ev.BridgeSettings, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.settings = settings
        self.out = ev.Outbox()
        self.name = ""
        self.live: LiveGame | None = None
        #: every finished game and the fate of its record
        self.records = RecordShelf(settings.ptn_dir is not None, out=self.out)
        self.done = False
        self.error: ev.BridgeError | None = None
        self._settled = False
        rotate = settings.seek_rotate_seconds
        self.lobby = SeekDesk(settings.seeks, settings.accept, rotate, out=self.out)
        self._scores = settings.policy.watch()
        self._ignored_starts = Repeats()
        self._settled_at = 0.0
        self._engine: ev.EngineReady | None = None
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
        return self.out.take()

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
        self.out.add(*self.records.retry())
        return self.out.take()

    # ---- connection ----------------------------------------------------------------------
    def _connected(self, name: str) -> None:
        self.name = name
        self._settled = False
        self.lobby.reconnected()
        if self.live is not None:
            self.live.lost()

    def _on_settled(self) -> None:
        self._settled = True
        self._settled_at = self._now
        live = self.live
        if live is not None and live.awaiting_replay:
            game_id = live.start.game_id
            self.out.warning(f"game {game_id} was not resumed by the server: it is over")
            self._finish(live, "*")
        elif live is None:
            self._look_for_game()

    def _disconnected(self) -> None:
        self._settled = False
        live = self.live
        if live is not None:
            live.lost()
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
        self._new_game = new = self._engine_game(live.start)  # its komi as the engine plays it
        self._go_on(live, new)

    def _go_on(self, live: LiveGame, new: NewGame) -> None:
        """A game that can be played (started, or the engine ready): warm the engine up
        for `new` on the opponent's turn, or think on ours."""
        if not live.our_turn and not live.replaying and self._engine is not None:
            self.out.add(ev.WarmUp(new))
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
        self.out.add(ev.Done(error))

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
                for text in clamped_clocks(event.white_ms, event.black_ms):
                    self.out.warning(text)
                live.set_clocks(event.white_ms, event.black_ms, self._now, self._wall)
            case p.GameOver() if live and mine:
                self._finish(live, event.result)
            case p.GameAbandoned() if live and mine:
                quitter_white = event.quitter == live.start.white
                self._finish(live, "0-1" if quitter_white else "1-0", goodbye=False)
            case p.GameSignal() if live and mine:
                self._signal(live, event.kind)
            case p.GameResumed() if live:
                self.out.info(f"game {live.start.game_id} resumed after {live.game.ply} moves")
                live.resumed()
                self._maybe_think()
            case p.Nok():
                self._refused()
            case p.ErrorText():
                self.out.add(ev.LogSent(logging.WARNING, f"server error: {event.text}"))
            case p.SeekNew():
                self.lobby.seen(event.seek)
                if self.settings.accept is not None and self._settled and self.live is None:
                    self._look_for_game()
            case p.SeekRemove():
                self.lobby.gone(event.seek.no)
            case p.Chat(kind="Tell"):
                # words to us are logged, never obeyed: the bot takes no chat commands
                who, text = printable(event.name), printable(event.text)
                self.out.info(f"tell from {who} (not a command; nothing done): {text}")
            case p.Chat():
                self.out.debug(printable(event.to_line()))
            case p.PlayerDisconnected() | p.PlayerReconnected() | p.Message():
                self.out.info(printable(event.to_line()))
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
            self.out.add(ev.Send(command))

    def _rotate_seek(self) -> None:
        when = self.wake_at()
        if when is not None and self._now >= when:
            self.out.add(ev.Send(self.lobby.post(self._now)))

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
            self.out.info(f"game {event.game_id} is being replayed by the server")
            live.replayed(game)
            self.out.add(ev.ShowGame(live, self.name))
            return
        inc = self.lobby.increment(event)
        self.lobby.game_started()
        self._scores = self.settings.policy.watch()
        late = not self._settled
        for text in clamped_clocks((event.time or 0) * 1000):
            self.out.warning(text)
        self.out.info(
            f"game {event.game_id}: {event.white} vs {event.black}, {event.size}x{event.size},"
            f" {event.time}+{inc} s, komi {event.komi}, we are {event.color}"
        )
        self.live = live = LiveGame.begin(event, inc, game, self._now, self._wall, late)
        self.out.add(ev.ShowGame(live, self.name))
        self._new_game = new = self._engine_game(event)
        if self.settings.greeting is not None and not late:
            self._tell(live, self.settings.greeting)
        self._go_on(live, new)

    def _ignore_start(self, event: p.GameStart, why: str) -> None:
        """A `Game Start` that cannot be ours: not played, recorded nor counted; said once
        per game (and for a bounded number of games)."""
        if self._ignored_starts.first(str(event.game_id)):
            game_id, why = event.game_id, printable(why)
            self.out.warning(f"a start of game {game_id} ignored (it cannot be ours: {why})")

    def _refuse_game(self, event: p.GameStart, why: GameError) -> None:
        """A game the rules cannot set up (a size of 0 or 100, a bad piece count): resign
        it at once, record nothing, and look for the next game."""
        self.out.error(f"game {event.game_id} cannot be played ({why}): resigning")
        self.out.add(ev.Send(p.GameAction(event.game_id, "Resign")))
        self.lobby.game_started()
        if self._settled:
            self._look_for_game()

    def _tell(self, live: LiveGame, template: ChatTemplate) -> None:
        opponent = live.opponent
        self.out.add(ev.Send(p.Say(template.fill(self.name, opponent), to=opponent)))

    def _engine_game(self, start: p.GameStart) -> NewGame:
        """The engine's new game for a server game (without komi when it has none)."""
        rules = {"size": str(start.size), "halfkomi": str(start.komi)}
        why = self._engine_refusal(start.size, start.komi)
        if why and start.komi:
            self.out.warning(f"the engine cannot play komi {start.komi} ({why}): playing without")
            del rules["halfkomi"]
        return NewGame("tak", rules, key=start.game_id)

    def _game_move(self, live: LiveGame, move: ServerMove) -> None:
        game_id = live.start.game_id
        try:
            action = live.server_played(move)
        except GameError as exc:
            self.out.error(f"server move {str(move)!r} does not fit our game ({exc}): resigning")
            self._resign(live)
            return
        ptn = live.game.format_action(action)
        if live.replaying:
            self.out.debug(f"game {game_id}: replayed {ptn}")
        else:
            self.out.info(f"game {game_id}: {live.opponent} plays {ptn}")
        self.out.add(ev.ShowMove(live, (live.game.ply - 1) % 2))
        work = self.work.current
        if work is not None and work.pondering and not work.cancelled:
            text = move.to_text()
            hit = "a ponder hit" if work.expected == text else "a ponder miss"
            self.out.info(
                f"game {game_id}: their reply {text} ({hit}: {work.expected} was expected):"
                " ponder stopped"
            )
        self._maybe_think()

    def _signal(self, live: LiveGame, kind: str) -> None:
        game_id = live.start.game_id
        if kind == "OfferDraw":
            if self._scores.takes_draw(live.game.ply):
                self.out.info(f"game {game_id}: draw offered: accepting")
                self.out.add(ev.Send(p.GameAction(game_id, "OfferDraw")))
            elif live.said.first("declined draw"):
                self.out.info(f"game {game_id}: draw offered: declined (ignored; {AGAIN})")
        elif kind == "RequestUndo":
            if self.settings.policy.accept_undo:
                self.out.info(f"game {game_id}: undo requested: accepting")
                self.out.add(ev.Send(p.GameAction(game_id, "RequestUndo")))
            elif live.said.first("refused undo"):
                self.out.info(f"game {game_id}: undo requested: refused (ignored; {AGAIN})")
        elif kind == "Undo" and live.game.ply:
            self._cancel_thinking()
            live.take_back()
            self.out.add(ev.ShowGame(live, self.name))
            self._maybe_think()

    def _refused(self) -> None:
        live = self.live
        if live is not None and live.move_sent is not None:
            move = live.refused()
            self.out.add(ev.LogSent(logging.ERROR, f"the server refused our move {move!r}"))
            self.out.add(ev.ShowGame(live, self.name))
            self._maybe_think()
        elif self.lobby.refused():
            self._look_for_game()
        else:
            self.out.add(ev.LogSent(logging.WARNING, "the server said NOK"))

    # ---- finished games ----------------------------------------------------------------
    def _finish(self, live: LiveGame, result: str, goodbye: bool = True) -> None:
        """The game is over (`goodbye`: and the opponent is there to be told so)."""
        self._cancel_thinking()
        if self.settings.goodbye is not None and goodbye and result != "*":
            self._tell(live, self.settings.goodbye)
        self.live = None
        self.out.add(*self.records.finish(live, result))
        self.out.add(ev.ShowEnd(live, result))
        words = result_words(result, live.seat)
        self.out.info(
            f"game {live.start.game_id} over: {words} after {live.game.ply} plies"
            f" ({len(self.finished)} finished)"
        )
        if self.settings.games is not None and len(self.finished) >= self.settings.games:
            self._stop()
        elif self._settled:
            self._look_for_game()
