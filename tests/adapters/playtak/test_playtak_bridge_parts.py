"""The bridge state's sans-IO parts on their own: the lobby (SeekDesk), the engine work
and its tickets (EngineWork), the finished games and their records (RecordShelf).
BridgeState's scripted tests drive them together; these pin each part's contract."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from adapters.playtak import protocol as p
from adapters.playtak.bridge_events import CancelThinking, RecordFailed, RecordWritten
from adapters.playtak.engine_work import EngineWork
from adapters.playtak.live_game import LiveGame, rules_game
from adapters.playtak.record_shelf import RecordShelf
from adapters.playtak.seek_desk import SeekDesk
from adapters.playtak.seek_filter import SeekFilter

START = "Game Start 5 5 Guest1 vs alice white 60 0 21 1 0 0"


def seek_of(line: str) -> p.SeekInfo:
    event = p.parse_server_line(line)
    assert isinstance(event, p.SeekNew)
    return event.seek


def live_game(game_id: int = 5) -> LiveGame:
    event = p.parse_server_line(START.replace("Start 5", f"Start {game_id}"))
    assert isinstance(event, p.GameStart)
    return LiveGame.begin(event, 0, rules_game(event), 0.0, datetime(2026, 1, 2, tzinfo=UTC), False)


def never(size: int, komi: int) -> str | None:
    return None


def test_the_desk_posts_our_seeks_in_turn_and_wakes_when_a_turn_is_over() -> None:
    ours = (p.Seek.parse_spec("5 60 0 W"), p.Seek.parse_spec("6 60 0 B"))
    desk = SeekDesk(ours, None, rotate_seconds=30.0)
    assert desk.next_command("me", 10.0, never) == ours[0]
    assert desk.next_command("me", 11.0, never) is None  # posted already
    assert desk.wake_at(waiting=True) == 40.0
    assert desk.wake_at(waiting=False) is None  # in a game
    assert desk.post(40.0) == ours[1]
    assert desk.post(70.0) == ours[0]
    desk.reconnected()  # the server dropped our seek
    assert desk.posted is None and desk.next_command("me", 80.0, never) == ours[1]


def test_the_desk_accepts_the_best_acceptable_seek_and_forgets_a_refused_one() -> None:
    desk = SeekDesk((), SeekFilter(allow=frozenset({"alice"})), rotate_seconds=30.0)
    desk.seen(seek_of("Seek new 1 carol 5 60 0 W 0 21 1 0 0 0 0 0 0"))
    assert desk.next_command("me", 0.0, never) is None  # carol is not allowed
    desk.seen(seek_of("Seek new 2 alice 5 60 0 W 4 21 1 0 0 0 0 0 0"))
    no_komi = lambda size, komi: "no komi" if komi else None  # noqa: E731
    assert desk.next_command("me", 0.0, no_komi) is None  # our engine lacks komi
    assert desk.next_command("me", 0.0, never) == p.Accept(2)
    assert desk.next_command("me", 0.0, never) is None  # waiting on the answer
    assert desk.refused() and 2 not in desk.open
    assert not desk.refused()  # a stray NOK: nothing was pending


def test_engine_work_runs_one_ticket_at_a_time_and_cancels_once() -> None:
    work, live, other = EngineWork(), live_game(5), live_game(6)
    first = work.start(live)
    assert work.wanted(first, live) and not work.wanted(first, other)
    assert work.cancel() == [CancelThinking(first)]
    assert work.cancel() == []  # once
    assert not work.wanted(first, live)
    second = work.start(live, expected="a2")
    assert second == first + 1 and work.current is not None and work.current.pondering
    assert work.end(first) is None  # an old ticket ends nothing
    ended = work.end(second)
    assert ended is not None and ended.ticket == second and work.current is None


def test_the_shelf_keeps_a_record_whose_write_failed_for_the_next_try(tmp_path: Path) -> None:
    shelf = RecordShelf(keep=True)
    first, second = live_game(5), live_game(6)
    asked = shelf.finish(first, "R-0")
    assert [(w.live.start.game_id, w.result) for w in asked] == [(5, "R-0")]
    shelf.failed(RecordFailed(5, "disk full"))
    assert shelf.unwritten == [(first, "R-0")]
    asked = shelf.finish(second, "0-F")  # the next game asks for both
    assert [w.live.start.game_id for w in asked] == [5, 6]
    shelf.written(RecordWritten(5, tmp_path / "5.ptn"))
    assert shelf.finished == [(5, "R-0", tmp_path / "5.ptn"), (6, "0-F", None)]
    assert RecordShelf(keep=False).finish(first, "R-0") == []
