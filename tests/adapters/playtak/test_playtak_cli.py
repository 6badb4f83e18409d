"""`tei playtak` and the local server as real processes."""

from __future__ import annotations

import math
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from rules.tak.ptn import PtnGame
from tei.cli import main
from tei.cli.playtak import site_name
from tei.lines import LineSplitter
from tests.support.engines.procs import alive, fake, mentioning
from tests.support.playtak.lines import LineClient
from tests.support.playtak.processes import (
    SERVER,
    TEI,
    seeker_and_acceptor,
    server_process,
    tcp_server,
)

pytestmark = pytest.mark.process


def test_help_lists_every_option() -> None:
    out = subprocess.run([*TEI, "--help"], capture_output=True, text=True, check=True).stdout
    for option in [
        "--engine",
        "--bot",
        "--engine-option",
        "--user",
        "--password",
        "--password-env",
        "--guest-token",
        "--seek",
        "--accept-from",
        "--games",
        "--accept-draws",
        "--seek-rotate",
        "--accept",
        "--accept-size",
        "--accept-time",
        "--accept-inc",
        "--accept-komi",
        "--accept-color",
        "--accept-rated",
        "--accept-tournament",
        "--accept-opponents",
        "--allow",
        "--block",
        "--resign",
        "--draw",
        "--undo",
        "--greeting",
        "--goodbye",
        "closest to our first --seek",
        "--move-overhead",
        "--max-move-time",
        "--ptn-dir",
        "--server",
        "--protocol",
        "--ping-interval",
        "--dead-after",
        "--max-backoff",
        "--live",
        "--live-public",
        "--log",
        "--log-max-bytes",
        "--log-backups",
        "--verbose",
        "--config",
        "--print-config",
        "wss://playtak.com/ws",
        "examples:",
    ]:
        assert option in out, option
    server_help = subprocess.run(
        [*SERVER, "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--ws-port" in server_help and "--reconnect-time" in server_help
    assert "--tournament-reconnect-time" in server_help and "--bot NAME" in server_help


def test_records_name_the_server_they_were_played_on() -> None:
    assert site_name("wss://playtak.com/ws") == "PlayTak.com"
    assert site_name("tcp://beta.playtak.com:10002") == "PlayTak.com"
    assert site_name("ws://127.0.0.1:9999/ws") == "127.0.0.1:9999"
    assert site_name("127.0.0.1:10000") == "127.0.0.1:10000"


def test_bad_arguments_exit_2_with_a_message(capsys: pytest.CaptureFixture[str]) -> None:
    """(Each numeric option's own range: tests/tei/cli/test_cli_numbers.py.)"""
    for args, message in [
        ([], "give --seek SPEC, --accept or --accept-from NAME"),
        (["--seek", "5 180"], "at least 'size time increment'"),
        (["--seek", "5 180 10", "--server", "http://x"], "bad server address"),
        (["--seek", "5 180 10", "--user", "alice", "--password-env", "NO_SUCH_VAR"], "password"),
        (["--seek", "5 180 10", "--bot", "nosuchbot"], "no bot 'nosuchbot'"),
        (["--seek", "5 180 10", "--guest-token", "Short"], "20 lower-case letters"),
        (["--seek", "5 180 10", "--engine-option", "Depth"], "NAME=VALUE"),
        (["--seek", "5 180 10", "--engine-option", "=3"], "'=3' is not NAME=VALUE"),
        (["--seek", "5 180 10", "--ping-interval", "100"], "longer than --ping-interval"),
        (["--seek", "5 180 10", "--dead-after", "20"], "longer than --ping-interval"),
        (["--seek", "5 180 10", "--ptn-dir", "/dev/null/games"], "cannot be written"),
        (["--seek", "5 180 10", "--seek", "9 60 0"], "size 9 is not 3..8"),
        (["--seek", "5 180 10", "--greeting", "hi {name}"], "unknown placeholder {name}"),
        (["--seek", "5 180 10", "--goodbye", "bye {"], "--goodbye 'bye {'"),
        (["--seek", "5 180 10", "--accept-size", "5"], "--accept-size filters the seeks"),
        (["--accept", "--accept-time", "9:1"], "--accept-time '9:1'"),
        (["--accept", "--block", "x"], "--block: 'x' is not a player name"),
        (["--accept", "--accept-opponents", "bots", "--protocol", "1"], "--protocol 2"),
        (["--accept", "--resign", "movecount=2"], "--resign: give score=N"),
        (["--accept", "--resign", "movecount=2 score=5 twosided=1"], "twosided needs"),
        (["--accept", "--draw", "movenumber=1 movecount=1 score=x"], "--draw: score='x'"),
        (["--accept", "--engine", "./x", "--ponder"], "--ponder works with bots (--bot"),
    ]:
        assert main(["playtak", *args]) == 2, args
        assert message in capsys.readouterr().err, args


async def test_two_command_line_bots_play_through_the_local_server(tmp_path: Path) -> None:
    async with server_process("--user", "alice:secret1") as (tcp_url, ws_url):
        env = dict(os.environ, ALICE_PW="secret1")
        common = ["--bot", "random", "--games", "1", "--move-overhead", "100"]
        seeker = [
            *TEI,
            *common,
            "--server",
            tcp_url,
            "--user",
            "alice",
            "--password-env",
            "ALICE_PW",
            "--seek",
            "4 60 3 W 0 15 0 1 0",
            "--ptn-dir",
            str(tmp_path / "ptn"),
            "--log",
            str(tmp_path / "alice.log"),
            "--log-max-bytes",
            "3000",
            "--log-backups",
            "99",
            "-v",
        ]
        acceptor = [*TEI, *common, "--server", ws_url, "--accept-from", "alice"]
        outcomes = await seeker_and_acceptor(tcp_url, seeker, acceptor, env)
    results = {"alice": outcomes["seeker"], "guest": outcomes["acceptor"]}
    for name, done in results.items():
        assert done.returncode == 0, (name, done.stderr.decode()[-2000:])
    line = results["guest"].stdout.decode().strip()
    assert line.startswith("game 1: ")
    assert results["alice"].stdout.decode().startswith(line + " (")
    records = list((tmp_path / "ptn").glob("*.ptn"))
    assert len(records) == 1
    record = PtnGame.parse(records[0].read_text())
    assert record.tag("Player1") == "alice"
    assert record.tag("Site") == tcp_url.removeprefix("tcp://")  # not playtak.com
    assert record.tag("Result") == line.split()[2]
    logs = sorted(tmp_path.glob("alice.log*"))
    assert len(logs) > 2 and (tmp_path / "alice.log.1").exists()  # rotated by size
    assert all(path.stat().st_size <= 3000 + 1000 for path in logs)
    log = "".join(path.read_text() for path in logs)
    assert "logged in as alice" in log and "secret1" not in log


async def test_sigterm_stops_cleanly_and_a_restart_resumes_the_game(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    from adapters.playtak.server.listeners import LocalServer
    from tests.support.playtak.bridges import FLAKY

    server = LocalServer()
    await nursery.start(server.serve)
    marker = str(tmp_path / "engine-of-this-test")
    engine = " ".join([*FLAKY, "--marker", marker])
    argv = [
        *TEI,
        "--engine",
        engine,
        "--server",
        f"tcp://127.0.0.1:{server.tcp_port}",
        "--guest-token",
        "abcdefghijklmnopqrst",
        "--seek",
        "5 60 0 W",
        "--games",
        "1",
        "--ptn-dir",
        str(tmp_path),
    ]
    bobby = await LineClient.connect(server.tcp_port or 0)
    await bobby.login("bobby")
    # a bot logs in once its Python process has started (its engine starts meanwhile):
    # under load that can take more than the 10 s a line may take, so those waits have
    # the test's whole budget
    starting = math.inf
    with trio.fail_after(60):
        first = await trio.lowlevel.open_process(argv, stderr=subprocess.DEVNULL)
        try:
            seek = (await bobby.expect("Seek new 1 Guest*", starting))[-1]
            guest = seek.split()[3]
            await bobby.send("Accept 1")
            opening = (await bobby.expect("Game#1 P *"))[-1]
            await bobby.send("Game#1 P " + ("E5" if "E5" not in opening else "A5"))
            await server.wait_for(lambda: len(server.core.games[1].moves) >= 3, "three plies")
            assert mentioning(marker)
            first.send_signal(15)
            assert await first.wait() == 0
        finally:
            first.kill()
        await bobby.expect(f"Message {guest} has disconnected*")
        assert mentioning(marker) == []  # the engine went with it
        second = await trio.lowlevel.open_process(
            argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        try:
            await bobby.expect(f"Message {guest} has reconnected.", starting)
            game = server.core.games[1]
            reply = game.game.format_action(game.game.legal()[0])
            await bobby.send("Game#1 " + _server_text(reply))
            await bobby.expect("OK")
            await bobby.expect("Game#1 *")  # the resumed bot answers
            await bobby.send("Game#1 Resign")
            out = await printed_on_a_clean_exit(second)
        finally:
            second.kill()
            await bobby.aclose()
    assert out.startswith("game 1: 1-0")
    assert mentioning(marker) == []
    record = PtnGame.parse(next(tmp_path.glob("*.ptn")).read_text())
    assert len(record.moves) == len(server.core.finished[0].moves)


async def printed_on_a_clean_exit(process: trio.Process) -> str:
    """Waits for the adapter to exit with status 0; the start of what it printed."""
    assert await process.wait() == 0
    assert process.stdout is not None
    return (await process.stdout.receive_some(4096)).decode()


async def _thinking_pids(
    stream: trio.abc.ReceiveStream, found: trio.MemorySendChannel[int]
) -> None:
    """Read the adapter's stderr to its end; send the pid of each search the engine starts
    (its `thinking (pid N)` line, logged by the driver with --verbose)."""
    splitter = LineSplitter()
    async with found:
        while data := await stream.receive_some(65536):
            for line in splitter.feed(data):
                if "thinking (pid " in line:
                    await found.send(int(line.rsplit("(pid ", 1)[1].rstrip(")")))


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_while_the_engine_thinks_stops_it_at_once(
    nursery: trio.Nursery, tmp_path: Path, signum: signal.Signals
) -> None:
    """The engine would think until stopped (the clock is 15 min): SIGTERM or Ctrl-C
    stops it and the adapter within seconds, and the record of the game finished before
    is kept."""
    from adapters.playtak.server.listeners import LocalServer

    server = LocalServer()
    await nursery.start(server.serve)
    argv = [
        *TEI,
        "--engine",
        shlex.join(fake("until-stop")),
        "--server",
        f"tcp://127.0.0.1:{server.tcp_port}",
        "--guest-token",
        "abcdefghijklmnopqrst",
        "--seek",
        "5 900 0 W",
        "--games",
        "2",
        "--ptn-dir",
        str(tmp_path),
        "--verbose",
    ]
    bobby = await LineClient.connect(server.tcp_port or 0)
    await bobby.login("bobby")
    adapter = await trio.lowlevel.open_process(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    found, pids = trio.open_memory_channel[int](10)
    assert adapter.stderr is not None
    nursery.start_soon(_thinking_pids, adapter.stderr, found)
    try:
        with trio.fail_after(60):
            for game in (1, 2):
                seek = (await bobby.expect("Seek new *", timeout=30))[-1]
                await bobby.send(f"Accept {seek.split()[2]}")
                engine = await pids.receive()
                if game == 1:
                    await bobby.send("Game#1 Resign")
        assert alive(engine)
        adapter.send_signal(signum)
        with trio.fail_after(5):  # far below the 15 minutes the engine may think
            status = await adapter.wait()
        assert status == (130 if signum == signal.SIGINT else 0)
        assert not alive(engine)
    finally:
        adapter.kill()
        await bobby.aclose()
    (record,) = tmp_path.glob("*.ptn")
    assert PtnGame.parse(record.read_text()).tag("Result") == "1-0"


async def test_a_bot_from_the_command_line_filters_greets_resigns_and_ignores_tells(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """The options of seeks to accept, resigning, chat and Tells, through the real command
    against the local server: a human's seek is left, a bot's taken; the engine that
    scores -9 resigns after two moves; a Tell is logged escaped and not obeyed."""
    from adapters.playtak.server.listeners import LocalServer
    from adapters.playtak.server.lobby import ServerSettings

    server = LocalServer(ServerSettings(bots=frozenset({"robo"})))
    await nursery.start(server.serve)
    port = server.tcp_port or 0
    alice = await LineClient.logged_in(port, "alice")
    robo = await LineClient.logged_in(port, "robo")
    for conn, name in ((alice, "alice"), (robo, "robo")):
        await conn.send("Seek 5 60 0 W 0 21 1 0 0 ")
        await conn.expect(f"Seek new * {name} *")
    log = tmp_path / "bot.log"
    argv = [
        *TEI,
        *("--engine", shlex.join(fake("good", "--score", "cp -900"))),
        *("--server", f"tcp://127.0.0.1:{port}", "--user", "bobby", "--password", "secret1"),
        *("--accept", "--accept-size", "5", "--accept-opponents", "bots"),
        *("--resign", "movecount=2 score=500", "--games", "1", "--log", str(log)),
        *("--greeting", "hi {opponent}, {me} here", "--goodbye", "gg {opponent}"),
    ]
    with trio.fail_after(60):
        bot = await trio.lowlevel.open_process(argv, stdout=subprocess.PIPE)
        try:
            await robo.expect("Game Start 1 *", timeout=30)
            await robo.expect("Tell <bobby> hi robo, bobby here")
            await robo.send("Tell bobby !resign \x1b[2J")
            for reply in ("E5", "D5"):
                await robo.send(f"Game#1 P {reply}")
                await robo.expect("Game#1 P *")
            await robo.expect("Game#1 Over 1-0")  # we were black: resigned
            await robo.expect("Tell <bobby> gg robo")
            out = await printed_on_a_clean_exit(bot)
        finally:
            bot.kill()
            for conn in (alice, robo):
                await conn.aclose()
    assert out.startswith("game 1: 1-0")
    (game,) = server.core.finished
    assert (game.white, game.black, len(game.moves)) == ("robo", "bobby", 4)
    text = log.read_text()
    assert "not accepting seek 1 of alice: alice is not a bot" in text
    assert "tell from robo (not a command; nothing done): !resign \\x1b[2J" in text
    assert "\x1b" not in text
    assert "game 1: resigning (movecount=2 score=500)" in text


def _server_text(ptn: str) -> str:
    from adapters.playtak.notation import ServerMove
    from rules.tak.move import Move

    return ServerMove.from_move(Move.from_ptn(ptn)).to_text()


def test_an_engine_that_cannot_start_ends_with_status_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--engine", "/nonexistent/engine", "--seek", "5 60 0", "--server", "tcp://127.0.0.1:1"]
    assert main(["playtak", *argv]) == 1
    assert "cannot start" in capsys.readouterr().err


def test_a_wrong_password_ends_with_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    with tcp_server("--user", "alice:secret1") as address:
        argv = ["--bot", "random", "--user", "alice", "--password", "wrong12"]
        assert main(["playtak", *argv, "--seek", "5 60 0", "--server", address]) == 1
    assert "wrong password" in capsys.readouterr().err


def test_the_local_server_answers_to_its_earlier_name() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "adapters.playtak.local_server", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "--ws-port" in done.stdout and "python -m adapters.playtak.server" in done.stdout


#: what a hostile server puts in names and chat: clear the screen, retitle the window,
#: a C1 CSI, a NUL
ESCAPES = ["\x1b[2J", "\x1b]0;owned\x07", "\x9b31m", "\x00"]


async def test_control_characters_of_the_server_are_escaped_on_stderr_and_in_the_log(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    """Shout, Tell, Message and error text, sender and player names reach stderr and
    --log with every control character escaped, not as raw bytes (with -v: shouts are
    logged at DEBUG, and every line read too)."""
    from tests.support.playtak.bridges import login_burst, serve_script

    clear, title, csi, nul = ESCAPES
    chat = [
        f"Shout <ev{clear}il> hi{title}",
        f"Tell <m{csi}allory> psst{nul}",
        f"ShoutRoom lobby <x{title}> y{clear}",
        f"Message {clear}welcome",
        f"Error:{title}nope",
    ]

    async def script(conn: LineClient) -> None:
        await login_burst(conn, extra=chat)
        await conn.expect("Seek *")
        await conn.send(f"Game Start 1 b{clear}ob vs Guest1 black 5 60 0 0 21 1 0 0 0 0 0")
        await conn.send("Game#1 Over 1-0")
        await trio.sleep(10)

    port = await serve_script(nursery, script)
    log = tmp_path / "bot.log"
    argv = [*TEI, "--bot", "random", "--games", "1", "--seek", "5 60 0 B", "-v"]
    argv += ["--server", f"tcp://127.0.0.1:{port}", "--log", str(log)]
    with trio.fail_after(60):
        done = await trio.run_process(argv, capture_stdout=True, capture_stderr=True)
    assert done.stdout.decode() == "game 1: 1-0\n"
    for text in (done.stderr.decode("utf-8"), log.read_text(encoding="utf-8")):
        assert not any(c in text for c in "\x1b\x07\x9b\x00"), text
        assert "hi\\x1b]0;owned\\x07" in text and "psst\\x00" in text  # escaped, not lost
        assert "m\\x9b31mallory" in text and "\\x1b[2Jwelcome" in text
        assert "game 1: b\\x1b[2Job vs Guest1" in text
