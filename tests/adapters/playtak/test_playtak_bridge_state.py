"""The bridge's state with scripted inputs: no socket, no process, no clock but ours."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from adapters.playtak import bridge_events as ev
from adapters.playtak import protocol as p
from adapters.playtak.bridge import write_log
from adapters.playtak.bridge_state import BridgeState
from adapters.playtak.game_policy import ChatTemplate, ScorePolicy
from adapters.playtak.seek_filter import SeekFilter
from adapters.referee.adjudication import DrawRule, ResignRule
from rules.tak.move import Move
from tei.protocol import Info, OptionDecl, Score
from tei.seat import FaultKind, SeatFault, SeatUnavailable

HALFKOMI = {"HalfKomi": OptionDecl("HalfKomi", "spin", "0", 0, 8)}
WHITE_START = "Game Start 5 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0"
BLACK_START = "Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0"
SEEK_LINE = "Seek 5 60 0 A 0 21 1 0 0 "
ALICE_ONLY = SeekFilter(allow=frozenset({"alice"}))
CRASH = SeatFault("flaky", FaultKind.CRASHED, True, EOFError("gone"))


#: what a state says (written to the log by `write_log`) and what it shows the live view
TOLD = (ev.ShowGame, ev.ShowMove, ev.ShowEnd)


class Script:
    """A state fed with lines and inputs at a time the test moves on by hand."""

    def __init__(
        self, options: dict[str, OptionDecl] | None = None, ready: bool = True, **settings: Any
    ) -> None:
        settings.setdefault("seeks", (p.Seek.parse_spec("5 60 0 A"),))
        settings.setdefault("move_overhead_ms", 100)
        self.state = BridgeState(ev.BridgeSettings(**settings), rng=random.Random(7))
        self.now = 1000.0
        self.wall = datetime(2026, 3, 4, 5, 6, 7, tzinfo=UTC)
        #: the live view's outputs, in order, each handed to `watch` as it comes
        self.shown: list[ev.Output] = []
        self.watch: Callable[[ev.Output], None] | None = None
        if ready:  # else the engine is still starting: the test feeds EngineReady
            self.feed(ev.EngineReady(HALFKOMI if options is None else options))

    def feed(self, *items: ev.Input | str) -> list[ev.Output]:
        """The outputs of `items` but the log lines (written to the log, as the bridge
        does) and the live view's (kept in `shown`)."""
        out: list[ev.Output] = []
        for item in items:
            event = p.parse_server_line(item) if isinstance(item, str) else item
            for output in self.state.feed(event, self.now, self.wall):
                if isinstance(output, TOLD):
                    self.shown.append(output)
                    if self.watch is not None:
                        self.watch(output)
                elif isinstance(output, ev.Log) and not isinstance(output, ev.LogSent):
                    write_log(output)
                else:
                    out.append(output)
        return out

    def later(self, seconds: float) -> None:
        self.now += seconds
        self.wall += timedelta(seconds=seconds)

    def login(self, name: str = "Guest1") -> list[ev.Output]:
        return self.feed(ev.Connected(name), ev.Settled())

    def answer(self, out: list[ev.Output], ptn: str, info: Info | None = None) -> list[ev.Output]:
        """Plan the move the single Think of `out` asks for and answer it with `ptn`."""
        ticket = think(out).ticket
        assert self.state.plan(ticket, self.now) is not None
        return self.feed(ev.EngineAnswered(ticket, Move.from_ptn(ptn), info))


def sent(out: list[ev.Output]) -> list[str]:
    return [o.command.to_line() for o in out if isinstance(o, ev.Send)]


def think(out: list[ev.Output]) -> ev.Think:
    thinks = [o for o in out if isinstance(o, ev.Think)]
    assert len(thinks) == 1, out
    return thinks[0]


def of(kind: type, out: list[ev.Output]) -> list[Any]:
    return [o for o in out if isinstance(o, kind)]


def test_white_seeks_then_thinks_at_once_and_sends_its_move() -> None:
    script = Script()
    assert sent(script.login()) == [SEEK_LINE]
    out = script.feed(WHITE_START)
    request = think(out)
    assert not of(ev.WarmUp, out)
    assert dict(request.new_game.rules) == {"size": "5", "halfkomi": "0"}
    assert request.new_game.key == 5
    plan = script.state.plan(request.ticket, script.now)
    assert plan is not None
    assert (plan.limits.wtime, plan.limits.btime) == (59_900, 60_000)
    assert plan.deadline == script.now + 30.0  # a quarter of the clock, at least 30 s
    assert sent(script.feed(ev.EngineAnswered(request.ticket, Move.from_ptn("a1")))) == [
        "Game#5 P A1"
    ]
    assert script.state.live is not None and script.state.live.moves == ["P A1"]
    assert script.feed("Game#5 Timems 59000 60000") == []  # our move arrived: no thinking


def test_black_warms_up_and_thinks_after_the_opponent_moves() -> None:
    script = Script()
    script.login()
    out = script.feed(BLACK_START, "Game#2 Timems 60000 60000")
    assert of(ev.WarmUp, out) and not of(ev.Think, out)
    script.later(2.0)
    out = script.feed("Game#2 P A1", "Game#2 Timems 58000 60000")
    request = think(out)
    script.later(1.5)
    plan = script.state.plan(request.ticket, script.now)
    assert plan is not None
    assert plan.game.history_text() == ["a1"]
    # our clock ran 1.5 s since the last clocks; the overhead comes off what the engine sees
    assert (plan.limits.wtime, plan.limits.btime) == (58_000, 60_000 - 1500 - 100)
    assert sent(script.answer(out, "e5")) == ["Game#2 P E5"]


def test_a_refused_move_is_replaced_by_another() -> None:
    script = Script()
    script.login()
    out = script.answer(script.feed(WHITE_START), "a1")
    assert sent(out) == ["Game#5 P A1"]
    out = script.feed("NOK")
    assert [o.text for o in of(ev.LogSent, out)] == ["the server refused our move 'P A1'"]
    assert script.state.live is not None and script.state.live.moves == []
    # the engine insists on the refused move: a random other one goes instead
    again = sent(script.answer(out, "a1"))
    assert len(again) == 1 and again[0] != "Game#5 P A1" and again[0].startswith("Game#5 ")


def test_a_refused_accept_waits_for_the_next_seek_and_a_stray_nok_is_logged() -> None:
    script = Script(seeks=(), accept=ALICE_ONLY)
    seek = "Seek new 1 alice 5 60 0 W 0 21 1 0 0 0 0 0 0"
    assert sent(script.login() + script.feed(seek)) == ["Accept 1"]
    assert script.feed("NOK") == []  # the seek is gone: nothing else to accept
    out = script.feed("NOK")
    assert [o.text for o in of(ev.LogSent, out)] == ["the server said NOK"]
    assert sent(script.feed("Seek new 2 alice 5 60 0 W 0 21 1 0 0 0 0 0 0")) == ["Accept 2"]


def test_seeks_of_others_and_komi_the_engine_lacks_are_not_accepted() -> None:
    script = Script(options={}, seeks=(), accept=ALICE_ONLY)
    script.login()
    assert script.feed("Seek new 1 carol 5 60 0 W 0 21 1 0 0 0 0 0 0") == []
    assert script.feed("Seek new 2 alice 5 60 0 W 4 21 1 0 0 0 0 0 0") == []  # komi 2
    assert script.feed("Seek new 3 alice 5 60 0 W 0 21 1 0 0 0 0 0 bobby") == []
    assert sent(script.feed("Seek new 4 alice 5 60 0 W 0 21 1 0 0 0 0 0 0")) == ["Accept 4"]


def test_a_seek_the_engine_cannot_play_stops_at_once() -> None:
    script = Script(options={}, seeks=(p.Seek.parse_spec("5 60 0 A 4"),))
    assert script.state.done and script.state.error is not None
    assert "cannot play the seek" in str(script.state.error)


def test_resume_after_a_reconnect_waits_for_the_resumed_message() -> None:
    script = Script()
    script.login()
    script.answer(script.feed(WHITE_START), "a1")
    searching = think(script.feed("Game#5 Timems 59000 60000", "Game#5 P E5"))
    assert script.feed(ev.Disconnected()) == [ev.CancelThinking(searching.ticket)]
    assert script.feed(ev.Connected("Guest1")) == []
    # the replay rebuilds the game; no move and no seek before `Your game is resumed`
    replay = [WHITE_START, "Game#5 P A1", "Game#5 P E5", "Game#5 Timems 50000 50000", ev.Settled()]
    assert script.feed(*replay) == []
    assert script.feed(ev.EngineIdle(searching.ticket)) == []  # the cancelled search is over
    out = script.feed("Message Your game is resumed")
    assert sent(script.answer(out, "b1")) == ["Game#5 P B1"]
    assert script.state.live is not None
    assert script.state.live.game.history_text() == ["a1", "e5", "b1"]


def test_a_login_before_the_engine_started_seeks_once_it_has() -> None:
    script = Script(ready=False)
    assert script.login() == []  # no seek the engine might not be able to play
    assert sent(script.feed(ev.EngineReady(HALFKOMI))) == [SEEK_LINE]


def test_a_game_resumed_before_the_engine_started_is_played_once_it_has() -> None:
    script = Script(ready=False)
    script.feed(ev.Connected("Guest1"))
    replay = [WHITE_START, "Game#5 P A1", "Game#5 P E5", "Game#5 Timems 50000 50000"]
    assert script.feed(*replay, ev.Settled(), "Message Your game is resumed") == []
    out = script.feed(ev.EngineReady(HALFKOMI))
    assert sent(script.answer(out, "b1")) == ["Game#5 P B1"]
    assert not of(ev.WarmUp, out)


def test_black_started_before_the_engine_warms_up_once_it_has() -> None:
    script = Script(ready=False)
    script.feed(ev.Connected("Guest1"), ev.Settled())
    assert script.feed(BLACK_START) == []
    out = script.feed(ev.EngineReady(HALFKOMI))
    assert of(ev.WarmUp, out) and not of(ev.Think, out)


def test_a_game_joined_on_resume_is_dated_from_its_clocks(tmp_path: Path) -> None:
    script = Script(ptn_dir=tmp_path)
    script.feed(ev.Connected("Guest1"), WHITE_START, "Game#5 P A1", "Game#5 P E5")
    script.feed("Game#5 Timems 40000 40000", ev.Settled())
    live = script.state.live
    assert live is not None and live.began == script.wall - timedelta(seconds=40)


def test_a_game_the_server_does_not_resume_is_recorded_as_unfinished(tmp_path: Path) -> None:
    script = Script(ptn_dir=tmp_path, games=2)
    script.login()
    out = script.feed(BLACK_START, "Game#2 P A1")
    script.answer(out, "e5")
    script.feed(ev.Disconnected())
    out = script.login()
    records = of(ev.WriteRecord, out)
    assert [(r.live.start.game_id, r.result) for r in records] == [(2, "*")]
    assert records[0].live.game.history_text() == ["a1", "e5"]
    assert sent(out) == [SEEK_LINE]
    assert script.state.finished == [(2, "*", None)]


def test_an_agreed_undo_takes_back_a_ply_and_a_request_is_ignored() -> None:
    script = Script()
    script.login()
    out = script.feed(BLACK_START, "Game#2 P A1")
    script.answer(out, "e5")
    assert script.feed("Game#2 Timems 60000 59000", "Game#2 RequestUndo") == []
    out = script.feed("Game#2 Undo")
    assert script.state.live is not None and script.state.live.moves == ["P A1"]
    assert sent(script.answer(out, "d4")) == ["Game#2 P D4"]


def test_undo_while_thinking_cancels_and_thinks_again_after_the_search_stops() -> None:
    script = Script()
    script.login()
    script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5")
    first = think(script.feed("Game#2 Timems 60000 59000", "Game#2 P B1"))
    out = script.feed("Game#2 Undo", "Game#2 Undo")  # back to before our first move
    assert of(ev.CancelThinking, out) == [ev.CancelThinking(first.ticket)] and not of(ev.Think, out)
    out = script.feed(ev.EngineAnswered(first.ticket, Move.from_ptn("c3")))  # too late
    assert sent(out) == []  # dropped; a new search starts now that the old one is over
    assert sent(script.answer(out, "c3")) == ["Game#2 P C3"]


@pytest.mark.parametrize("accept", [False, True])
def test_draw_offers_are_declined_unless_accepted(accept: bool) -> None:
    script = Script(policy=ScorePolicy(accept_draws=accept))
    script.login()
    script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5")
    assert sent(script.feed("Game#2 OfferDraw")) == (["Game#2 OfferDraw"] if accept else [])


def test_a_time_loss_ends_the_game_and_the_bot_seeks_again() -> None:
    script = Script(games=2)
    script.login()
    script.answer(script.feed(WHITE_START), "a1")
    script.feed("Game#5 Timems 59000 60000", "Game#5 P E5", "Game#5 Timems 0 60000")
    out = script.feed("Game#5 Over 0-1")
    assert of(ev.CancelThinking, out)
    assert sent(out) == [SEEK_LINE]
    assert script.state.finished == [(5, "0-1", None)] and not script.state.done


def test_the_last_of_games_n_stops_without_seeking() -> None:
    script = Script(games=1)
    script.login()
    out = script.feed(BLACK_START, "Game#2 Abandoned. bobby quit")
    assert of(ev.Done, out) == [ev.Done(None)] and sent(out) == []
    assert script.state.finished == [(2, "0-1", None)]  # white quit


def test_engine_failures_are_restarted_until_three_then_it_resigns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    script = Script()
    script.login()
    out = script.feed(WHITE_START)
    restarts = 0
    while True:
        failed = script.feed(ev.EngineFailed(think(out).ticket, CRASH))
        if not of(ev.Restart, failed):
            break
        restarts += 1
        out = script.feed(ev.EngineIdle(of(ev.Restart, failed)[0].ticket))
        if sent(out):
            break
    assert restarts == 3  # each failure brings a fresh process, then three is enough
    assert sent(out) == ["Game#5 Resign"]
    assert "too many engine failures" in caplog.text
    assert script.feed("Game#5 P E5") == []  # resigned: no more thinking


def test_no_time_to_restart_resigns_at_once(caplog: pytest.LogCaptureFixture) -> None:
    script = Script()
    script.login()
    out = script.feed("Game Start 4 Guest1 vs bobby white 5 2 0 0 21 1 0 0 0 0 0")
    out = script.feed(ev.EngineFailed(think(out).ticket, CRASH))
    assert sent(out) == ["Game#4 Resign"] and not of(ev.Restart, out)
    assert "no time to restart the engine" in caplog.text


def test_an_engine_that_cannot_start_again_resigns_and_stops() -> None:
    script = Script()
    script.login()
    out = script.feed(WHITE_START)
    gone = SeatUnavailable("flaky", FaultKind.CRASHED, True, OSError("no such file"))
    out = script.feed(ev.EngineFailed(think(out).ticket, gone))
    assert sent(out) == ["Game#5 Resign"]
    error = of(ev.Done, out)[0].error
    assert error is not None and "the engine is gone" in str(error)
    assert script.state.error is error


def test_an_answer_after_a_cancel_is_dropped() -> None:
    script = Script()
    script.login()
    out = script.feed(WHITE_START)
    ticket = think(out).ticket
    script.feed(ev.Disconnected())
    assert script.state.plan(ticket, script.now) is None
    assert script.feed(ev.EngineAnswered(ticket, Move.from_ptn("a1"))) == []
    assert script.state.live is not None and script.state.live.moves == []


@pytest.mark.parametrize(
    ("white", "black"),
    [(200_000_000_000_000, 60_000), (-5_000, 60_000), (60_000, 99_999_999_999_999_999_999)],
)
def test_absurd_clocks_are_clamped(
    caplog: pytest.LogCaptureFixture, white: int, black: int
) -> None:
    script = Script()
    script.login()
    out = script.feed(BLACK_START, f"Game#2 Timems {white} {black}", "Game#2 P A1")
    plan = script.state.plan(think(out).ticket, script.now)
    assert plan is not None
    assert all(0 < t <= 2**31 - 1 for t in (plan.limits.wtime, plan.limits.btime))
    assert plan.deadline > script.now
    assert "clamped" in caplog.text


def test_a_record_that_cannot_be_written_is_kept_and_retried(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    script = Script(ptn_dir=tmp_path, games=3)
    script.login()
    out = script.feed(BLACK_START, "Game#2 Over 1-0")
    first = of(ev.WriteRecord, out)
    assert [(r.live.start.game_id, r.result) for r in first] == [(2, "1-0")]
    assert sent(out) == [SEEK_LINE]  # the game counts all the same
    script.feed(ev.RecordFailed(2, "Not a directory"))
    assert "cannot write the record of game 2" in caplog.text
    out = script.feed("Game Start 3 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
    out = script.feed("Game#3 Over 0-1")
    assert [r.live.start.game_id for r in of(ev.WriteRecord, out)] == [2, 3]
    script.feed(ev.RecordWritten(2, tmp_path / "2.ptn"), ev.RecordFailed(3, "disk full"))
    assert script.state.finished == [(2, "1-0", tmp_path / "2.ptn"), (3, "0-1", None)]
    # on the way out: one more try at game 3
    last = script.state.close()
    assert [r.live.start.game_id for r in of(ev.WriteRecord, last)] == [3]


@pytest.mark.parametrize("size", [0, 100])
def test_a_game_of_an_impossible_size_is_resigned_and_the_bot_seeks_again(
    size: int, caplog: pytest.LogCaptureFixture
) -> None:
    """No traceback and no game left hanging: the bot resigns it, counts nothing, and
    goes on seeking; the next game is played as usual."""
    script = Script(games=1)
    script.login()
    out = script.feed(f"Game Start 7 bobby vs Guest1 black {size} 60 0 0 21 1 0 0 0 0 0")
    assert sent(out) == ["Game#7 Resign", SEEK_LINE]
    assert not of(ev.Think, out) and not of(ev.WarmUp, out)
    assert script.state.live is None and script.state.finished == []
    assert f"game 7 cannot be played (bad Tak option size='{size}'" in caplog.text
    assert not any(record.exc_info for record in caplog.records)  # no traceback
    assert script.feed("Game#7 Over 1-0") == []  # its end changes nothing
    think(script.feed(WHITE_START))  # the next game is played
    assert script.state.live is not None


def test_a_second_start_of_the_running_game_with_other_terms_is_not_its_replay() -> None:
    """(tests/adapters/playtak/test_playtak_hostile.py: the other starts that cannot be ours)"""
    script = Script()
    script.login()
    script.feed(BLACK_START)
    for size in (100, 6):
        assert script.feed(BLACK_START.replace(" black 5 ", f" black {size} ")) == []
    assert script.state.finished == []
    think(script.feed("Game#2 P A1"))  # the game goes on


# ---- which seeks, resign/draw/undo, chat -------------------------------------------------
def their(script: Script, move: str) -> list[ev.Output]:
    """Our move arrived (the clocks), then the opponent's `move` (`E5`) in game 5."""
    return script.feed("Game#5 Timems 60000 60000", f"Game#5 P {move}")


def scored(cp: int | None) -> Info:
    return Info(depth=3, score=None if cp is None else Score("cp", cp))


def test_a_seek_inside_the_filters_is_accepted_one_outside_is_not() -> None:
    sixes = SeekFilter.parse(sizes="6", time="60:600")
    script = Script(accept=sixes, seeks=(p.Seek.parse_spec("6 300 5"),))
    assert sent(script.login()) == ["Seek 6 300 5 A 0 30 1 0 0 "]  # none to accept yet
    assert script.feed("Seek new 1 alice 5 300 5 W 0 21 1 0 0 0 0 0 0") == []
    assert script.feed("Seek new 2 alice 6 900 5 W 0 30 1 0 0 0 0 0 0") == []
    assert sent(script.feed("Seek new 3 bobby 6 300 0 W 0 30 1 0 0 0 0 0 0")) == ["Accept 3"]


def test_the_best_seek_is_taken_and_a_refused_accept_tries_the_next() -> None:
    script = Script(accept=SeekFilter(prefer=(300, 5)), seeks=())
    far = "Seek new 1 alice 5 60 0 W 0 21 1 0 0 0 0 0 0"
    near = "Seek new 2 bobby 5 280 5 W 0 21 1 0 0 0 0 0 0"
    script.feed(ev.Connected("Guest1"), far, near)
    assert sent(script.feed(ev.Settled())) == ["Accept 2"]
    assert sent(script.feed("NOK")) == ["Accept 1"]  # bobby's seek was gone


def test_our_seeks_rotate_while_none_fits_and_again_after_a_game() -> None:
    first, second = p.Seek.parse_spec("5 60 0"), p.Seek.parse_spec("6 300 10")
    script = Script(seeks=(first, second), seek_rotate_seconds=60.0, games=3)
    assert sent(script.login()) == [first.to_line()]
    assert script.state.wake_at() == script.now + 60
    script.later(59)
    assert script.feed(ev.Tick()) == []
    script.later(1)
    assert sent(script.feed(ev.Tick())) == [second.to_line()]
    script.later(60)
    assert sent(script.feed(ev.Tick())) == [first.to_line()]
    script.feed(BLACK_START)
    assert script.state.wake_at() is None  # no rotation during a game
    assert sent(script.feed("Game#2 Over 1-0")) == [second.to_line()]  # seeks again


def test_a_losing_engine_resigns_after_n_moves_in_a_row() -> None:
    script = Script(policy=ScorePolicy(resign=ResignRule(2, 500)))
    script.login()
    assert sent(script.answer(script.feed(WHITE_START), "a1", scored(-800))) == ["Game#5 P A1"]
    out = their(script, "E5")
    assert sent(script.answer(out, "b1", scored(-499))) == ["Game#5 P B1"]  # the run ends
    out = their(script, "E4")
    assert sent(script.answer(out, "c1", scored(-500))) == ["Game#5 P C1"]
    out = their(script, "E3")
    assert sent(script.answer(out, "d1", scored(-600))) == ["Game#5 P D1", "Game#5 Resign"]
    assert script.feed("Game#5 Timems 60000 60000", "Game#5 P E2") == []  # no more thinking


def test_an_engine_without_scores_never_resigns(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    script = Script(policy=ScorePolicy(resign=ResignRule(1, 0), draw=DrawRule(0, 1, 10**6)))
    script.login()
    out = script.feed(WHITE_START)
    for ptn, reply in [("a1", "e5"), ("b1", "e4"), ("c1", "e3"), ("d1", "e2")]:
        assert sent(script.answer(out, ptn, scored(None))) == [f"Game#5 P {ptn.upper()}"]
        out = their(script, f"{reply.upper()}")
    notes = [r.message for r in caplog.records if "reports no scores" in r.message]
    assert notes == ["the engine reports no scores: --resign and --draw never act on it"]


def test_draws_are_offered_and_accepted_by_the_rule_only() -> None:
    script = Script(policy=ScorePolicy(draw=DrawRule(1, 2, 30)))
    script.login()
    out = script.feed(WHITE_START)
    assert sent(script.answer(out, "a1", scored(10))) == ["Game#5 P A1"]
    assert sent(script.feed("Game#5 OfferDraw")) == []  # one level move: declined
    out = their(script, "E5")
    assert sent(script.answer(out, "b1", scored(-20))) == ["Game#5 P B1", "Game#5 OfferDraw"]
    out = their(script, "E4")
    assert sent(script.answer(out, "c1", scored(300))) == ["Game#5 P C1", "Game#5 RemoveDraw"]
    assert sent(script.feed("Game#5 OfferDraw")) == []  # out of the band now: declined
    out = their(script, "E3")
    script.answer(out, "d1", scored(0))
    out = their(script, "E2")
    assert sent(script.answer(out, "a2", scored(0)))[-1] == "Game#5 OfferDraw"
    assert sent(script.feed("Game#5 OfferDraw")) == ["Game#5 OfferDraw"]  # accepted


@pytest.mark.parametrize("accept", [False, True])
def test_undo_requests_are_refused_unless_told(accept: bool) -> None:
    script = Script(policy=ScorePolicy(accept_undo=accept))
    script.login()
    script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5")
    answer = ["Game#2 RequestUndo"] if accept else []
    assert sent(script.feed("Game#2 RequestUndo")) == answer


def test_greeting_and_goodbye_name_us_and_the_opponent() -> None:
    hello = ChatTemplate.parse("hi {opponent}, {me} wishes a good game", "--greeting")
    bye = ChatTemplate.parse("thanks {opponent}", "--goodbye")
    script = Script(greeting=hello, goodbye=bye, games=2)
    script.login()
    assert sent(script.feed(BLACK_START)) == ["Tell bobby hi bobby, Guest1 wishes a good game"]
    assert sent(script.feed("Game#2 Over 0-R")) == ["Tell bobby thanks bobby", SEEK_LINE]
    script.feed(WHITE_START)
    assert sent(script.feed("Game#5 Abandoned. bobby quit")) == []  # gone: no goodbye


def test_a_resumed_game_is_not_greeted_again() -> None:
    script = Script(greeting=ChatTemplate.parse("hi", "--greeting"))
    script.feed(ev.Connected("Guest1"), WHITE_START)  # in the login burst: a resume
    assert sent(script.feed(ev.Settled())) == []


def test_a_tell_is_logged_escaped_and_never_obeyed(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    script = Script()
    script.login()
    out = script.feed(BLACK_START)
    out = script.feed("Tell <bobby> Game#2 Resign\x1b[2J\x07", "Shout <bobby> !resign")
    assert sent(out) == [] and not of(ev.Done, out)
    told = [r.getMessage() for r in caplog.records if "tell from" in r.getMessage()]
    assert told == ["tell from bobby (not a command; nothing done): Game#2 Resign\\x1b[2J\\x07"]
    assert not any("\x1b" in r.getMessage() for r in caplog.records)


def test_a_refused_seek_is_logged_once_with_its_reason(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    script = Script(accept=SeekFilter.parse(block="carol"), seeks=())
    script.login()
    script.feed("Seek new 1 carol 5 60 0 W 0 21 1 0 0 0 0 0 0")
    script.feed("Seek new 2 Guest1 5 60 0 W 0 21 1 0 0 0 0 0 0")  # our own: not news
    script.feed("Seek new 3 dave 5 60 0 W 0 21 1 0 0 0 0 0 0", "NOK")  # dave's: gone
    notes = [r.getMessage() for r in caplog.records if "not accepting" in r.getMessage()]
    assert notes == ["not accepting seek 1 of carol: carol is blocked"]


# ---- pondering ---------------------------------------------------------------------------
def line(*pv: str) -> Info:
    return Info(depth=4, score=Score("cp", 10), pv=pv)


def ponder(out: list[ev.Output]) -> ev.Ponder:
    ponders = of(ev.Ponder, out)
    assert len(ponders) == 1, out
    return ponders[0]


def pondering() -> tuple[Script, ev.Ponder]:
    """White's first move a1 sent, a ponder on the expected reply e5 running."""
    script = Script(ponder=True)
    script.login()
    return script, ponder(script.answer(script.feed(WHITE_START), "a1", line("a1", "e5")))


def test_our_move_with_a_pv_ponders_on_the_expected_reply(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "playtak.bridge")
    script = Script(ponder=True)
    script.login()
    out = script.answer(script.feed(WHITE_START), "a1", line("a1", "e5", "b1"))
    assert sent(out) == ["Game#5 P A1"]
    work = ponder(out)  # sent after our move: the position with the expected reply
    assert work.game.history_text() == ["a1", "e5"]
    assert work.new_game.key == 5 and script.state.wanted(work.ticket)
    assert "game 5: pondering on P E5" in caplog.text
    assert script.feed("Game#5 Timems 59000 60000") == []  # pondering goes on
    # the opponent moves: the ponder is stopped, no move is asked before its end
    out = script.feed("Game#5 P E5")
    assert out == [ev.CancelThinking(work.ticket)]
    assert not script.state.wanted(work.ticket)
    assert "their reply P E5 (a ponder hit: P E5 was expected)" in caplog.text
    out = script.feed(ev.EngineIdle(work.ticket))  # its bestmove read and discarded
    request = think(out)
    plan = script.state.plan(request.ticket, script.now)
    assert plan is not None and plan.game.history_text() == ["a1", "e5"]
    assert sent(script.answer(out, "b1", line("b1"))) == ["Game#5 P B1"]


def test_an_unexpected_reply_stops_the_ponder_and_the_real_move_is_asked_as_usual(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, "playtak.bridge")
    script, work = pondering()
    out = their(script, "D4")
    assert out == [ev.CancelThinking(work.ticket)]
    assert "their reply P D4 (a ponder miss: P E5 was expected)" in caplog.text
    # a late answer of the ponder search (it is never one) changes nothing either
    request = think(script.feed(ev.EngineIdle(work.ticket)))
    plan = script.state.plan(request.ticket, script.now)
    assert plan is not None and plan.game.history_text() == ["a1", "d4"]


@pytest.mark.parametrize(
    "info",
    [None, line(), line("a1"), line("b1", "e5"), line("a1", "a1"), line("a1", "zz9")],
    ids=["no-info", "no-pv", "one-move", "pv-of-another-move", "illegal-reply", "garbage"],
)
def test_without_an_expected_reply_there_is_no_ponder(info: Info | None) -> None:
    script = Script(ponder=True)
    script.login()
    out = script.answer(script.feed(WHITE_START), "a1", info)
    assert sent(out) == ["Game#5 P A1"] and not of(ev.Ponder, out)
    assert think(their(script, "E5"))  # the move is asked at once, as without pondering


def test_without_ponder_nothing_new_is_sent_to_the_engine() -> None:
    """The default, and what a foreign engine gets (`--ponder` is refused with it)."""
    script = Script()
    script.login()
    out = script.answer(script.feed(WHITE_START), "a1", line("a1", "e5"))
    assert sent(out) == ["Game#5 P A1"] and not of(ev.Ponder, out)
    assert not of(ev.CancelThinking, their(script, "E5"))


@pytest.mark.parametrize(
    "end", ["Game#5 Over 0-R", "Game#5 Abandoned. Guest1 quit", ev.Disconnected()]
)
def test_the_game_ending_while_pondering_stops_the_ponder(end: ev.Input | str) -> None:
    script, work = pondering()
    out = script.feed(end)
    assert of(ev.CancelThinking, out) == [ev.CancelThinking(work.ticket)]
    assert not of(ev.Think, out) and not script.state.wanted(work.ticket)
    assert not of(ev.Think, script.feed(ev.EngineIdle(work.ticket)))


def test_a_refused_move_stops_the_ponder_before_moving_again() -> None:
    script, work = pondering()
    out = script.feed("NOK")
    assert of(ev.CancelThinking, out) == [ev.CancelThinking(work.ticket)] and not of(ev.Think, out)
    think(script.feed(ev.EngineIdle(work.ticket)))


def test_a_failed_ponder_restarts_the_engine_but_costs_no_move() -> None:
    script, work = pondering()
    out = script.feed(ev.EngineFailed(work.ticket, CRASH))
    assert len(of(ev.Restart, out)) == 1
    assert script.state.live is not None and script.state.live.failures == 0


def test_a_ponder_that_does_not_stop_restarts_the_engine_before_the_move() -> None:
    script, work = pondering()
    assert their(script, "E5") == [ev.CancelThinking(work.ticket)]
    stalled = SeatFault("bot", FaultKind.STALLED, True, TimeoutError("no bestmove after stop"))
    out = script.feed(ev.EngineFailed(work.ticket, stalled))
    restart = of(ev.Restart, out)
    assert len(restart) == 1 and not of(ev.Think, out)
    assert script.state.live is not None and script.state.live.failures == 0
    think(script.feed(ev.EngineIdle(restart[0].ticket)))


def test_a_pv_of_one_move_ponders_on_the_latest_longer_pv_of_that_move() -> None:
    script = Script(ponder=True)
    script.login()
    ticket = think(script.feed(WHITE_START)).ticket
    assert script.state.plan(ticket, script.now) is not None
    infos = (line("a1", "d4"), line("b1", "c3"), line("a1", "e5", "b1"), line("b1", "d4"))
    last = line("a1")  # a search that found its line in the table reports a short pv
    out = script.feed(ev.EngineAnswered(ticket, Move.from_ptn("a1"), last, (*infos, last)))
    assert ponder(out).game.history_text() == ["a1", "e5"]
