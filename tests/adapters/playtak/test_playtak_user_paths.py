"""What a bot author meets with `tei playtak`: their own `module:Class` bot (pondering
too, named by its declared name), typos in the server URL, the seek's komi, passwords
the server refuses, the log in PTN with the winner, records with the engine's scores,
unique record names, and a log file that cannot be written."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
import trio

from adapters.playtak import protocol as p
from adapters.playtak.live_game import LiveGame, rules_game, write_record
from adapters.referee.engines import EngineSpec
from rules.tak.ptn import PtnGame
from tei.cli import main
from tests.support import ROOT

pytestmark = pytest.mark.process

TEI = [sys.executable, "-m", "tei", "playtak"]

#: a bot of a user's own, in a module of theirs: the middle legal move, a pv of two
USER_BOT = """
from bots.base import Bot, Info



class CentreBot(Bot):
    name = "centre"
    games = ("tak",)

    def think(self, game, limits, stop, report):
        legal = sorted(game.legal(), key=game.format_action)
        action = legal[len(legal) // 2]
        game.play(action)
        reply = [] if game.result is not None else [game.format_action(next(iter(game.legal())))]
        game.undo()
        report(Info(depth=2, score_cp=12, pv=(game.format_action(action), *reply)))
        return action
"""


@pytest.fixture
def user_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "centre_bot.py").write_text(USER_BOT)
    monkeypatch.syspath_prepend(str(folder))
    return folder


def test_a_user_bot_is_named_by_the_name_it_declares(user_bot: Path) -> None:
    assert EngineSpec.builtin("tak", "centre_bot:CentreBot").name == "centre"
    assert EngineSpec.builtin("tak", "centre_bot:NoSuchClass").name == "centre_bot:NoSuchClass"
    assert EngineSpec.builtin("tak", "random").name == "random"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--server", "ws:/127.0.0.1:23462/ws"], "bad server address 'ws:/127.0.0.1:23462/ws'"),
        (["--server", "wss//playtak.com/ws"], "bad server address 'wss//playtak.com/ws'"),
        (["--server", "tcp://host:1/path"], "more than host[:port]"),
        (["--seek", "5 60 1 A 2.5"], "komi '2.5' is not a whole number of half-flats 0..8"),
        (["--user", "alice", "--password", "abc"], "password of alice (3 characters)"),
        (["--user", "alice", "--password", "a b c d e"], "(9 characters with a space)"),
        (["--user", "al", "--password", "secret1"], "the user name 'al'"),
        (["--log", "/nonexistent/folder/bot.log"], "--log '/nonexistent/folder/bot.log'"),
        (["--bot", "nosuchbot"], "known: random, greedy, search, or give module:Class"),
    ],
)
@pytest.mark.parametrize("print_config", [False, True])
def test_settings_the_server_would_refuse_exit_2_before_connecting(
    args: list[str], message: str, print_config: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--seek", "5 60 0", "--server", "tcp://127.0.0.1:1", *args]
    assert main(["playtak", *argv, *["--print-config"] * print_config]) == 2
    err = capsys.readouterr().err
    assert message in err and "secret1" not in err


async def test_a_refused_login_is_said_in_words(nursery: trio.Nursery) -> None:
    from tests.support.playtak.bridges import serve_script
    from tests.support.playtak.lines import LineClient

    async def refuse(conn: LineClient) -> None:
        await conn.send("Welcome!")
        await conn.send("Login or Register")
        for _ in await conn.expect("Login *"):
            await conn.send("NOK")

    port = await serve_script(nursery, refuse)
    argv = ["--user", "CentreBot", "--password", "secret1", "--seek", "5 60 0"]
    done = await trio.run_process(
        [*TEI, *argv, "--server", f"tcp://127.0.0.1:{port}"], capture_stderr=True, check=False
    )
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "the server refused the login of 'CentreBot' (NOK" in err
    assert "Login(" not in err and "secret1" not in err


def _live(game_id: int, began: datetime, white: str = "alice") -> LiveGame:
    line = f"Game Start {game_id} {white} vs bob white 5 60 0 0 21 1 0 0 0 0 0"
    start = p.parse_server_line(line)
    assert isinstance(start, p.GameStart)
    return LiveGame.begin(start, 0, rules_game(start), 0.0, began, False)


def test_records_of_games_with_the_same_id_and_second_never_overwrite(tmp_path: Path) -> None:
    began = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    paths = [
        write_record(_live(1, began), result, tmp_path, "here") for result in ("R-0", "0-F", "1-0")
    ]
    assert len(set(paths)) == 3
    assert [PtnGame.parse(path.read_text()).tag("Result") for path in paths] == [
        "R-0",
        "0-F",
        "1-0",
    ]
    assert paths[1].name == "playtak-1-20260102-030405-alice-vs-bob-2.ptn"


def test_a_server_name_with_control_characters_is_escaped_in_the_record(tmp_path: Path) -> None:
    began = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    path = write_record(_live(2, began, "al\x1b[31mice\x07"), "R-0", tmp_path, "here")
    text = path.read_text()
    assert "\x1b" not in text and "\x07" not in text
    assert PtnGame.parse(text).tag("Player1") == "al\\x1b[31mice\\x07"


async def test_a_user_bot_ponders_logs_ptn_and_the_winner_and_scores_its_record(
    nursery: trio.Nursery, tmp_path: Path, user_bot: Path
) -> None:
    """Two `tei playtak` on the local server: our own bot (module:Class, --ponder) and a
    built-in one whose --log cannot be written (/dev/full: said once, no traceback, the
    game is played all the same and the run ends 0)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(user_bot), os.getcwd()]))
    ours = ["--bot", "centre_bot:CentreBot", "--ponder", "--password", "secret1"]
    ours += ["--seek", "4 60 3", "--ptn-dir", str(tmp_path / "games")]
    ours += ["--log", str(tmp_path / "bot.log")]
    theirs = ["--bot", "random", "--log", "/dev/full"]
    results = await one_game(nursery, env, ours, theirs, "centrebot")
    err = results["theirs"].stderr.decode()
    assert err.count("cannot write the log /dev/full (No space left on device)") == 1
    assert "Traceback" not in err and "--- Logging error ---" not in err
    log = (tmp_path / "bot.log").read_text()
    assert "pondering on" in log
    (record,) = (tmp_path / "games").glob("*.ptn")
    ptn = PtnGame.parse(record.read_text())
    we_are = 0 if ptn.tag("Player1") == "centrebot" else 1
    ours_plies = [ply for i, ply in enumerate(ptn.plies) if i % 2 == we_are]
    theirs_plies = [ply for i, ply in enumerate(ptn.plies) if i % 2 != we_are]
    assert ours_plies and all("+0.12/2 " in " ".join(ply.comments) for ply in ours_plies)
    assert not any(ply.comments for ply in theirs_plies)
    first = ptn.plies[0].move.rstrip("'*")
    assert f": we play {first}" in log or f" plays {first}" in log  # moves in PTN
    result = ptn.tag("Result")
    won = result in (("R-0", "F-0", "1-0"), ("0-R", "0-F", "0-1"))[we_are]
    words = "we won" if won else "a draw" if result == "1/2-1/2" else "we lost"
    assert f"game 1 over: {result}, {words}" in log


async def test_a_bot_that_fails_on_playtak_is_said_in_the_log(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """A module:Class bot that raises on every move: the host's stand-ins are played, and
    every failure is said in our log with the exception (never silently)."""
    tests = str(ROOT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([tests, os.getcwd()]))
    ours = ["--bot", "tests.support.engines.bad_bots:RaisingBot", "--password", "secret1"]
    ours += ["--seek", "4 60 3", "--log", str(tmp_path / "bot.log")]
    await one_game(nursery, env, ours, ["--bot", "random"], "raiser")
    log = (tmp_path / "bot.log").read_text()
    said = [line for line in log.splitlines() if "our bot failed" in line]
    assert said and all("(error: KeyError: 'Pick')" in line for line in said)
    assert "we play" in log  # the stand-ins were played


async def one_game(
    nursery: trio.Nursery, env: dict[str, str], ours: list[str], theirs: list[str], user: str
) -> dict[str, subprocess.CompletedProcess[bytes]]:
    """One game between two `tei playtak` on a local server: `ours` (logged in as `user`,
    seeking) and `theirs` (accepting); both must end with status 0."""
    from adapters.playtak.server.listeners import LocalServer

    server = LocalServer()
    await nursery.start(server.serve)
    common = ["--server", f"tcp://127.0.0.1:{server.tcp_port}", "--games", "1"]
    common += ["--move-overhead", "100"]
    results: dict[str, subprocess.CompletedProcess[bytes]] = {}

    async def run(name: str, argv: list[str]) -> None:
        results[name] = await trio.run_process(
            [*TEI, *common, *argv], env=env, capture_stdout=True, capture_stderr=True, check=False
        )

    with trio.fail_after(120):
        async with trio.open_nursery() as games:
            games.start_soon(run, "ours", ["--user", user, *ours])
            await server.wait_for(lambda: server.core.seeks, f"the seek of {user}", 60)
            games.start_soon(run, "theirs", ["--accept-from", user, *theirs])
    for name, done in results.items():
        assert done.returncode == 0, (name, done.stderr.decode()[-3000:])
    return results
