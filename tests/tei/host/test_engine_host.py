"""`tei engine` as a real subprocess, driven by scripted transcripts.

The misbehaving bots below are served with `--bot tests.tei.host.test_engine_host:ClassName`
(the repository's root is put on the subprocess's PYTHONPATH).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest

from bots import Info, Limits
from bots.base import Bot, Report
from bots.random_bot import RandomBot
from rules.game import Game
from rules.registry import game_class
from tei.host.declared_options import from_bot_option
from tests.support import ROOT
from tests.support.engine_pipe import EnginePipe

pytestmark = pytest.mark.process

WAIT = 20.0  # generous liveness limit; a hung host fails the test instead of blocking it


# ---- bots that misbehave on purpose ----------------------------------------------------


class SleepyBot(Bot):
    """Ignores the stop flag and thinks for a long time."""

    name: ClassVar[str] = "sleepy"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        report(Info(depth=1, pv=(game.format_action(game.legal()[-1]),)))
        time.sleep(60)
        return game.legal()[0]


class PatientBot(Bot):
    """Reports progress until the stop flag is set, then answers."""

    name: ClassVar[str] = "patient"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        action = game.legal()[0]
        depth = 0
        while not stop.wait(0.02):
            depth += 1
            if depth <= 3:
                report(Info(depth=depth, score_cp=depth, nodes=10 * depth, pv=(str(action),)))
        return action


class FloodBot(Bot):
    """Reports in a tight loop until stopped."""

    name: ClassVar[str] = "flood"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        action = game.legal()[0]
        text = game.format_action(action)
        n = 0
        while not stop.is_set():
            n += 1
            report(Info(depth=n, nodes=n, score_cp=0, pv=(text,)))
        return action


class CrashBot(Bot):
    name: ClassVar[str] = "crash"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        raise RuntimeError("the bot fell over")


class GarbageBot(Bot):
    name: ClassVar[str] = "garbage"

    def think(self, game: Game[Any], limits: Limits, stop: threading.Event, report: Report) -> Any:
        print("a bot that prints to stdout must not corrupt the protocol")
        return object()


# ---- a driver for the subprocess -------------------------------------------------------


Host = EnginePipe


def bestmove(lines: list[str]) -> str:
    assert lines[-1].startswith("bestmove ")
    return lines[-1].split()[1]


#: a game per name with a start size and a few legal moves from its start position
GAMES: dict[str, tuple[str, list[str]]] = {
    "tak": ("5", ["c3", "d3", "e3", "Cb3", "Ca4", "Sb4", "d4"]),
    "trike": ("7", ["d2", "swap", "c3"]),
    "traxit": ("8", ["@e1", "@e8", "@d1", "@d8", "T09", "e1-b2", "T09"]),
}


def legal_after(game: str, size: str, moves: list[str], answer: str) -> bool:
    options = {"size": size} if game != "traxit" else {}
    g = game_class(game).new(options)
    g.play_all(moves)
    try:
        g.parse_action(answer)
    except ValueError:
        return False
    return True


def trike_host(host: Callable[..., Host], bot: str, *extra: str) -> Host:
    """A host of one of the bots above on Trike, past the handshake."""
    h = host("--game", "trike", "--bot", f"tests.tei.host.test_engine_host:{bot}", *extra)
    h.handshake()
    return h


def search_trike(h: Host, moves: list[str], go: str) -> None:
    """Start a search on 7x7 Trike after the moves."""
    position = "position startpos" + (" moves " + " ".join(moves) if moves else "")
    h.send("teinewgame 7", position, go)


def legal_on_trike(moves: list[str], lines: list[str]) -> bool:
    """Whether the bestmove that ends the lines is legal on 7x7 Trike after the moves."""
    return legal_after("trike", "7", moves, bestmove(lines))


# ---- the tests ----------------------------------------------------------------------------


#: the TEI names of Traxit's rules options (none of them a Tak setting)
TRAXIT_ONLY = {"Players", "Teams", "ShortGame", "DealSeed", "Tiles", "AllowMirror", "BonusPer"}


@pytest.mark.parametrize(
    ("args", "wanted", "unwanted"),
    [
        ((), {"HalfKomi", "Flats", "Caps", "Level"}, {"Game"} | TRAXIT_ONLY),
        (("--game", "trike", "--bot", "random"), {"Game", "Seed"}, {"HalfKomi"} | TRAXIT_ONLY),
        (("--game", "traxit", "--bot", "random"), {"Game"} | TRAXIT_ONLY, {"HalfKomi"}),
    ],
)
def test_an_engine_declares_the_options_of_its_game_and_its_own(
    host: Callable[..., Host], args: tuple[str, ...], wanted: set[str], unwanted: set[str]
) -> None:
    h = host(*args)
    lines = h.handshake()
    names = {line.split()[2] for line in lines if line.startswith("option name ")}
    assert wanted <= names and not names & unwanted, names
    assert lines[-1] == "teiok"
    h.send("quit")
    assert h.wait_exit() == 0


def test_handshake_lists_options_and_ends_with_teiok(host: Callable[..., Host]) -> None:
    h = host("--game", "trike", "--bot", "random")
    lines = h.handshake()
    assert lines[0] == "id name tei-host random"
    assert lines[1].startswith("id author ")
    assert any(line.startswith("option name Game type combo default trike") for line in lines)
    for option in RandomBot.options:
        assert from_bot_option(option).decl.to_line() in lines
    assert not any(line.startswith("size ") for line in lines)
    h.send("quit")
    assert h.wait_exit() == 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_racetrack_style_session(host: Callable[..., Host], game: str) -> None:
    size, moves = GAMES[game]
    h = host("--game", game, "--bot", "random")
    h.handshake()
    if game != "tak":  # a GUI selects the game first; the default is --game anyway
        h.send(f"setoption name Game value {game}")
    h.ping()
    h.send(f"teinewgame {size}")
    h.ping()
    h.send("position startpos moves ", "go wtime 5000 btime 5000 winc 100 binc 100")
    first = bestmove(h.expect("bestmove"))
    assert legal_after(game, size, [], first)
    for n in range(1, len(moves) + 1):
        h.send(f"position startpos moves {' '.join(moves[:n])}")
        h.send("go wtime 4000 btime 3000 winc 100 binc 100")
        assert legal_after(game, size, moves[:n], bestmove(h.expect("bestmove")))
    h.send("quit")
    assert h.wait_exit() == 0


def test_isready_answered_and_quit_honoured_while_a_bot_sleeps(host: Callable[..., Host]) -> None:
    h = trike_host(host, "SleepyBot")
    search_trike(h, [], "go infinite")
    lines = h.ping()
    assert not any(line.startswith("bestmove") for line in lines)
    h.send("quit")
    assert h.wait_exit() == 0


def test_stop_answers_for_a_bot_that_ignores_it(host: Callable[..., Host]) -> None:
    h = trike_host(host, "SleepyBot")
    search_trike(h, ["d2"], "go infinite")
    h.expect("info depth 1")
    h.send("stop")
    assert legal_on_trike(["d2"], h.expect("bestmove"))
    h.ping()


def test_movetime_is_enforced_on_a_bot_that_ignores_it(host: Callable[..., Host]) -> None:
    h = trike_host(host, "SleepyBot")
    search_trike(h, ["d2", "c3"], "go movetime 200")
    lines = h.expect("bestmove")
    assert legal_on_trike(["d2", "c3"], lines)
    # the next search waits for the sleeping bot; the host still answers in time
    h.send("go wtime 400 btime 400")
    assert legal_on_trike(["d2", "c3"], h.expect("bestmove"))


@pytest.mark.parametrize(
    ("go", "extra"), [("go depth 1", ()), ("go nodes 1000", ("--limit-cap", "0.5"))]
)
def test_depth_and_nodes_are_enforced_on_a_bot_that_hangs_there(
    host: Callable[..., Host], go: str, extra: tuple[str, ...]
) -> None:
    """depth: the bot's report shows the limit reached; nodes: it reports no nodes, so
    only the --limit-cap deadline ends the search."""
    h = trike_host(host, "SleepyBot", *extra)
    search_trike(h, ["d2"], go)
    assert legal_on_trike(["d2"], h.expect("bestmove"))
    h.ping()


def test_infinite_search_streams_info_until_stop(host: Callable[..., Host]) -> None:
    h = trike_host(host, "PatientBot")
    search_trike(h, ["d2"], "go")
    h.expect("info depth 3")
    h.ping()
    h.send("stop")
    lines = h.expect("bestmove")
    assert legal_on_trike(["d2"], lines)
    infos = [line for line in h.seen if line.startswith("info depth")]
    assert infos[0].startswith("info depth 1 score cp 1 nodes 10")
    assert all(" time " in line and " pv " in line for line in infos)


def test_crashing_and_garbage_bots_still_give_a_legal_move(host: Callable[..., Host]) -> None:
    for bot in ("CrashBot", "GarbageBot"):
        h = trike_host(host, bot)
        search_trike(h, ["d2"], "go movetime 1000")
        lines = h.expect("bestmove")
        assert any(line.startswith("info string error: bot") for line in lines)
        assert legal_on_trike(["d2"], lines)
        assert all(line.split()[0] in ("info", "bestmove") for line in lines)


def test_bad_input_never_kills_the_host(host: Callable[..., Host]) -> None:
    h = host("--game", "trike", "--bot", "random")
    h.handshake()
    bad = [
        "go movetime 100",  # before any position
        "xyzzy plugh",
        "setoption name NoSuchOption value 3",
        "setoption name Players value 9",
        "setoption name Game value chess",
        "position startpos moves d2 zz9",
        "position tps not-a-position",
        "go depth many",
        "teinewgame seven",
    ]
    for line in bad:
        h.send(line)
        got = h.ping()
        errors = [g for g in got if g.startswith("info string error: ")]
        assert len(errors) == 1, (line, got)
    h.send("position startpos moves d2 zz9", "go movetime 50")
    assert h.expect("bestmove")[-1] == "bestmove --"
    h.send("\x00\x01 garbage \udcff".encode("utf-8", "surrogatepass").decode("latin-1"))
    h.ping()
    h.send("stop")  # no search: ignored
    assert h.ping() == ["readyok"]


def test_end_of_input_exits_cleanly(host: Callable[..., Host]) -> None:
    h = trike_host(host, "SleepyBot")
    search_trike(h, [], "go infinite")
    assert h.proc.stdin is not None
    h.proc.stdin.close()
    assert h.wait_exit() == 0


def test_options_from_the_command_line_and_log(host: Callable[..., Host], tmp_path: Path) -> None:
    log = tmp_path / "traffic.log"
    h = host("--game", "trike", "--bot", "random", "--option", "Seed=7", "--log", str(log))
    lines = h.handshake()
    seed = next(o for o in RandomBot.options if o.name == "Seed")
    assert from_bot_option(attrs.evolve(seed, default="7")).decl.to_line() in lines
    h.send("quit")
    assert h.wait_exit() == 0
    text = log.read_text().splitlines()
    assert text[0].endswith(" > tei")
    assert any(line.endswith(" < teiok") for line in text)
    assert text[-1].endswith(" > quit")


def test_bad_command_line_is_refused() -> None:
    for args in (
        ["--bot", "nosuchbot"],
        ["--option", "Nope=1"],
        ["--option", "HalfKomi"],
        ["--bot", "random", "--game", "tak", "--komi", "501"],
        ["--bot", "random", "--game", "traxit", "--players", "7"],
        ["--bot", "random", "--game", "tak", "--rule", "halfkomi=x"],
        ["--bot", "tests.tei.host.test_engine_host:NoSuchBot"],
        ["--limit-cap", "0"],
        ["--bot", "random", "--log", "/nonexistent-dir/traffic.log"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "tei", "engine", "--game", "trike", *args],
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            capture_output=True,
            text=True,
            timeout=WAIT,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2
        assert "tei engine:" in done.stderr


def test_help_lists_every_option() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tei", "engine", "--help"], capture_output=True, text=True
    )
    for flag in ("--bot", "--option", "--log", "--tei-v1", "--game", "--list", "--limit-cap"):
        assert flag in done.stdout


def test_halfkomi_is_honoured(host: Callable[..., Host]) -> None:
    """A full 3x3 board, 5 flats to 4: komi decides who won."""
    h = host("--game", "tak", "--bot", "random")
    h.handshake()
    codes = []
    for halfkomi in ("0", "2", "4"):
        h.send(f"setoption name HalfKomi value {halfkomi}", "teinewgame 3")
        h.send("position tps 1,2,1/2,1,2/1,2,1 2 5", "go movetime 100")
        lines = h.expect("bestmove")
        assert lines[-1] == "bestmove --"
        codes.append(lines[-2])
    assert codes == [
        "info string error: go: the game is over (F-0)",
        "info string error: go: the game is over (1/2-1/2)",
        "info string error: go: the game is over (0-F)",
    ]
    h.send("teinewgame size 3 halfkomi 4", "position tps 1,2,1/2,1,2/1,2,1 2 5", "go depth 1")
    assert h.expect("bestmove")[-2] == codes[2]
    # every value 0..8 is taken and reaches the rules: 5 flats against 4 + komi
    for halfkomi in range(9):
        h.send(f"setoption name HalfKomi value {halfkomi}", "teinewgame 3")
        h.send("position tps 1,2,1/2,1,2/1,2,1 2 5", "go movetime 100")
        code = h.expect("bestmove")[-2].split("(")[-1].rstrip(")")
        expected = game_class("tak").from_position_string(
            "1,2,1/2,1,2/1,2,1 2 5", {"halfkomi": str(halfkomi)}
        )
        assert expected.result is not None and code == expected.result.code
    h.send("setoption name HalfKomi value 1001")
    assert h.ping()[0].startswith("info string error: option 'HalfKomi' takes 0..1000")


def test_tei_v1_size_line_on_request(host: Callable[..., Host]) -> None:
    h = host("--game", "tak", "--bot", "random", "--tei-v1")
    lines = h.handshake()
    assert "size 3 4 5 6 7 8 halfkomi 0 1 2 3 4 5 6 7 8" in lines
    h.send("teinewgame size 6 halfkomi 4", "position startpos moves a1 f6", "go nodes 10")
    assert legal_after("tak", "6", ["a1", "f6"], bestmove(h.expect("bestmove")))


def test_traxit_variants_and_position_strings(host: Callable[..., Host]) -> None:
    h = host("--game", "traxit", "--bot", "random")
    h.handshake()
    h.send("setoption name Players value 4", "setoption name Teams value true")
    h.send("setoption name ShortGame value true", "teinewgame", "position startpos")
    h.send("go movetime 100")
    answer = bestmove(h.expect("bestmove"))
    g = game_class("traxit").new({"players": "4", "teams": "true", "shortgame": "true"})
    g.play_text(answer)
    # a position string carries its own seats, whatever the Players option says
    h.send(f"position tps {g.position_string()}", "go movetime 100")
    answer = bestmove(h.expect("bestmove"))
    g.parse_action(answer)
    h.send("setoption name Players value 3", "teinewgame")
    lines = h.ping()
    assert lines[0].startswith("info string error: teinewgame:")


def test_list_names_games_and_bots() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tei", "engine", "--list"],
        capture_output=True,
        text=True,
        timeout=WAIT,
    )
    assert done.returncode == 0
    for game in ("tak", "trike", "traxit"):
        line = next(line for line in done.stdout.splitlines() if line.startswith(f"{game}:"))
        assert "random" in line


#: the longest an answer to `isready` or `stop` may take behind a flood of reports (the
#: host answers in milliseconds; without batching the reports it took 0.8 s to 60 s)
PROMPT = 0.25


def _timed(h: Host, line: str, answer: str) -> tuple[list[str], float]:
    started = time.monotonic()
    h.send(line)
    got = h.expect(answer)
    return got, time.monotonic() - started


def test_a_flooding_bot_cannot_bury_isready_and_stop(host: Callable[..., Host]) -> None:
    h = trike_host(host, "FloodBot")
    search_trike(h, ["d2"], "go infinite")
    h.expect("info depth")
    time.sleep(2.0)  # the bot reports in a tight loop all the while: a backlog builds
    for _ in range(3):
        got, took = _timed(h, "isready", "readyok")
        assert took < PROMPT, f"readyok after {took:.3f} s"
    got, took = _timed(h, "stop", "bestmove")
    assert took < PROMPT, f"bestmove {took:.3f} s after stop"
    assert legal_on_trike(["d2"], got)
    h.send("go movetime 100")
    assert legal_on_trike(["d2"], h.expect("bestmove"))


def test_closed_stdout_ends_the_host() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tei", "engine", "--game", "trike", "--bot", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        proc.stdout.close()
        proc.stdin.write(b"tei\n")
        proc.stdin.flush()
        assert proc.wait(timeout=WAIT) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stderr):
            if stream is not None:
                stream.close()
