"""Each way an engine can misbehave gives its own error, with the evidence in it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import trio

from tei.driver import (
    EngineOptionError,
    EngineProtocolError,
    EngineStalled,
    EngineTerminated,
    EngineTimeout,
    IllegalMove,
    Limits,
    MalformedMove,
    Transcript,
    open_engine,
)
from tei.transcript import NOTE, TO_ENGINE
from tests.support.engines.procs import alive, fake, fake_processes
from tests.support.engines.toy_game import PlaceGame

pytestmark = pytest.mark.process

CLOCK = Limits(wtime=1000, btime=1000)


@pytest.fixture(autouse=True)
def _no_engine_left() -> Iterator[None]:
    yield
    assert fake_processes() == []


def one_move_game() -> PlaceGame:
    game = PlaceGame(5)
    game.play("c3")
    return game


async def test_engine_that_exits_at_start_is_terminated_with_code_and_stderr() -> None:
    with pytest.raises(EngineTerminated) as caught:
        async with open_engine(fake("exit-at-start")):
            pass
    assert caught.value.exit_code == 2
    assert "cannot start" in str(caught.value)


async def test_missing_program_is_terminated() -> None:
    with pytest.raises(EngineTerminated, match="no-such-engine"):
        async with open_engine(["/nonexistent/no-such-engine"]):
            pass


async def test_no_teiok_stalls_the_handshake() -> None:
    with pytest.raises(EngineStalled, match="teiok"):
        async with open_engine(fake("no-teiok"), handshake_timeout=0.5):
            pass


async def test_mute_engine_stalls_ping() -> None:
    async with open_engine(fake("mute")) as engine:
        with pytest.raises(EngineStalled, match="readyok"):
            await engine.ping(timeout=0.3)


async def test_crash_mid_search_reports_exit_code() -> None:
    async with open_engine(fake("crash")) as engine:
        await engine.new_game("tak", {"size": "5"})
        with pytest.raises(EngineTerminated) as caught:
            await engine.play(one_move_game(), CLOCK, deadline=trio.current_time() + 30)
        assert caught.value.exit_code == 3
        assert any("crashed mid-search" in line for line in caught.value.stderr)


async def test_illegal_move_carries_the_line() -> None:
    async with open_engine(fake("illegal")) as engine:
        await engine.new_game("tak", {"size": "5"})
        with pytest.raises(IllegalMove) as caught:
            await engine.play(one_move_game(), CLOCK, deadline=trio.current_time() + 30)
        assert caught.value.line == "bestmove c3"


@pytest.mark.parametrize(
    ("mode", "line"), [("unparsable", "bestmove ???"), ("empty-bestmove", "bestmove")]
)
async def test_malformed_move_carries_the_line(mode: str, line: str) -> None:
    async with open_engine(fake(mode)) as engine:
        await engine.new_game("tak", {"size": "5"})
        with pytest.raises(MalformedMove) as caught:
            await engine.play(one_move_game(), CLOCK, deadline=trio.current_time() + 30)
        assert caught.value.line == line


async def test_garbage_lines_are_skipped() -> None:
    transcript = Transcript()
    async with open_engine(fake("garbage"), transcript=transcript) as engine:
        await engine.new_game("tak", {"size": "5"})
        result = await engine.play(one_move_game(), CLOCK, deadline=trio.current_time() + 30)
        assert result.text == "a1"
        assert result.info is not None and result.info.score is not None
        # the unknown info field is skipped and logged once, however often it comes
        result = await engine.play(one_move_game(), CLOCK, deadline=trio.current_time() + 30)
        assert result.text == "a1"
        bogus = [p for p in engine.problems if "'bogus'" in p]
        assert len(bogus) == 1 and "info depth 1 bogus 7" in bogus[0]
    notes = [e.line for e in transcript if e.direction == NOTE]
    assert sum("'bogus'" in line for line in notes) == 1


async def test_silent_engine_times_out_after_stop_and_grace() -> None:
    transcript = Transcript()
    async with open_engine(fake("silent"), transcript=transcript) as engine:
        await engine.new_game("tak", {"size": "5"})
        with pytest.raises(EngineTimeout):
            await engine.play(one_move_game(), CLOCK, deadline=trio.current_time() + 0.3, grace=0.3)
    assert "stop" in [e.line for e in transcript if e.direction == TO_ENGINE]


async def test_slow_engine_answers_stop_within_grace() -> None:
    transcript = Transcript()
    async with open_engine(fake("slow", "--delay", "30"), transcript=transcript) as engine:
        await engine.new_game("tak", {"size": "5"})
        # the grace is far below the engine's own 30 s: only an answer to `stop` fits in it
        result = await engine.play(
            one_move_game(), CLOCK, deadline=trio.current_time() + 0.3, grace=10
        )
        assert result.text == "a1"
    assert "stop" in [e.line for e in transcript if e.direction == TO_ENGINE]


async def test_open_ended_search_needs_a_deadline() -> None:
    async with open_engine(fake()) as engine:
        with pytest.raises(ValueError, match="deadline"):
            await engine.play(one_move_game(), Limits(infinite=True))


async def test_infinite_search_is_stopped_at_the_deadline() -> None:
    async with open_engine(fake()) as engine:
        await engine.new_game("tak", {"size": "5"})
        result = await engine.play(
            one_move_game(), Limits(), deadline=trio.current_time() + 0.2, grace=30
        )
        assert result.text == "a1"


async def test_undeclared_option_is_refused_and_nothing_sent() -> None:
    transcript = Transcript()
    argv = fake("strict", "--options", "Hash spin 16 1 64")
    async with open_engine(argv, transcript=transcript) as engine:
        with pytest.raises(EngineOptionError, match="Threads"):
            await engine.configure({"Hash": "32", "Threads": "2"})
        with pytest.raises(EngineOptionError, match=r"takes 1\.\.64, not '128'"):
            await engine.configure({"Hash": "128"})
        await engine.configure({"hash": "32"})
        await engine.configure({"Hash": "32"})
        assert engine.returncode is None
    lines = [e.line for e in transcript if e.direction == TO_ENGINE]
    assert [line for line in lines if line.startswith("setoption")] == [
        "setoption name Hash value 32"
    ]


@pytest.mark.parametrize(
    ("options", "game", "rules", "refused"),
    [
        ((), "tak", {"halfkomi": "4"}, "HalfKomi"),
        (("HalfKomi combo 0 0 4",), "tak", {"halfkomi": "2"}, "HalfKomi"),
        (("HalfKomi spin 0 0 8",), "tak", {"halfkomi": "9"}, "HalfKomi"),
        ((), "trike", {}, "Game"),
        ((), "tak", {"flats": "30"}, "Flats"),
        # rules the game itself does not take: named before the engine is asked
        ((), "tak", {"size": "six"}, "size"),
        ((), "tak", {"players": "2"}, "players"),
        ((), "chess", {}, "Game"),
    ],
)
async def test_rules_the_engine_cannot_play_are_refused_up_front(
    options: tuple[str, ...], game: str, rules: dict[str, str], refused: str
) -> None:
    transcript = Transcript()
    argv = fake("strict", *[arg for option in options for arg in ("--options", option)])
    async with open_engine(argv, transcript=transcript) as engine:
        mark = transcript.count
        with pytest.raises(EngineOptionError) as caught:
            await engine.new_game(game, rules)
        assert caught.value.name == refused
        assert [e for e in transcript.since(mark) if e.direction == TO_ENGINE] == []
        assert alive(engine.pid)


async def test_a_late_answer_to_an_abandoned_search_is_not_taken_for_the_next() -> None:
    # the late answer comes 1.5 s after `go`, long after the 0.2 s the first play waits
    async with open_engine(fake("late", "--delay", "1.5")) as engine:
        await engine.new_game("tak", {"size": "5"})
        first = one_move_game()
        with pytest.raises(EngineTimeout):
            await engine.play(first, CLOCK, deadline=trio.current_time() + 0.1, grace=0.1)
        assert engine.searching
        second = PlaceGame(5)
        second.play("a1")
        result = await engine.play(second, CLOCK, deadline=trio.current_time() + 30)
        assert result.text == "b1"
        assert [info.pv for info in result.infos] == [("b1",)]


async def test_a_malformed_line_of_a_known_command_is_a_protocol_error() -> None:
    async with open_engine(fake("empty-bestmove")) as engine:
        await engine.new_game("tak", {"size": "5"})
        await engine.send("position startpos")
        await engine.send("go wtime 1000 btime 1000")
        with pytest.raises(EngineProtocolError) as caught:
            while True:
                await engine.receive(timeout=30)
        assert caught.value.line == "bestmove"
        assert "'bestmove'" in str(caught.value)
        assert any("bestmove" in problem for problem in engine.problems)
        await engine.ping(timeout=30)  # the engine itself is still usable


async def test_a_second_bestmove_is_a_protocol_error_quoting_it() -> None:
    async with open_engine(fake("two-bestmoves")) as engine:
        game = PlaceGame(5)
        first = await engine.play(game, Limits(movetime=50), deadline=trio.current_time() + 30)
        game.play(first.action)
        with pytest.raises(EngineProtocolError, match="no search runs") as caught:
            await engine.ping(timeout=30)  # the second answer comes before readyok
        assert caught.value.line == first.line


async def test_a_huge_clock_is_clamped_and_logged() -> None:
    transcript = Transcript()
    async with open_engine(fake(), transcript=transcript) as engine:
        limits = Limits(wtime=200000000000000, btime=-5)
        await engine.play(PlaceGame(5), limits, deadline=trio.current_time() + 30)
    sent = [e.line for e in transcript if e.direction == TO_ENGINE and e.line.startswith("go")]
    assert sent == [f"go wtime {2**31 - 1} btime 0"]
    notes = [e.line for e in transcript if e.direction == NOTE]
    assert f"wtime 200000000000000 clamped to {2**31 - 1}" in notes
    assert "btime -5 clamped to 0" in notes


async def test_an_engine_that_stops_reading_its_input_stalls_a_send(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A write the engine never takes in (its input pipe full, the engine busy) ends in
    EngineStalled after SEND_TIMEOUT, even though sends are shielded from cancellation."""
    monkeypatch.setattr("tei.driver.engine.SEND_TIMEOUT", 0.5)
    async with open_engine(fake("no-read-while-searching", "--delay", "10")) as engine:
        await engine.send("position startpos")
        await engine.send("go movetime 20000")  # it stops reading while it searches
        started = trio.current_time()
        with pytest.raises(EngineStalled, match="reading of its input"):
            await engine.send("x" * (1 << 20))  # far more than a pipe holds
        assert trio.current_time() - started < 5
