"""A bot that fails, served by a real `tei engine` (and `tei serve`): every failure said
and logged, `--strict` fatal, reports and stdout unable to inject protocol lines, one
`bestmove` per `go`, and bot modules that cannot load named by file and line."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from rules.registry import game_class
from tests.support.engine_pipe import EnginePipe
from tests.support.engines.procs import tei
from tests.support.serve import Client, Server

pytestmark = pytest.mark.process

WAIT = 30.0


def tak_host(host: Callable[..., EnginePipe], bot: str, *args: str) -> EnginePipe:
    h = host("--game", "tak", "--bot", f"tests.support.engines.bad_bots:{bot}", *args)
    h.handshake()
    h.send("teinewgame 5")
    return h


def legal(moves: list[str], answer: str) -> bool:
    game = game_class("tak").new({"size": "5"})
    game.play_all(moves)
    try:
        game.parse_action(answer)
    except ValueError:
        return False
    return True


def wait_for(predicate: Callable[[], bool]) -> None:
    end = time.monotonic() + WAIT
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


# ---- failures are said, logged, and answered for (or fatal with --strict) ----------------


def test_an_exception_is_named_on_the_wire_and_traced_on_stderr_and_log(
    host: Callable[..., EnginePipe], tmp_path: Path
) -> None:
    log = tmp_path / "engine.log"
    h = tak_host(host, "RaisingBot", "--log", str(log))
    for round_ in range(2):  # every time, not once
        h.send("position startpos", "go movetime 300")
        got = h.expect("bestmove")
        assert "info string error: bot failed: KeyError: 'Pick'" in got
        assert legal([], got[-1].split()[1])
        wait_for(lambda n=round_: sum("Traceback" in line for line in h.stderr) > n)
    assert any("KeyError: 'Pick'" in line for line in h.stderr)
    assert any("in think" in line for line in h.stderr)
    h.send("quit")
    assert h.wait_exit() == 0
    text = log.read_text()
    assert text.count(" ! Traceback (most recent call last):") == 2
    assert " ! KeyError: 'Pick'" in text


def test_strict_exits_1_after_the_traceback(host: Callable[..., EnginePipe]) -> None:
    h = tak_host(host, "RaisingBot", "--strict")
    h.send("position startpos", "go movetime 300")
    with pytest.raises(AssertionError, match="engine exited"):
        h.expect("bestmove")
    assert h.wait_exit() == 1
    wait_for(lambda: any("KeyError: 'Pick'" in line for line in h.stderr))
    assert not any(line.startswith("bestmove") for line in h.seen)


@pytest.mark.parametrize(
    ("bot", "said"),
    [
        ("NoneBot", "think returned None, not an action"),
        ("IllegalBot", "not a legal action here"),
        ("OtherGameBot", "not a legal action here"),
    ],
)
def test_a_bad_action_is_said_and_answered_for(
    host: Callable[..., EnginePipe], bot: str, said: str
) -> None:
    h = tak_host(host, bot)
    h.send("position startpos moves a1", "go movetime 300")
    got = h.expect("bestmove")
    errors = [line for line in got if line.startswith("info string error: bot failed: ")]
    assert len(errors) == 1 and said in errors[0], got
    assert legal(["a1"], got[-1].split()[1])
    wait_for(lambda: any(said in line for line in h.stderr))


def test_an_overrun_is_said(host: Callable[..., EnginePipe]) -> None:
    h = tak_host(host, "SlowBot")
    h.send("position startpos", "go movetime 200")
    got = h.expect("bestmove")
    assert any(line.startswith("info string error: bot overran its time: ") for line in got)
    assert legal([], got[-1].split()[1])


# ---- nothing but the host's lines on stdout ----------------------------------------------


def test_a_bot_writing_to_file_descriptor_1_cannot_answer(host: Callable[..., EnginePipe]) -> None:
    h = tak_host(host, "StdoutBot")
    h.send("position startpos", "go movetime 300")
    got = h.expect("bestmove")
    h.ping()
    answers = [line for line in h.seen if line.startswith("bestmove")]
    assert answers == [got[-1]] and answers[0] not in ("bestmove e5", "bestmove e4")
    wait_for(lambda: "bestmove e5" in h.stderr and "bestmove e4" in h.stderr)


def test_a_report_cannot_inject_a_line(host: Callable[..., EnginePipe]) -> None:
    h = tak_host(host, "InjectingBot")
    h.send("position startpos", "go movetime 300")
    got = h.expect("bestmove")
    h.ping()
    assert [line for line in h.seen if line.startswith("bestmove")] == [got[-1]]
    assert got[-1] not in ("bestmove e5", "bestmove e4")
    errors = [line for line in got if line.startswith("info string error: bot report: ")]
    assert [e.split()[5] for e in errors] == ["pv", "nodes", "score_cp", "string"], got


# ---- one bestmove per go -------------------------------------------------------------------


def test_every_go_after_stop_is_answered(host: Callable[..., EnginePipe]) -> None:
    """The issue's reproduction: four gos, four bestmoves (two of them refusals)."""
    h = host("--game", "tak", "--bot", "random")
    h.handshake()
    h.send("teinewgame 5", "position startpos", "go infinite")
    h.ping()
    h.send("stop", "go movetime 50", "go movetime 50", "go movetime 50")
    time.sleep(0.5)
    h.ping()
    answers = [line for line in h.seen if line.startswith("bestmove")]
    assert len(answers) == 4, h.seen
    # the go after stop waits its turn and is searched; a go read while that search runs
    # is refused (one error line, bestmove -- in turn), one read after it is searched too
    refusals = [line for line in h.seen if "go while a search is running" in line]
    assert answers.count("bestmove --") == len(refusals), h.seen
    assert all(legal([], a.split()[1]) for a in answers[:2])
    assert all(a == "bestmove --" or legal([], a.split()[1]) for a in answers[2:])


def test_every_go_is_answered_over_tei_serve() -> None:
    """PTN Ninja's pattern: three gos, three bestmoves, each for its own position."""
    server = Server("--bot", "tests.support.engines.bad_bots:UnhurriedBot")
    client = Client(server.url)
    try:
        client.send("tei")
        client.expect("teiok")
        client.send("teinewgame 5", "position startpos", "go infinite")
        seen = client.ping()
        client.send(
            "stop",
            "position startpos moves a1",
            "go",
            "stop",
            "position startpos moves a1 e5",
            "go",
        )
        seen += client.ping()
        client.send("stop")
        seen += client.ping()
        time.sleep(0.3)
        seen += client.ping()
        answers = [line.split()[1] for line in seen if line.startswith("bestmove")]
        assert len(answers) == 3, seen
        assert legal([], answers[0]) and legal(["a1"], answers[1])
        assert legal(["a1", "e5"], answers[2])
    finally:
        client.close()
        server.close()


# ---- a bot module that cannot be loaded ----------------------------------------------------

BROKEN = {
    "syntax": ("class Bot(:\n    pass\n", "broken_mod.py:1: SyntaxError"),
    "inner-import": ("import os\nimport no_such_module_xyz\n", "broken_mod.py:2: "),
    "raises": ("x = 1\nraise RuntimeError('at import')\n", "broken_mod.py:2: RuntimeError"),
    "not-a-bot": ("x = 1\n\n\nclass MyBot:\n    pass\n", "broken_mod.py:4: MyBot is not a"),
    "no-class": ("x = 1\n", "broken_mod.py: no 'MyBot' in module 'broken_mod'"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_bot_that_cannot_load_gets_one_tidy_message(tmp_path: Path, case: str) -> None:
    source, said = BROKEN[case]
    (tmp_path / "broken_mod.py").write_text(source)
    done = tei("engine", "--bot", "broken_mod:MyBot", path=str(tmp_path), timeout=WAIT)
    assert done.returncode == 2
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("tei engine: cannot load bot 'broken_mod:MyBot': ")
    assert said in done.stderr and "Traceback" not in done.stderr
    assert "games available" not in done.stderr
