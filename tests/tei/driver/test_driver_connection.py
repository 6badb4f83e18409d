"""The sans-IO engine connection, driven by scripted transcripts (no process)."""

from __future__ import annotations

import pytest

from rules.registry import new_game
from tei.driver import MAX_COUNT, MAX_TIME_MS, IllegalMove, Limits, MalformedMove
from tei.driver.connection import (
    HANDSHAKE,
    IDLE,
    SEARCHING,
    STOPPING,
    EngineConnection,
    Handshaken,
    Other,
    Ready,
    SearchEnded,
    SearchInfo,
    Violation,
    build_go,
)
from tei.driver.engine_options import OptionRefused
from tei.game_rules import TeiSettings
from tei.protocol import Go, GuiMessage, Score, SetOption, TeiNewGame

HANDSHAKE_LINES = [
    "id name Scripted",
    "id author Tests",
    "option name HalfKomi type spin default 0 min 0 max 8",
    "option name Hash type spin default 16 min 1 max 1024",
    "option name Style type combo default Solid var Solid var Wild",
    "option name Game type combo default tak var tak var trike",
    "teiok",
]


def shaken(lines: list[str] = HANDSHAKE_LINES) -> EngineConnection:
    conn = EngineConnection("scripted")
    assert conn.handshake() == "tei"
    events = [conn.receive(line) for line in lines]
    assert isinstance(events[-1], Handshaken)
    return conn


def send_all(conn: EngineConnection, messages: list[GuiMessage]) -> list[str]:
    for message in messages:
        conn.sent(message)
    return [m.to_line() for m in messages]


def test_handshake_records_ids_and_declarations() -> None:
    conn = EngineConnection("scripted")
    assert conn.state == HANDSHAKE
    events = [conn.receive(line) for line in HANDSHAKE_LINES]
    assert all(isinstance(e, Other) for e in events[:-1])
    assert conn.state == IDLE
    assert (conn.id_name, conn.id_author) == ("Scripted", "Tests")
    assert set(conn.options) == {"HalfKomi", "Hash", "Style", "Game"}
    assert conn.games == frozenset({"tak", "trike"})
    assert conn.handshake_lines == HANDSHAKE_LINES
    assert conn.value("hash") == "16"


def test_a_malformed_line_is_noted_not_fatal() -> None:
    conn = EngineConnection("scripted")
    event = conn.receive("option name Broken")
    assert isinstance(event, Other) and event.message is None
    assert event.note is not None and "Broken" in event.note
    assert conn.problems == [event.note]


def test_one_validator_for_options() -> None:
    conn = shaken()
    assert conn.option_refusal("hash", "64") is None
    assert "takes 1..1024, not '4096'" in (conn.option_refusal("Hash", "4096") or "")
    assert "takes one of Solid, Wild, not 'Calm'" in (conn.option_refusal("Style", "Calm") or "")
    assert "not declared" in (conn.option_refusal("Threads", "2") or "")
    lines = send_all(conn, list(conn.setoption_messages({"style": "wild", "Hash": "16"})))
    assert lines == ["setoption name Style value Wild"]  # Hash is 16 already
    assert conn.value("Style") == "Wild"
    with pytest.raises(OptionRefused, match="Hash"):
        conn.setoption_messages({"Style": "Solid", "Hash": "0"})


def test_new_game_messages_and_refusals() -> None:
    conn = shaken()
    messages = conn.new_game_messages(conn.settings_for("tak", {"size": "6", "halfkomi": "4"}))
    assert send_all(conn, messages) == [
        "setoption name Game value tak",
        "setoption name HalfKomi value 4",
        "teinewgame 6",
    ]
    assert conn.generation == 1
    assert conn.refusal("tak", {"halfkomi": "9"}) is not None
    assert conn.refusal("traxit", {}) is not None
    assert conn.refusal("trike", {"size": "9"}) is None
    legacy = shaken(["id name Old", "teiok"])
    assert "HalfKomi" in (legacy.refusal("tak", {"halfkomi": "4"}) or "")
    assert send_all(legacy, legacy.new_game_messages(legacy.settings_for("tak", {}))) == [
        "teinewgame 5"
    ]


def test_new_game_is_needed_when_game_or_rules_change_and_not_otherwise() -> None:
    conn = shaken()
    six = {"size": "6", "halfkomi": "4"}
    game = new_game("tak", six)
    assert conn.needs_new_game(game, six)  # nothing sent yet
    send_all(conn, conn.new_game_messages(conn.settings_for("tak", six)))
    assert not conn.needs_new_game(game, six)
    game.play_text("a1")
    assert not conn.needs_new_game(game, six)  # the same game, one ply on
    assert not conn.needs_new_game(game.copy(), six)  # a copy continues it
    assert not conn.needs_new_game(game)  # rules not given: the last ones
    assert not conn.needs_new_game(game, {"HalfKomi": "4", "SIZE": "6"})
    assert not conn.needs_new_game(game, {"komi": "2", "size": "6"})  # the same rules
    assert not conn.needs_new_game(game, {**six, "repetition": "true"})  # not told engines
    assert conn.needs_new_game(game, {"size": "6"})  # komi changed
    assert conn.needs_new_game(game, {"size": "six"})  # cannot be told: the new game refuses
    assert conn.needs_new_game(new_game("trike"))  # another game
    assert conn.settings_for(new_game("tak", six)) == TeiSettings.of("tak", six)
    assert conn.settings_for(new_game("trike", {"size": "9"})).size == 9
    assert conn.generation == 1


def test_a_game_key_tells_one_game_from_the_next_of_the_same_rules() -> None:
    conn = shaken()
    six = {"size": "6"}
    assert conn.needs_new_game("tak", six, game_key=1)  # nothing sent yet
    send_all(conn, conn.new_game_messages(conn.settings_for("tak", six), game_key=1))
    assert not conn.needs_new_game("tak", six, game_key=1)
    assert conn.needs_new_game("tak", six)  # no key is another key
    assert conn.needs_new_game("tak", six, game_key=2)  # the next game, same rules
    assert conn.needs_new_game("tak", {"size": "5"}, game_key=1)  # rules changed
    assert conn.needs_new_game("trike", six, game_key=1)  # game changed
    # the key names the game: another `Game` object (a copy each move) continues it
    assert not conn.needs_new_game(new_game("tak", six), six, game_key=1)
    assert conn.generation == 1


def test_the_engine_is_told_only_when_the_new_game_is_sent() -> None:
    conn = shaken()
    six = {"size": "6"}
    messages = conn.new_game_messages(conn.settings_for("tak", six), game_key=1)
    assert conn.told is None and conn.needs_new_game("tak", six, game_key=1)
    send_all(conn, messages[:-1])  # the send fails before `teinewgame`
    assert conn.needs_new_game("tak", six, game_key=1)
    assert conn.generation == 0
    send_all(conn, conn.new_game_messages(conn.settings_for("tak", six), game_key=1))
    assert not conn.needs_new_game("tak", six, game_key=1)
    assert conn.generation == 1
    conn.new_game_messages(
        conn.settings_for("tak", {"size": "5"}), game_key=2
    )  # planned, never sent
    assert conn.needs_new_game("tak", six, game_key=1)  # the old belief is gone too


def test_search_states_and_info() -> None:
    conn = shaken()
    game = new_game("tak", {"size": "5"})
    position, go, notes = conn.search_messages(game, Limits(movetime=100))
    assert (position.to_line(), go.to_line(), notes) == (
        "position startpos",
        "go movetime 100",
        [],
    )
    send_all(conn, [position, go])
    assert conn.state == SEARCHING
    info = conn.receive("info depth 3 wobble 3 score cp 12 nodes 900 pv a1 b1")
    assert isinstance(info, SearchInfo) and info.current
    assert info.message is not None and info.message.score == Score("cp", 12)
    assert info.note is not None and "wobble" in info.note
    assert conn.receive("info depth 4 wobble 5").note is None  # each word noted once
    stop = conn.stop_message()
    assert stop is not None
    conn.sent(stop)
    assert conn.state == STOPPING
    assert conn.stop_message() is None
    end = conn.receive("bestmove a1")
    assert isinstance(end, SearchEnded) and end.current and end.bestmove is not None
    assert conn.state == IDLE
    assert isinstance(conn.receive("readyok"), Ready)


def test_a_bestmove_while_no_search_runs_is_a_violation() -> None:
    conn = shaken()
    conn.sent("go movetime 10")
    assert isinstance(conn.receive("bestmove a1"), SearchEnded)
    second = conn.receive("bestmove b1")
    assert isinstance(second, Violation)
    assert second.line == "bestmove b1" and "no search runs" in second.why
    assert conn.state == IDLE


def test_an_abandoned_search_ends_before_the_current_one() -> None:
    conn = shaken()
    conn.sent("go infinite")
    conn.sent("stop")
    conn.sent("go movetime 10")
    assert conn.state == SEARCHING
    old_info = conn.receive("info depth 9 pv c3")
    assert isinstance(old_info, SearchInfo) and not old_info.current
    old = conn.receive("bestmove c3")
    assert isinstance(old, SearchEnded) and not old.current
    new = conn.receive("bestmove a1")
    assert isinstance(new, SearchEnded) and new.current


def test_a_malformed_bestmove_ends_the_search() -> None:
    conn = shaken()
    conn.sent(Go(movetime=10))
    end = conn.receive("bestmove")
    assert isinstance(end, SearchEnded) and end.bestmove is None and end.why
    assert conn.state == IDLE


def test_the_one_bestmove_check() -> None:
    conn = shaken()
    game = new_game("tak", {"size": "5"})
    action, text = conn.check_bestmove(game, "bestmove c3")
    assert text == "c3"
    game.play(action)
    assert game.history_text() == ["c3"]
    with pytest.raises(IllegalMove, match="c3"):
        conn.check_bestmove(game, "bestmove c3")
    with pytest.raises(MalformedMove, match="zz9"):
        conn.check_bestmove(game, "bestmove zz9")
    with pytest.raises(MalformedMove, match="no move"):
        conn.check_bestmove(game, "bestmove")


def test_go_sends_clock_fields_and_clamps_times() -> None:
    limits = Limits(wtime=-50, btime=3000, winc=0, binc=10**20)
    go, notes = build_go(limits, seat=0, players=2)
    # the wire's bounds written out: a signed 32-bit millisecond count, a signed 64-bit count
    assert (MAX_TIME_MS, MAX_COUNT) == (2_147_483_647, 9_223_372_036_854_775_807)
    assert go == Go(wtime=0, btime=3000, winc=0, binc=2_147_483_647)
    assert notes == ["wtime -50 clamped to 0", f"binc {10**20} clamped to 2147483647"]
    huge, notes = build_go(Limits(movetime=10**29, nodes=10**30, depth=0), 0, 2)
    assert huge == Go(movetime=2_147_483_647, nodes=9_223_372_036_854_775_807, depth=1)
    assert len(notes) == 3


def test_clamped_limits_are_reported_with_the_search() -> None:
    conn = shaken()
    game = new_game("tak", {"size": "5"})
    _, go, notes = conn.search_messages(game, Limits(wtime=200000000000000, btime=1))
    assert go.to_line() == f"go wtime {MAX_TIME_MS} btime 1"
    assert notes == [f"wtime 200000000000000 clamped to {MAX_TIME_MS}"]


def test_go_uses_what_the_caller_asks() -> None:
    assert build_go(Limits(movetime=200), 0, 2)[0] == Go(movetime=200)
    assert build_go(Limits(depth=3), 1, 2)[0] == Go(depth=3)
    assert build_go(Limits(nodes=1000), 1, 2)[0] == Go(nodes=1000)
    assert build_go(Limits(), 0, 2)[0] == Go(infinite=True)


def test_more_than_two_seats_get_the_acting_clock_in_both_fields() -> None:
    limits = Limits(wtime=5000, btime=7000, winc=10, binc=20)
    assert build_go(limits, seat=1, players=3)[0] == Go(wtime=7000, btime=7000, winc=20, binc=20)
    assert build_go(limits, seat=2, players=3)[0] == Go(wtime=5000, btime=5000, winc=10, binc=10)


def test_raw_lines_move_the_state_too() -> None:
    conn = shaken()
    conn.sent("setoption name hash value 32")
    assert conn.value("Hash") == "32"
    conn.sent("teinewgame 6")
    assert conn.generation == 1
    conn.sent("go")
    assert conn.state == SEARCHING
    assert isinstance(conn.receive("teiok"), Other)  # a second block after the handshake
    conn.sent(SetOption("Style", "Wild"))
    conn.sent(TeiNewGame(5))
    assert conn.generation == 2
