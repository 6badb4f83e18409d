"""The live game's phases with scripted events (pure: no socket, no process, no clock),
the transitions a phase does not allow, and the state's outputs as the live view and the
log receive them."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest

from adapters.playtak import bridge_events as ev
from adapters.playtak import protocol as p
from adapters.playtak.live_game import LiveGame, rules_game
from adapters.playtak.live_phase import (
    AwaitingReplay,
    MoveSent,
    PhaseError,
    Playing,
    Replaying,
)
from adapters.playtak.live_view import BridgeWatch
from adapters.playtak.notation import ServerMove
from adapters.stream.events import (
    EngineInfo,
    Event,
    GameOver,
    GameStarted,
    MovePlayed,
    Standings,
)
from rules.game import GameError
from rules.tak.move import Move
from tei.protocol import Info, Score
from tests.adapters.playtak.test_playtak_bridge_state import (
    BLACK_START,
    WHITE_START,
    Script,
    sent,
    think,
)

WALL = datetime(2026, 3, 4, tzinfo=UTC)


def live_game(start: str = WHITE_START, late: bool = False) -> LiveGame:
    event = p.parse_server_line(start)
    assert isinstance(event, p.GameStart)
    return LiveGame.begin(event, 0, rules_game(event), 0.0, WALL, late)


def a(ptn: str) -> Move:
    return Move.from_ptn(ptn)


# ---- the phases, one transition at a time --------------------------------------------
def test_our_move_is_sent_then_confirmed_by_the_clocks() -> None:
    live = live_game()
    assert live.phase == Playing() and live.may_think
    assert live.we_played(a("a1"), "{0.1s}") == "P A1"
    assert live.phase == MoveSent("P A1") and live.move_sent == "P A1"
    assert not live.may_think  # nothing is thought while the move is in flight
    live.set_clocks(59_000, 60_000, 1.0, WALL)
    assert live.phase == Playing() and live.move_sent is None
    assert live.moves == ["P A1"] and live.comments == ["{0.1s}"]


def test_a_refused_move_is_taken_back_and_never_played_again_in_that_position() -> None:
    live = live_game()
    live.we_played(a("a1"), None)
    assert live.refused() == "P A1"
    assert live.phase == Playing() and live.moves == [] and live.comments == []
    assert live.rejected == {"P A1"} and live.failures == 1
    live.server_played(ServerMove.parse("P E5"))  # (white again by a take-back: any move)
    assert live.rejected == set()  # a new position: nothing refused in it


def test_a_lost_connection_waits_for_the_replay_then_the_resume() -> None:
    live = live_game()
    live.we_played(a("a1"), None)
    live.lost()
    assert live.phase == AwaitingReplay() and live.awaiting_replay and live.replaying
    assert live.move_sent is None  # the move in flight is no longer awaited
    live.replayed(rules_game(live.start))
    assert live.phase == Replaying() and live.moves == [] and live.comments == []
    live.server_played(ServerMove.parse("P A1"))  # the replay rebuilds the game
    assert live.moves == ["P A1"] and not live.may_think
    live.resumed()
    assert live.phase == Playing()


def test_a_game_joined_late_is_unconfirmed_until_resumed() -> None:
    live = live_game(late=True)
    assert live.phase == Replaying(unconfirmed=True) and live.unconfirmed and live.joined_late
    live.lost()  # a reconnect before the resume keeps it unconfirmed
    assert live.phase == AwaitingReplay(unconfirmed=True)
    live.replayed(rules_game(live.start))
    assert live.phase == Replaying(unconfirmed=True)
    live.resumed()
    assert live.phase == Playing() and not live.unconfirmed


def test_the_move_texts_come_from_the_game() -> None:
    live = live_game(BLACK_START)
    live.server_played(ServerMove.parse("P A1"))
    live.we_played(a("e5"), "{ours}")
    live.set_clocks(60_000, 59_000, 1.0, WALL)
    live.server_played(ServerMove.parse("M E5 D5 1"))  # white moves its stone on e5
    assert (
        live.moves
        == ["P A1", "P E5", "M E5 D5 1"]
        == [ServerMove.from_move(action).to_text() for action in live.game.history]
    )
    assert live.comments == [None, "{ours}", None]
    live.take_back()  # an agreed undo
    assert live.moves == ["P A1", "P E5"] and live.comments == [None, "{ours}"]


# ---- the transitions a phase does not allow --------------------------------------------
def test_a_refusal_without_a_move_sent_is_an_error_naming_the_phase() -> None:
    live = live_game()
    with pytest.raises(PhaseError, match=r"game 5: a refusal in Playing\(\), no move sent"):
        live.refused()
    live.lost()
    with pytest.raises(PhaseError, match=r"a refusal in AwaitingReplay"):
        live.refused()
    assert live.failures == 0 and live.rejected == set()


@pytest.mark.parametrize(
    ("setup", "why"),
    [
        (lambda live: live.we_played(a("a1"), None), r"in MoveSent\(move='P A1'\)"),
        (lambda live: live.lost(), r"in AwaitingReplay\(unconfirmed=False\)"),
        (lambda live: live.replayed(rules_game(live.start)), r"in Replaying"),
        (lambda live: live.resign(), "we resigned"),
    ],
    ids=["move-sent", "awaiting-replay", "replaying", "resigned"],
)
def test_our_move_outside_playing_is_an_error_and_changes_nothing(setup: object, why: str) -> None:
    live = live_game()
    setup(live)  # type: ignore[operator]
    phase, moves = live.phase, live.moves
    with pytest.raises(PhaseError, match=f"our move 'b1' in game 5: {why}"):
        live.we_played(a("b1"), None)
    assert (live.phase, live.moves) == (phase, moves)


def test_our_move_on_their_turn_is_an_error() -> None:
    live = live_game(BLACK_START)
    with pytest.raises(PhaseError, match="our move 'e5' in game 2: not our turn"):
        live.we_played(a("e5"), None)
    assert live.moves == []


def test_a_take_back_of_nothing_and_a_misfit_server_move_change_nothing() -> None:
    live = live_game()
    with pytest.raises(PhaseError, match="game 5: no move to take back"):
        live.take_back()
    live.server_played(ServerMove.parse("P A1"))
    with pytest.raises(GameError):
        live.server_played(ServerMove.parse("P A1"))  # the square is taken
    assert live.moves == ["P A1"] and live.comments == [None]


def test_a_resume_outside_a_replay_and_a_second_resign_change_nothing() -> None:
    live = live_game()
    live.we_played(a("a1"), None)
    live.resumed()
    assert live.phase == MoveSent("P A1")
    assert live.resign() and not live.resign()  # sent once
    assert live.resigned and not live.may_think


# ---- the state's outputs: logged and shown by whoever receives them -------------------
def test_feed_logs_nothing_itself_its_log_lines_are_outputs(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    script = Script()
    outputs = []
    for item in (ev.Connected("Guest1"), ev.Settled(), p.parse_server_line(WHITE_START)):
        outputs += script.state.feed(item, script.now, script.wall)
    assert caplog.records == []
    said = [o.text for o in outputs if isinstance(o, ev.Log)]
    assert said == [
        "seeking: Seek 5 60 0 A 0 21 1 0 0 ",
        "game 5: Guest1 vs bobby, 5x5, 60+0 s, komi 0, we are white",
    ]


def test_the_live_view_publishes_the_outputs_it_is_handed() -> None:
    """A plain subscriber: the game's start, each move (with our engine's info), a move
    taken back (the game drawn again), and the end, in the order of the outputs."""
    heard: list[Event] = []
    script = Script()
    script.watch = BridgeWatch(heard.append, "here", 1)
    script.login()
    script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5", Info(depth=3))
    script.feed("Game#2 Timems 60000 59000", "Game#2 Undo", "Game#2 Over 0-1")
    kinds = [type(e).__name__ for e in heard if not isinstance(e, Standings)]
    assert kinds == [
        "GameStarted",
        "MovePlayed",
        "EngineInfo",
        "MovePlayed",
        "GameStarted",
        "GameOver",
    ]
    started = [e for e in heard if isinstance(e, GameStarted)]
    assert [s.moves for s in started] == [(), ("a1",)]  # drawn again after the undo
    moves = [(m.seat, m.move) for m in heard if isinstance(m, MovePlayed)]
    assert moves == [(0, "a1"), (1, "e5")]
    [info] = [e for e in heard if isinstance(e, EngineInfo)]
    assert (info.seat, info.depth) == (1, 3)
    [over] = [e for e in heard if isinstance(e, GameOver)]
    assert over.result == "0-1" and over.plies == 1


def test_a_replay_is_shown_again_from_its_start() -> None:
    script = Script()
    script.login()
    script.answer(script.feed(WHITE_START), "a1")
    script.feed(ev.Disconnected(), ev.Connected("Guest1"), WHITE_START, "Game#5 P A1")
    shown = [type(o).__name__ for o in script.shown]
    assert shown == ["ShowGame", "ShowMove", "ShowGame", "ShowMove"]


def test_an_answer_is_played_whether_or_not_its_plan_was_asked() -> None:
    """`plan` is a query: the game's length is recorded when the move is asked for."""
    script = Script()
    script.login()
    ticket = think(script.feed(WHITE_START)).ticket
    assert sent(script.feed(ev.EngineAnswered(ticket, a("a1")))) == ["Game#5 P A1"]


def test_an_answer_for_a_position_left_meanwhile_is_dropped() -> None:
    script = Script()
    script.login()
    out = script.answer(script.feed(BLACK_START, "Game#2 P A1"), "e5")
    out = script.feed("Game#2 Timems 60000 59000", "Game#2 P B1")
    ticket = think(out).ticket
    assert script.state.plan(ticket, script.now) is not None
    script.feed("Game#2 P C1")  # a server that moves for us: the game moved on
    out = script.feed(ev.EngineAnswered(ticket, a("d4"), Info(score=Score("cp", 1))))
    assert sent(out) == []
