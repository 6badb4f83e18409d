"""Bridges with real engine processes against scripted servers that replay the
protocol's quirks (what the bridge decides is tested without sockets in
test_playtak_bridge_state.py)."""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
import trio

from adapters.playtak.game_policy import ScorePolicy
from adapters.playtak.live_game import play_server_move
from adapters.playtak.notation import ServerMove
from rules.registry import new_game
from rules.tak.move import Move
from rules.tak.ptn import PtnGame
from tei.lines import printable
from tests.support.playtak.bridges import (
    FLAKY,
    Counter,
    login_burst,
    play_both,
    run_until,
    scripted_bridge,
)
from tests.support.playtak.lines import LineClient

pytestmark = pytest.mark.process


async def test_the_login_does_not_wait_for_the_engine_to_start(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A restart resumes its game as soon as the bot is logged in: the login runs while
    the engine starts, and the seek waits for the engine (it may not play it)."""
    gate = tmp_path / "engine-may-start"
    seeked = trio.Event()

    async def script(conn: LineClient) -> None:
        await login_burst(conn)  # while the engine cannot have answered `tei`
        gate.touch()
        await conn.expect("Seek *")
        seeked.set()
        await conn.expect("never")

    bridge = await scripted_bridge(nursery, script, [*FLAKY, "--gate", str(gate)], seek="5 60 0 A")
    await run_until(bridge, seeked, "the seek once the engine started")
    assert bridge.seat is not None and bridge.seat.generation == 1


async def test_garbage_from_the_server_is_ignored_and_survived(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    connections = Counter(3)

    async def garbage(conn: LineClient) -> None:
        if connections() == 1:  # no greeting at all: only junk
            await conn.stream.send_all(b"\x00\xff\xfe junk\nHello?\n")
            await trio.sleep(30)
        await login_burst(conn, "Guest9")
        for line in [
            "\x01\x02\x03",
            "Game#1 Over 9-9",
            "Seek new x y",
            "Game Start 1 nonsense",
            "Game#4 P Z9",
            "tak.Game@557c7331",
            "OnlinePlayers {",
        ]:
            await conn.send(line)
        await conn.expect("Seek *")  # the bridge still seeks after all that
        await conn.stream.send_all(b"x" * 70_000)  # a line too long: the client hangs up
        await trio.sleep(30)

    bridge = await scripted_bridge(nursery, garbage, seek="5 60 0 A", login_timeout=0.5)
    await run_until(bridge, connections.reached, "a third connection after junk, long line")
    assert bridge.finished == []
    assert "ignored server line 'Game#1 Over 9-9'" in caplog.text
    assert "tak.Game@557c7331" in caplog.text


def replay_of_game_5(timems: int) -> list[str]:
    """What the server sends a bot that rejoins game 5 (white, two plies played), each
    clock at `timems`."""
    start = "Game Start 5 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0"
    return [start, "Game#5 P A1", "Game#5 P E5", f"Game#5 Timems {timems} {timems}"]


@pytest.mark.parametrize("early", [False, True])
async def test_resume_waits_for_the_resumed_message_before_moving(
    nursery: trio.Nursery, early: bool
) -> None:
    """The replay may come after the welcome (as on playtak.com) or even before it."""
    replay = replay_of_game_5(50000)
    events: list[str] = []

    async def script(conn: LineClient) -> None:
        if early:
            lines = await login_burst(conn, before_welcome=replay)
        else:
            lines = await login_burst(conn, extra=replay)
        events.extend(lines)
        await trio.sleep(0.3)
        events.append("<resumed>")
        await conn.send("Message Your game is resumed")
        line = await conn.expect("Game#5 *")
        events.append(line[-1])
        await conn.send("Game#5 Over 0-1")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="5 60 0 A")
    await play_both(bridge, limit=20)
    assert bridge.finished[0][:2] == (5, "0-1")
    assert not any(e.startswith("Seek") for e in events)  # never seeks during a game
    move = events[-1]
    assert events[-2] == "<resumed>"
    position = new_game("tak", {"size": "5"})
    position.play_all(["a1", "e5"])
    legal = position.legal()
    assert play_server_move(position, ServerMove.parse(move.removeprefix("Game#5 "))) in legal


async def test_a_game_joined_on_resume_is_dated_from_its_clocks(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """The bot (re)started while its game ran: the record's Date/Time is the game's
    start as the clocks tell it (here 40 s used, 20 by each side), not the resume."""

    async def script(conn: LineClient) -> None:
        await login_burst(conn, extra=replay_of_game_5(40000))
        await conn.send("Message Your game is resumed")
        await conn.expect("Game#5 *")
        await conn.send("Game#5 Over 0-1")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="5 60 0 A", ptn_dir=tmp_path)
    await play_both(bridge, limit=20)
    path = bridge.finished[0][2]
    assert path is not None
    record = PtnGame.parse(path.read_text())
    stamp = f"{record.tag('Date')} {record.tag('Time')}"
    began = datetime.strptime(stamp, "%Y.%m.%d %H:%M:%S").replace(tzinfo=UTC)
    ago = (datetime.now(UTC) - began).total_seconds()
    assert 39 <= ago <= 60, ago


@pytest.mark.parametrize("accept", [False, True])
async def test_draw_offers_are_declined_unless_accepted(
    nursery: trio.Nursery, accept: bool
) -> None:
    sent: list[str] = []

    async def script(conn: LineClient) -> None:
        lines = await login_burst(conn)
        assert lines[:3] == ["Protocol 2", "Client tei-playtak", "Login Guest " + lines[2][12:]]
        await conn.expect("Seek 5 60 0 B 0 21 1 0 0 ")
        await conn.send("Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#2 Timems 60000 60000")
        await conn.send("Game#2 P A1")
        sent.extend(await conn.expect("Game#2 *"))
        await conn.send("Game#2 OfferDraw")
        with trio.move_on_after(1.0):
            sent.extend(await conn.expect("Game#2 OfferDraw"))
        await conn.send("Game#2 Over 1/2-1/2" if accept else "Game#2 Over 1-0")
        await trio.sleep(5)

    policy = ScorePolicy(accept_draws=accept)
    bridge = await scripted_bridge(nursery, script, seek="5 60 0 B", policy=policy)
    await play_both(bridge, limit=20)
    assert ("Game#2 OfferDraw" in sent) == accept


async def test_a_refused_move_is_replaced_by_another(nursery: trio.Nursery) -> None:
    moves: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send("Game Start 3 Guest1 vs bobby white 4 60 0 0 15 0 0 0 0 0 0")
        first = (await conn.expect("Game#3 *"))[-1]
        moves.append(first)
        await conn.send("NOK")
        await conn.send("Error:Invalid move")
        second = (await conn.expect("Game#3 *"))[-1]
        moves.append(second)
        await conn.send("Game#3 Timems 60000 60000")
        await conn.send("OK")
        await conn.send("Game#3 Abandoned. bobby quit")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="4 60 0 W")
    await play_both(bridge, limit=20)
    assert len(moves) == 2 and moves[0] != moves[1]
    assert bridge.finished[0][:2] == (3, "1-0")


async def test_a_silent_server_is_taken_for_dead(nursery: trio.Nursery) -> None:
    connections = Counter(3)

    async def silent(conn: LineClient) -> None:
        connections()
        await login_burst(conn)
        await trio.sleep(30)  # no answer to anything any more

    bridge = await scripted_bridge(nursery, silent, seek="5 60 0 A", dead_after=0.3)
    await run_until(bridge, connections.reached, "a third connection after two silent ones")
    assert bridge.session.connections >= 2


async def test_the_last_sent_list_of_a_warning_speaks_of_this_connection_only(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    connections = 0

    async def script(conn: LineClient) -> None:
        nonlocal connections
        connections += 1
        await login_burst(conn)
        await conn.expect("Seek *")
        if connections == 1:
            return  # dropped: the bot reconnects
        await conn.send("NOK")
        await trio.sleep(30)

    def warnings() -> list[str]:
        return [r.getMessage() for r in caplog.records if "said NOK" in r.getMessage()]

    bridge = await scripted_bridge(nursery, script, seek="5 60 0 A")
    async with trio.open_nursery() as inner:
        inner.start_soon(bridge.run)
        await bridge.wait_for(warnings, "the warning about the NOK", 20)
        inner.cancel_scope.cancel()
    warning = warnings()[0]
    assert warning.count("Login Guest") == 1, warning
    assert warning.count("Seek") == 1, warning


async def test_a_record_that_cannot_be_written_is_kept_and_retried(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The records folder turns into a file during game 1: the game still counts, the
    bot seeks again, and the record is written after game 2 once the folder is back."""
    folder = tmp_path / "ptn"

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        folder.rmdir()
        folder.write_text("not a folder")
        await conn.send("Game Start 1 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#1 Over 1-0")
        await conn.expect("Seek *")  # not idle: a new seek after the lost write
        folder.unlink()
        folder.mkdir()
        await conn.send("Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#2 Over 0-1")
        await trio.sleep(5)

    folder.mkdir()
    bridge = await scripted_bridge(nursery, script, seek="5 60 0 B", games=2, ptn_dir=folder)
    await play_both(bridge, limit=20)
    assert [(g, r) for g, r, _ in bridge.finished] == [(1, "1-0"), (2, "0-1")]
    assert all(path is not None and path.exists() for _, _, path in bridge.finished)
    assert "cannot write the record of game 1" in caplog.text
    records = sorted(p.name for p in folder.glob("*.ptn"))
    assert [name.split("-")[1] for name in records] == ["1", "2"]


async def test_a_time_loss_ends_the_game_and_the_bot_seeks_again(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    after: list[str] = []
    sought = trio.Event()

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek 4 60 0 W 0 15 0 0 0 ")
        await conn.send("Game Start 6 Guest1 vs bobby white 4 60 0 0 15 0 0 0 0 0 0")
        first = (await conn.expect("Game#6 *"))[-1]
        await conn.send("Game#6 Timems 59000 60000")
        await conn.send("OK")
        await conn.send("Game#6 P A1" if first != "Game#6 P A1" else "Game#6 P D4")
        # the bot's clock runs out while it thinks: the server ends the game
        await conn.send("Game#6 Timems 0 60000")
        await conn.send("Game#6 Over 0-1")
        after.extend(await conn.expect("Seek *"))
        sought.set()
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="4 60 0 W", games=2, ptn_dir=tmp_path)
    await run_until(bridge, sought, "a seek after the lost game")
    game_id, result, path = bridge.finished[0]
    assert (game_id, result) == (6, "0-1")
    assert path is not None
    record = PtnGame.parse(path.read_text())
    assert (record.tag("Result"), record.tag("PlayTakID"), record.tag("Size")) == ("0-1", "6", "4")
    assert record.tag("Clock") == "1:00 +0"
    assert after[-1] == "Seek 4 60 0 W 0 15 0 0 0 "  # a new seek only after the game


async def test_a_game_the_server_does_not_resume_is_recorded_as_unfinished(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """After a drop, a login burst without the game's replay: it ended while we were
    away (aborted or abandoned); the record gets `*` and the bot seeks again."""
    connections = 0
    seeks: list[str] = []
    sought = trio.Event()

    async def script(conn: LineClient) -> None:
        nonlocal connections
        connections += 1
        if connections == 1:
            await login_burst(conn)
            await conn.expect("Seek *")
            await conn.send("Game Start 8 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
            await conn.send("Game#8 Timems 60000 60000")
            await conn.send("Game#8 P A1")
            await conn.expect("Game#8 *")
            return  # the connection drops
        lines = await login_burst(conn)
        assert not any(line.startswith("Seek") for line in lines)
        seeks.extend(await conn.expect("Seek *"))
        sought.set()
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="5 60 0 B", games=2, ptn_dir=tmp_path)
    await run_until(bridge, sought, "a seek after the game that was not resumed")
    assert connections == 2
    game_id, result, path = bridge.finished[0]
    assert (game_id, result) == (8, "*")
    assert path is not None
    record = PtnGame.parse(path.read_text())
    assert record.tag("Result") == "*"
    assert len(record.moves) == 2


@pytest.mark.parametrize(
    ("seconds", "reason"),
    [(60, "too many engine failures"), (2, "no time to restart the engine")],
)
async def test_an_engine_that_keeps_crashing_makes_the_bot_resign(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture, seconds: int, reason: str
) -> None:
    """Restarted as long as time allows; then (or after three failures) the bot resigns
    once, and goes on to seek again."""
    caplog.set_level(logging.INFO)
    sent: list[str] = []
    sought = trio.Event()

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send(f"Game Start 4 Guest1 vs bobby white 5 {seconds} 0 0 21 1 0 0 0 0 0")
        sent.extend(await conn.expect("Game#4 *"))
        await conn.send("Game#4 Over 0-1")
        sent.extend(await conn.expect("Seek *"))
        sought.set()
        await trio.sleep(5)

    always_crashing = [*FLAKY, "--mode", "crash", "--at", "1"]  # no marker: every time
    bridge = await scripted_bridge(nursery, script, always_crashing, seek="5 60 0 W", games=2)
    await run_until(bridge, sought, "a seek after the resignation", 30)
    assert [line for line in sent if line.startswith("Game#4")] == ["Game#4 Resign"]
    assert reason in caplog.text
    assert bridge.finished[0][:2] == (4, "0-1")
    # three failures, each followed by a fresh process; or no restart at all
    assert bridge.seat.generation == (4 if seconds == 60 else 1)


async def test_a_refused_accept_waits_for_the_next_seek(
    nursery: trio.Nursery, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    accepts: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn, extra=["Seek new 1 alice 5 60 0 W 0 21 1 0 0 0 0 0 0"])
        accepts.extend(await conn.expect("Accept *"))
        await conn.send("NOK")  # the seek was taken by someone else
        await conn.send("Seek remove 1 alice 5 60 0 W 0 21 1 0 0 0 0 0 0")
        await conn.send("NOK")  # a stray refusal is only logged
        await conn.send("Seek new 2 alice 5 60 0 W 0 21 1 0 0 0 0 0 0")
        accepts.append((await conn.expect("Accept *"))[-1])
        await conn.send("Game Start 3 alice vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#3 Over 1-0")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, accept_from="alice")
    await play_both(bridge, limit=20)
    assert accepts[-2:] == ["Accept 1", "Accept 2"]
    assert "seek 1 is gone" in caplog.text
    assert "the server said NOK" in caplog.text
    assert bridge.finished[0][:2] == (3, "1-0")


async def test_undo_requests_are_ignored_but_an_agreed_undo_is_followed(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    sent: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send("Game Start 9 bobby vs Guest1 black 4 60 0 0 15 0 0 0 0 0 0")
        await conn.send("Game#9 P A1")
        sent.append((await conn.expect("Game#9 *"))[-1])
        await conn.send("Game#9 Timems 60000 59000")
        await conn.send("OK")
        await conn.send("Game#9 RequestUndo")
        await conn.send("Game#9 Undo")  # agreed (as if by an earlier request of ours)
        sent.append((await conn.expect("Game#9 *"))[-1])
        await conn.send("Game#9 Over 1-0")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="4 60 0 B", ptn_dir=tmp_path)
    await play_both(bridge, limit=20)
    assert all(line.startswith("Game#9 P ") for line in sent)  # a move again, no RequestUndo
    path = bridge.finished[0][2]
    assert path is not None
    record = PtnGame.parse(path.read_text())
    assert len(record.moves) == 2  # a1, then the move played after the undo
    second = ServerMove.from_move(Move.from_ptn(record.moves[1]))
    assert second.to_text() == sent[1].removeprefix("Game#9 ")


@pytest.mark.parametrize(
    "opponent",
    ["bo\x00b", "../../x", "n" * 300, "\x1b]0;owned\x07"],
    ids=["nul", "dots", "long", "esc"],
)
async def test_remote_names_make_safe_record_files_and_the_bot_goes_on(
    nursery: trio.Nursery, tmp_path: Path, opponent: str
) -> None:
    """A player name with a NUL byte, a path or 300 characters: the record is written in
    the folder under a safe name with the game id, its tags keep the names (escaped), and the
    bot seeks again and plays its second game (it does not wedge on the write)."""
    folder = tmp_path / "ptn"
    seeks: list[str] = []

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send(f"Game Start 1 {opponent} vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#1 Over 1-0")
        seeks.extend(await conn.expect("Seek *"))  # not wedged: a new seek
        await conn.send("Game Start 2 Guest1 vs bobby white 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#2 Over 0-1")
        await trio.sleep(5)

    bridge = await scripted_bridge(nursery, script, seek="5 60 0 B", games=2, ptn_dir=folder)
    await play_both(bridge, limit=20)
    assert [(g, r) for g, r, _ in bridge.finished] == [(1, "1-0"), (2, "0-1")]
    assert seeks
    paths = [path for _, _, path in bridge.finished]
    assert all(path is not None and path.parent == folder and path.exists() for path in paths)
    assert sorted(tmp_path.rglob("*.ptn")) == sorted(p for p in paths if p is not None)
    first = paths[0]
    assert first is not None
    assert first.name.startswith("playtak-1-") and first.name.endswith("-vs-Guest1.ptn")
    assert len(first.name) <= 120 and re.fullmatch(r"[A-Za-z0-9_.-]+", first.name)
    record = PtnGame.parse(first.read_text(encoding="utf-8"))
    # the tags keep the names, control characters escaped (one line, nothing for a terminal)
    assert (record.tag("Player1"), record.tag("Player2")) == (printable(opponent), "Guest1")


async def test_a_write_that_raises_value_error_is_kept_and_the_bot_goes_on(
    nursery: trio.Nursery, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A record path the OS refuses with ValueError (a NUL byte: here in the folder)
    fails like an OSError: the game counts, the bot seeks again and plays on, and at the
    end the records still unwritten are logged as PTN text, not lost."""

    async def script(conn: LineClient) -> None:
        await login_burst(conn)
        await conn.expect("Seek *")
        await conn.send("Game Start 1 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#1 Over 1-0")
        await conn.expect("Seek *")  # not wedged by the failed write
        await conn.send("Game Start 2 bobby vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#2 Over 0-1")
        await trio.sleep(5)

    folder = tmp_path / "bad\x00folder"
    bridge = await scripted_bridge(nursery, script, seek="5 60 0 B", games=2, ptn_dir=folder)
    await play_both(bridge, limit=20)
    assert bridge.finished == [(1, "1-0", None), (2, "0-1", None)]
    assert "cannot write the record of game 1" in caplog.text
    for game in (1, 2):
        assert f"record of game {game}, not written:\n[Site " in caplog.text
        assert f'[PlayTakID "{game}"]' in caplog.text
