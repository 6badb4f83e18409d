"""Pondering: `tei playtak --bot search --ponder` against the local server as real
processes (the engine traffic of its `-v` log shows the ponder searches), and the seat's
ponder search with fake engines."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
import trio

from rules.tak.game import TakGame
from rules.tak.ptn import PtnGame
from tei.driver import Limits
from tei.seat import EngineSeat, FaultKind, Launch, NewGame, SeatFault
from tei.transcript import Transcript
from tests.support.engines.procs import fake
from tests.support.playtak.processes import TEI, seeker_and_acceptor, server_process

pytestmark = pytest.mark.process


def engine_and_game_lines(log: str) -> list[str]:
    """What the bot sent to its engine (`> ...`) and the game's moves from the server
    (`< Game#1 P ...`), in order, without the timestamps."""
    kept = []
    for line in log.splitlines():
        if " playtak.engine " in line and " > " in line:
            kept.append("> " + line.split(" > ", 1)[1])
        elif " playtak.engine " in line and " < bestmove" in line:
            kept.append("< bestmove")
        elif re.search(r"playtak\.session DEBUG < Game#\d+ (P|M|Over) ", line):
            kept.append("< " + line.split(" < ", 1)[1])
    return kept


async def test_a_pondering_bot_stops_its_ponder_when_the_opponent_moves(tmp_path: Path) -> None:
    async with server_process() as (tcp_url, _):
        common = ["--server", tcp_url, "--games", "1", "--move-overhead", "100"]
        ponderer = [
            *TEI,
            *common,
            *("--bot", "search", "--ponder", "-v", "--seek", "4 5 0 W"),
            *("--ptn-dir", str(tmp_path / "ptn"), "--log", str(tmp_path / "bot.log")),
        ]
        # a quick opponent: a shallow search bot that takes every seek
        opponent = [
            *TEI,
            *common,
            *("--bot", "search", "--engine-option", "MaxDepth=3", "--accept"),
        ]
        results = await seeker_and_acceptor(tcp_url, ponderer, opponent, timeout=120)
    for name, done in results.items():
        assert done.returncode == 0, (name, done.stderr.decode()[-2000:])
    records = list((tmp_path / "ptn").glob("*.ptn"))
    assert len(records) == 1
    record = PtnGame.parse(records[0].read_text())
    assert record.tag("Result") == results["seeker"].stdout.decode().split()[2]
    assert len(record.moves) >= 2

    lines = engine_and_game_lines((tmp_path / "bot.log").read_text())
    ponders = [i for i, line in enumerate(lines) if line == "> go infinite"]
    assert ponders, "no ponder search in the engine traffic"
    # the engine keeps its table all game: one teinewgame per engine process (a process
    # restarted after a stall, as can happen on a loaded machine, is told the game again)
    assert lines.count("> teinewgame 4") == lines.count("> tei") >= 1
    stopped_by_a_move = 0
    for i in ponders:
        position = lines[i - 1]
        assert position.startswith("> position startpos moves ")
        # the ponder position: the game so far, our move and the expected reply
        after = lines[i + 1 :]
        assert after[0].startswith("< Game#1 "), after[:3]  # nothing before their move
        if after[0].startswith("< Game#1 Over"):
            continue  # the game ended while pondering: stopped as well
        stopped_by_a_move += 1
        assert after[1:3] == ["> stop", "< bestmove"], after[:5]  # read and discarded
        # then our move is asked as usual, in the position with their real reply
        reply = after[0].split(" ", 2)[2]
        assert after[3].startswith("> position startpos moves "), after[:5]
        assert after[4].startswith("> go wtime "), after[:5]
        assert position.rsplit(" ", 1)[0] in after[3], (reply, position, after[3])
    assert stopped_by_a_move
    # every ponder is stopped: the bot sent `stop` once per `go infinite` still running
    assert lines.count("> stop") >= stopped_by_a_move


#: the game the seat tests tell their engine about
FIVE = NewGame("tak", {"size": "5"}, key=7)


def fake_seat(mode: str, nursery: trio.Nursery) -> EngineSeat:
    """A seat on the fake engine in `mode` that keeps a transcript."""
    return EngineSeat(Launch(tuple(fake(mode))), nursery=nursery, transcript=Transcript())


async def ponder_then_cancel(seat: EngineSeat, game: TakGame, new: NewGame) -> list[SeatFault]:
    """Ponder on `game` and cancel it once the engine has reported on that search; the
    ponder's failure, if any."""
    faults: list[SeatFault] = []

    async def ponder() -> None:
        try:
            await seat.ponder(game, new)
        except SeatFault as fault:
            faults.append(fault)

    async with trio.open_nursery() as nursery:
        nursery.start_soon(ponder)
        await wait_until(lambda: "< info" in lines_of(seat).partition("> go infinite\n")[2])
        nursery.cancel_scope.cancel()
    return faults


def lines_of(seat: EngineSeat) -> str:
    assert seat.transcript is not None
    return "\n".join(f"{e.direction} {e.line}" for e in seat.transcript)


async def wait_until(check: Callable[[], bool]) -> None:
    with trio.fail_after(10):
        while not check():
            await trio.sleep(0.01)


async def test_a_cancelled_ponder_is_stopped_and_its_bestmove_read_before_the_move(
    nursery: trio.Nursery,
) -> None:
    seat = fake_seat("good", nursery)
    game = TakGame.new({"size": "5"})
    game.play_text("a1")
    await seat.move(game.copy(), Limits(movetime=50), FIVE, deadline=None, grace=1)
    pondered = game.copy()
    pondered.play_all(["b1", "c1"])  # the move sent and the expected reply
    assert await ponder_then_cancel(seat, pondered, FIVE) == []
    assert seat.engine is not None and not seat.engine.searching  # its bestmove was read
    game.play_all(["b1", "d1"])  # another reply came
    answer = await seat.move(game.copy(), Limits(movetime=50), FIVE, deadline=None, grace=1)
    assert answer.text == "c1"  # the first empty square, for the real position
    sent = [line for line in lines_of(seat).splitlines() if line.startswith(">")]
    assert sent.count("> teinewgame 5") == 1  # a copy of the game is the same game
    pondering = sent.index("> go infinite")
    assert sent[pondering - 1] == "> position startpos moves a1 b1 c1"
    assert sent[pondering + 1 :] == [
        "> stop",
        "> position startpos moves a1 b1 d1",
        "> go movetime 50",
    ]


async def test_a_ponder_that_ignores_stop_is_a_stalled_seat_that_needs_a_restart(
    nursery: trio.Nursery,
) -> None:
    seat = fake_seat("ignore-stop", nursery)
    game = TakGame.new({"size": "5"})
    game.play_all(["a1", "b1"])
    [fault] = await ponder_then_cancel(seat, game, FIVE)
    assert fault.kind is FaultKind.STALLED and fault.restart
    assert "no bestmove" in str(fault)
