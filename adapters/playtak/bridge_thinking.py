"""The engine half of the bridge's state, sans-IO: when to think or ponder, the engine's
answers and failures, resigning and draws by score.

`Thinking` is the base of `bridge_state.BridgeState`, which feeds it and provides the
live game, the outbox, the engine's new game and the stop. Engine work is one ticket at a
time (`engine_work.EngineWork`); the moves go through the live game's transitions
(`live_game.LiveGame`), the log lines and what the live view shows into the outbox.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from adapters.playtak import bridge_events as ev
from adapters.playtak import protocol as p
from adapters.playtak.engine_work import EngineWork, Work
from adapters.playtak.game_policy import ScoreWatch
from adapters.playtak.live_game import LiveGame, describe_info
from adapters.playtak.notation import ServerMove
from adapters.playtak.ponder_reply import expected_reply
from adapters.referee.adjudication import score_words
from adapters.referee.records import info_comment
from tei.protocol import Info
from tei.seat import NewGame, SeatUnavailable


class Thinking:
    """The engine decisions of the bridge's state (see the module)."""

    settings: ev.BridgeSettings
    out: ev.Outbox
    live: LiveGame | None
    done: bool
    _now: float
    _scores: ScoreWatch
    _engine: ev.EngineReady | None

    def __init__(self, rng: random.Random | None) -> None:
        self.rng = rng or random.Random()
        self.work = EngineWork()
        self._unscored_noted = False
        self._new_game: NewGame | None = None

    def _engine_game(self, start: p.GameStart) -> NewGame:
        raise NotImplementedError

    def _stop(self, error: ev.BridgeError | None = None) -> None:
        raise NotImplementedError

    # ---- work ------------------------------------------------------------------------
    def _cancel_thinking(self) -> None:
        self.out.add(*self.work.cancel())

    def _maybe_think(self) -> None:
        live = self.live
        work = self.work.current
        if work is not None and work.pondering and live is not None:
            if live.our_turn or live is not work.live:
                self._cancel_thinking()  # pondering is over; its ev.EngineIdle calls us again
            return
        if (
            live is None
            or work is not None
            or self.done
            or self._engine is None  # still starting: EngineReady thinks
            or not live.may_think
        ):
            return
        if live.failures >= self.settings.max_engine_failures:
            self.out.error(f"game {live.start.game_id}: too many engine failures, resigning")
            self._resign(live)
            return
        new = self._new_game or self._engine_game(live.start)
        self.out.add(ev.Think(self.work.start(live, plies=live.game.ply), new))

    def wanted(self, ticket: int) -> bool:
        """The work of `ticket` is still wanted (not cancelled, its game still on)."""
        return self.work.wanted(ticket, self.live)

    def plan(self, ticket: int, now: float) -> ev.MovePlan | None:
        """The position, limits, deadline and grace of the move `ticket` asks for, at
        `now`; None when that work was cancelled meanwhile (a query: nothing changes)."""
        work = self.work.of(ticket)
        if work is None or not self.wanted(ticket):
            return None
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

    # ---- answers ---------------------------------------------------------------------
    def _answered(self, item: ev.EngineAnswered) -> None:
        work = self._current(item.ticket)
        if work is None:
            return
        live = work.live
        if work.plies != live.game.ply:  # the game moved on while we thought
            self._maybe_think()
            return
        action = item.action
        if ServerMove.from_move(action).to_text() in live.rejected:
            other = live.unrefused_move(self.rng)
            if other is None:
                self._resign(live)
                return
            game_id = live.start.game_id
            self.out.warning(f"game {game_id}: playing a random move instead of a refused one")
            action = other[0]
        move = live.we_played(action, info_comment(item.info, item.elapsed))
        ptn = live.game.format_action(live.game.history[-1])
        game_id = live.start.game_id
        self.out.info(f"game {game_id}: we play {ptn}{describe_info(item.info)}")
        self.out.add(ev.ShowMove(live, live.seat, item.info))
        self.out.add(ev.Send(p.PlayMove(game_id, move)))
        self._judge_score(live, item.info)
        if action is item.action:
            self._ponder(live, (item.info, *reversed(item.infos)))

    def _ponder(self, live: LiveGame, infos: Sequence[Info | None]) -> None:
        """With `ponder`, search on the opponent's time on the reply our engine expects:
        the second move of the first pv among `infos` (newest first) that begins with the
        move just played; none expected: no ponder."""
        if not self.settings.ponder or self.done or live.resigned or live.game.result is not None:
            return
        game_id = live.start.game_id
        found = expected_reply(live.game, infos)
        if found is None:
            self.out.debug(f"game {game_id}: not pondering: no expected reply in a pv")
            return
        game, expected = found
        self.out.info(f"game {game_id}: pondering on {expected}")
        new = self._new_game or self._engine_game(live.start)
        self.out.add(ev.Ponder(self.work.start(live, expected=expected), new, game))

    def _judge_score(self, live: LiveGame, info: Info | None) -> None:
        """Resign, offer or withdraw a draw by the score of the move just played."""
        policy = self.settings.policy
        if (policy.resign is None and policy.draw is None) or live.game.result is not None:
            return
        game_id = live.start.game_id
        score = score_words(info.score if info is not None else None)
        action = self._scores.after_our_move(score, live.game.ply)
        if not self._scores.scored and not self._unscored_noted:
            self._unscored_noted = True
            self.out.warning("the engine reports no scores: --resign and --draw never act on it")
        if action == "resign":
            self.out.info(f"game {game_id}: resigning ({policy.resign})")
            self._resign(live)
        elif action == "offer draw":
            self.out.info(f"game {game_id}: offering a draw ({policy.draw})")
            self.out.add(ev.Send(p.GameAction(game_id, "OfferDraw")))
        elif action == "withdraw draw":
            self.out.info(f"game {game_id}: withdrawing our draw offer (the score left the band)")
            self.out.add(ev.Send(p.GameAction(game_id, "RemoveDraw")))

    # ---- failures ----------------------------------------------------------------------
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
                live.engine_failed()
            self.out.error(f"game {game_id}: engine failure: {fault}")
        if isinstance(fault, SeatUnavailable):
            self._give_up(live, fault)
        elif live.clock_ms(self._now)[0] < self.settings.min_restart_ms:
            self.out.error(f"game {game_id}: no time to restart the engine, resigning")
            self._resign(live)
        else:
            self.out.add(ev.Restart(self.work.start(live, restart=True)))

    def _resign(self, live: LiveGame) -> None:
        """Resign once (the thinking stops until the server ends the game)."""
        if live.resign():
            self.out.add(ev.Send(p.GameAction(live.start.game_id, "Resign")))

    def _give_up(self, live: LiveGame, exc: BaseException) -> None:
        """The engine cannot be started again: resign and stop the bridge."""
        self.out.error(f"game {live.start.game_id}: {exc}; resigning and stopping")
        self._resign(live)
        self._stop(ev.BridgeError(f"the engine is gone: {exc}"))
