"""The engine driver against the scripted fake engine: handshake, options, new game, play."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio

from tei.driver import Limits, PlayResult, Transcript, open_engine
from tei.transcript import TO_ENGINE, TranscriptEntry
from tests.support.engines.procs import alive, fake, fake_processes
from tests.support.engines.toy_game import PlaceGame

pytestmark = pytest.mark.process


@pytest.fixture(autouse=True)
def _no_engine_left() -> Iterator[None]:
    yield
    assert fake_processes() == []


CLOCK = Limits(wtime=1000, btime=1000, winc=100, binc=100)


def sent(transcript: Transcript) -> list[str]:
    return [e.line for e in transcript if e.direction == TO_ENGINE]


async def sent_while_playing(
    argv: list[str], rules: dict[str, str], plies: int | None = None
) -> list[str]:
    """Plays a Tak game of `rules` against the engine, `plies` plies or to the end, and
    checks that the engine is still running at the end; the lines sent to it."""
    transcript = Transcript()
    async with open_engine(argv, transcript=transcript) as engine:
        await engine.new_game("tak", rules)
        game = PlaceGame(int(rules["size"]))
        played = 0
        while game.result is None and (plies is None or played < plies):
            result = await engine.play(game, CLOCK, deadline=trio.current_time() + 30)
            game.play(result.action)
            played += 1
        assert engine.returncode is None
    return sent(transcript)


async def test_handshake_reads_identity_and_options() -> None:
    argv = fake("good", "--options", "HalfKomi combo 0 0 4", "--options", "Hash spin 16 1 64")
    async with open_engine(argv) as engine:
        assert engine.id_name == "Fake good"
        assert engine.id_author == "Test Suite"
        assert set(engine.options) == {"HalfKomi", "Hash"}
        assert engine.options["HalfKomi"].vars == ("0", "4")
        assert engine.games == frozenset({"tak"})
        assert engine.value("hash") == "16"


async def test_games_come_from_the_game_combo() -> None:
    async with open_engine(fake("good", "--games", "tak,trike")) as engine:
        assert engine.games == frozenset({"tak", "trike"})


async def test_play_returns_a_checked_move_with_infos() -> None:
    transcript = Transcript()
    async with open_engine(fake(), transcript=transcript) as engine:
        await engine.new_game("tak", {"size": "5"})
        game = PlaceGame(5)
        game.play("a1")
        result = await engine.play(game, CLOCK, deadline=trio.current_time() + 30)
        assert isinstance(result, PlayResult)
        assert result.text == "b1"
        assert result.action in game.legal()
        assert result.info is not None and result.info.depth == 2
        assert len(result.infos) == 2
        assert result.elapsed >= 0
    lines = sent(transcript)
    assert "teinewgame 5" in lines
    assert "position startpos moves a1" in lines
    assert "go wtime 1000 btime 1000 winc 100 binc 100" in lines
    assert lines[-1] == "quit"


async def test_position_from_a_position_string_goes_as_tps() -> None:
    transcript = Transcript()
    async with open_engine(fake(), transcript=transcript) as engine:
        await engine.new_game("tak", {"size": "5"})
        game = PlaceGame.from_position_string("1,x4/x5/x5/x5/x5 1 1")
        game.play("a1")
        result = await engine.play(game, Limits(movetime=50), deadline=trio.current_time() + 30)
        assert result.text == "b1"
    assert "position tps 1,x4/x5/x5/x5/x5 1 1 moves a1" in sent(transcript)
    assert "go movetime 50" in sent(transcript)


async def test_a_whole_game_against_a_strict_engine_sends_only_what_it_takes() -> None:
    """The strict fake exits on a bare go, go depth, undeclared options and F prefixes."""
    argv = fake("strict", "--options", "HalfKomi combo 0 0 4")
    lines = await sent_while_playing(argv, {"size": "3", "halfkomi": "4"})
    assert "setoption name HalfKomi value 4" in lines
    assert all(not line.startswith("go") or "wtime" in line for line in lines)


async def test_an_engine_that_exits_on_any_setoption_is_sent_none() -> None:
    """Like Taktician: no options declared, and `setoption` ends the process."""
    argv = fake("strict", "--crash-on", "setoption")
    lines = await sent_while_playing(argv, {"size": "4", "halfkomi": "0"}, plies=4)
    assert not any(line.startswith("setoption") for line in lines)


async def test_game_option_is_selected_before_teinewgame() -> None:
    transcript = Transcript()
    async with open_engine(fake("good", "--games", "tak,trike"), transcript=transcript) as engine:
        await engine.new_game("trike", {"size": "7"})
        await engine.new_game("trike", {"size": "9"})
    lines = sent(transcript)
    assert lines.index("setoption name Game value trike") < lines.index("teinewgame 7")
    assert lines.count("setoption name Game value trike") == 2
    assert "teinewgame 9" in lines


async def test_a_new_game_when_needed_is_sent_only_when_game_rules_or_key_change() -> None:
    transcript = Transcript()
    async with open_engine(fake("good"), transcript=transcript) as engine:
        assert await engine.new_game("tak", {"size": "4"}, game_key="g1", when_needed=True)
        assert not await engine.new_game("tak", {"size": "4"}, game_key="g1", when_needed=True)
        game = PlaceGame(4)
        result = await engine.play(game, CLOCK, game_key="g1", deadline=trio.current_time() + 30)
        game.play(result.action)
        assert await engine.new_game("tak", {"size": "4"}, game_key="g2", when_needed=True)
        assert await engine.new_game("tak", {"size": "5"}, game_key="g2", when_needed=True)
        assert engine.generation == 3
    assert [line for line in sent(transcript) if line.startswith("teinewgame")] == [
        "teinewgame 4",
        "teinewgame 4",
        "teinewgame 5",
    ]


async def test_a_copy_of_the_game_under_its_key_is_the_same_game() -> None:
    transcript = Transcript()
    async with open_engine(fake("good"), transcript=transcript) as engine:
        game = PlaceGame(4)
        for _ in range(3):  # a fresh copy each move, as the playtak bridge plays
            result = await engine.play(
                game.copy(), CLOCK, game_key=7, deadline=trio.current_time() + 30
            )
            game.play(result.action)
        await engine.play(game.copy(), CLOCK, game_key=8, deadline=trio.current_time() + 30)
    assert [line for line in sent(transcript) if line.startswith("teinewgame")] == [
        "teinewgame 4",
        "teinewgame 4",
    ]


async def test_a_go_whose_sender_is_cancelled_is_still_sent_whole() -> None:
    """Cancelled at the write of `go`, the line still goes out, so the connection's count
    of searches stays true: the next move skips that search's bestmove and gets its own."""
    transcript = Transcript()
    async with open_engine(fake("slow", "--delay", "0.2"), transcript=transcript) as engine:
        game = PlaceGame(4)
        await engine.new_game("tak", {"size": "4"})
        with trio.CancelScope() as scope:
            scope.cancel()
            await engine.send(engine.go_message(game, CLOCK))
        assert scope.cancelled_caught
        assert engine.searching
        result = await engine.play(game, CLOCK, deadline=trio.current_time() + 5)
        assert result.action in game.legal()
    assert sent(transcript).count("go wtime 1000 btime 1000 winc 100 binc 100") == 2


async def test_transcript_file_lines_name_engine_and_direction(tmp_path: Path) -> None:
    path = tmp_path / "traffic.log"
    transcript = Transcript.to_file(path)
    async with open_engine(fake(), name="fakey", transcript=transcript) as engine:
        await engine.ping()
    transcript.close()
    entries = [TranscriptEntry.parse(line) for line in path.read_text().splitlines()]
    assert {e.engine for e in entries} == {"fakey"}
    assert ("fakey", ">", "isready") in {(e.engine, e.direction, e.line) for e in entries}
    assert ("fakey", "<", "readyok") in {(e.engine, e.direction, e.line) for e in entries}


async def test_ping_answers_and_engine_exits_on_quit() -> None:
    async with open_engine(fake()) as engine:
        seconds = await engine.ping(timeout=30)
        assert seconds >= 0
        pid = engine.pid
    assert engine.returncode == 0
    assert not alive(pid)


async def test_analysis_streams_infos_until_stopped() -> None:
    async with open_engine(fake()) as engine:
        await engine.new_game("tak", {"size": "5"})
        game = PlaceGame(5)
        async with engine.analyse(game) as analysis:
            infos = []
            async for info in analysis:
                infos.append(info)
                break
        assert infos[0].pv == ("a1",)
        assert analysis.bestmove == "a1"
        assert not engine.searching
        # the engine is usable afterwards
        result = await engine.play(game, CLOCK, deadline=trio.current_time() + 30)
        assert result.text == "a1"


async def test_analysis_left_open_is_finished_by_the_next_command() -> None:
    async with open_engine(fake()) as engine:
        await engine.new_game("tak", {"size": "5"})
        analysis = engine.analyse(PlaceGame(5))
        async for _ in analysis:
            break
        await engine.ping(timeout=30)
        assert analysis.done and analysis.bestmove == "a1"


async def test_bounded_analysis_ends_by_itself() -> None:
    async with open_engine(fake()) as engine:
        await engine.new_game("tak", {"size": "5"})
        infos = [info async for info in engine.analyse(PlaceGame(5), Limits(depth=2))]
        assert [i.depth for i in infos] == [1, 2]


async def test_raw_send_and_receive() -> None:
    async with open_engine(fake()) as engine:
        await engine.send("isready")
        assert await engine.receive_line(timeout=30) == "readyok"
        await engine.send("isready")
        message = await engine.receive(timeout=30)
        assert message.to_line() == "readyok"


async def test_a_second_identity_block_after_teiok_is_harmless() -> None:
    """Some engines print their id/option/teiok block at start and again on `tei`."""
    argv = fake("double-block", "--options", "HalfKomi combo 0 0 4")
    async with open_engine(argv) as engine:
        await engine.new_game("tak", {"size": "5", "halfkomi": "4"})
        result = await engine.play(PlaceGame(5), CLOCK, deadline=trio.current_time() + 30)
        assert result.text == "a1"
        assert engine.value("HalfKomi") == "4"


async def test_a_second_task_cannot_use_a_busy_engine() -> None:
    async with open_engine(fake("slow", "--delay", "30")) as engine:
        await engine.new_game("tak", {"size": "5"})
        refused: list[str] = []

        async def meddle() -> None:
            await trio.sleep(0.1)
            try:
                await engine.ping()
            except RuntimeError as exc:
                refused.append(str(exc))

        async with trio.open_nursery() as nursery:
            nursery.start_soon(meddle)
            result = await engine.play(
                PlaceGame(5), CLOCK, deadline=trio.current_time() + 0.3, grace=30
            )
        assert result.text == "a1"
        assert refused and "in use by another task" in refused[0]
        await engine.ping()  # free again
