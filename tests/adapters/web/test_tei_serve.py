"""`tei serve` over real websockets on 127.0.0.1: what PTN Ninja sends, origins, limits,
bad input, crashing engines and vanishing clients."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import websocket

from rules.registry import game_class
from tei.lines import MAX_MESSAGE_LINES
from tei.transcript import TranscriptEntry
from tests.support.engines.procs import alive, fake
from tests.support.fixtures import Started
from tests.support.serve import Client, Server, wait_gone

pytestmark = pytest.mark.process

StartServer = Callable[..., Server]


@pytest.fixture
def start() -> Iterator[StartServer]:
    launch = Started(Server)
    yield launch
    for server in launch.made:
        engines = server.children()
        server.close()  # SIGTERM: the server stops its engines before it exits
        assert server.proc.returncode == 0, server.stderr
        for pid in engines:
            assert wait_gone(pid), f"engine {pid} outlived the server"


@pytest.fixture
def clients() -> Iterator[list[Client]]:
    opened: list[Client] = []
    yield opened
    for client in opened:
        client.close()


def connect(server: Server, clients: list[Client], origin: str | None = None) -> Client:
    client = Client(server.url, origin)
    clients.append(client)
    return client


def live_session(server: Server, clients: list[Client], origin: str | None = None) -> Client:
    """A new session that has answered `isready`: the server serves."""
    client = connect(server, clients, origin)
    client.ping()
    return client


def forty_moves() -> list[str]:
    """40 plies of a 6x6 Tak game that is not over."""
    game = game_class("tak").new({"size": "6"})
    moves: list[str] = []
    while len(moves) < 40:
        for action in game.legal():
            text = game.format_action(action)
            game.play_text(text)
            if game.result is None:
                moves.append(text)
                break
            game.undo()
    return moves


def ptn_ninja_handshake(client: Client) -> list[str]:
    """`tei`, then `setoption` for every declared option (its default), then `isready`."""
    lines = client.handshake()
    for line in lines:
        match = re.match(r"option name (\S+) type (\S+)(?: default (\S+))?", line)
        if match and match.group(2) != "button":
            client.send(f"setoption name {match.group(1)} value {match.group(3) or ''}")
    client.ping()
    return lines


def search(client: Client, *messages: str) -> str:
    client.send(*messages)
    lines = client.expect("bestmove")
    return lines[-1].split()[1]


def test_the_ptn_ninja_analysis_sequence(start: StartServer, clients: list[Client]) -> None:
    server = start("--bot", "random")
    client = connect(server, clients, origin="https://ptn.ninja")
    ptn_ninja_handshake(client)
    client.send("setoption name HalfKomi value 4", "teinewgame 6", "isready")
    client.expect("readyok")
    tps = "x6/x6/x6/x6/x6/x6 1 1"
    assert search(client, f"position tps {tps} moves b2 e2 c2", "go movetime 300") != "--"
    client.send(f"position tps {tps} moves b2 e2 c2", "go infinite")
    client.ping()  # answered during the search
    client.send("stop")
    assert client.expect("bestmove")[-1] != "bestmove --"
    moves = forty_moves()
    assert search(client, "position startpos moves " + " ".join(moves), "go movetime 200") != "--"
    after = client.ping()
    assert not [line for line in after if line.startswith("bestmove")], after  # exactly one
    client.close()  # no quit, as PTN Ninja does; a reconnect starts again with tei
    again = connect(server, clients, origin="https://ptn.ninja")
    ptn_ninja_handshake(again)


def test_a_tak_server_declares_only_tak_options(start: StartServer, clients: list[Client]) -> None:
    server = start("--bot", "search")
    lines = ptn_ninja_handshake(connect(server, clients, origin="https://ptn.ninja"))
    names = {line.split()[2] for line in lines if line.startswith("option name ")}
    assert {"HalfKomi", "Flats", "Caps", "Level"} <= names
    assert not names & {"Game", "Players", "DealSeed", "Tiles", "AllowMirror", "BonusPer"}
    assert lines[-1] == "teiok"


def test_v1_teinewgame_with_half_komi(start: StartServer, clients: list[Client]) -> None:
    server = start("--bot", "random", "--tei-v1")
    client = connect(server, clients)
    lines = ptn_ninja_handshake(client)
    assert any(line.startswith("size ") for line in lines), lines
    client.send("teinewgame size 6 halfkomi 4", "isready")
    got = client.expect("readyok")
    assert not [line for line in got if "error" in line], got
    assert search(client, "position startpos moves a1 f6", "go movetime 200") != "--"
    client.send("teinewgame size 6 halfkomi 1001", "isready")  # the core takes 0..1000
    assert any("takes 0..1000, not '1001'" in line for line in client.expect("readyok"))


def test_options_from_the_command_line_hold_in_every_session(
    start: StartServer, clients: list[Client]
) -> None:
    server = start("--bot", "random", "--option", "HalfKomi=4")
    for _ in range(2):  # a second session starts from the command line's value again
        client = connect(server, clients)
        lines = client.handshake()
        assert "option name HalfKomi type spin default 4 min 0 max 1000" in lines, lines
        client.send("setoption name HalfKomi value 2", "isready")
        client.expect("readyok")
        client.close()


def test_several_lines_in_one_message_and_bad_input(
    start: StartServer, clients: list[Client]
) -> None:
    server = start("--bot", "random")
    client = connect(server, clients)
    other = connect(server, clients)
    client.send("tei\nisready")
    client.expect("readyok")
    client.ws.send_binary(b"\x00\x01tei")
    assert "binary message of 5 bytes ignored" in client.expect("info string error")[-1]
    client.send("position startpos moves " + "a1 " * 350_000)  # a 1 MB message
    error = client.expect("info string error")[-1]
    assert "line longer than 65536 bytes ignored" in error
    assert len(error) < 200
    client.ping()
    client.ws.send(b"\xff\xfe bad utf-8", opcode=websocket.ABNF.OPCODE_TEXT)
    # the websocket layer drops a connection whose text is not UTF-8
    with pytest.raises(websocket.WebSocketConnectionClosedException):
        client.close_frame()
    other.ping()  # the other session goes on


def test_origins_refused_and_allowed(start: StartServer, clients: list[Client]) -> None:
    server = start("--bot", "random", "--allow-origin", "http://my.example:8080")
    for origin in ("https://evil.example", "http://localhost.evil.example", "null"):
        with pytest.raises(websocket.WebSocketBadStatusException) as refused:
            connect(server, clients, origin=origin)
        assert refused.value.status_code == 403
    allowed = ("https://ptn.ninja", "http://localhost:5173", "http://[::1]:5173")
    for origin in (*allowed, "http://my.example:8080"):
        live_session(server, clients, origin=origin).close()


def test_any_origin_when_asked(start: StartServer, clients: list[Client]) -> None:
    server = start("--bot", "random", "--allow-any-origin")
    live_session(server, clients, origin="https://anything.example")


def test_sessions_beyond_the_limit_are_refused_with_a_reason(
    start: StartServer, clients: list[Client]
) -> None:
    server = start("--bot", "random", "--max-sessions", "1")
    first = live_session(server, clients)
    second = connect(server, clients)
    assert second.close_frame() == (1013, "too many sessions: at most 1 at a time")
    first.close()
    server.wait_log("session-1 closed")
    live_session(server, clients)


def test_an_idle_session_is_closed(start: StartServer, clients: list[Client]) -> None:
    server = start("--bot", "random", "--idle-timeout", "0.5")
    client = connect(server, clients)
    assert client.close_frame() == (1000, "idle for 0.5 s")


def test_an_engine_crash_mid_session_is_told_and_the_server_lives(
    start: StartServer, clients: list[Client], tmp_path: Path
) -> None:
    log = tmp_path / "ws.log"
    server = start("--log", str(log), "--", *fake("crash"))
    client = connect(server, clients)
    client.handshake()
    client.send("position startpos", "go movetime 1000")
    lines = client.expect("bestmove")
    assert "info string error: the engine exited (exit code 3)" in lines
    assert lines[-1] == "bestmove --"
    assert client.close_frame() == (1011, "the engine exited (exit code 3)")
    again = connect(server, clients)
    again.handshake()
    entries = [TranscriptEntry.parse(line) for line in log.read_text().splitlines()]
    assert ("session-1", ">", "go movetime 1000") in [
        (e.engine, e.direction, e.line) for e in entries
    ]
    assert {e.engine for e in entries} == {"session-1", "session-2"}


def test_an_engine_that_answers_twice_gives_one_bestmove(
    start: StartServer, clients: list[Client]
) -> None:
    server = start("--", *fake("two-bestmoves"))
    client = connect(server, clients)
    client.send("tei", "position startpos", "go movetime 100")
    client.expect("bestmove")
    assert not [line for line in client.ping() if line.startswith("bestmove")]


def test_a_client_vanishing_mid_search_stops_the_engine_and_its_helpers(
    start: StartServer, clients: list[Client], tmp_path: Path
) -> None:
    log = tmp_path / "ws.log"
    server = start(
        "--log", str(log), "--", *fake("ignore-quit", "--ignore-sigterm", "--spawn-child")
    )
    client = connect(server, clients)
    client.handshake()
    client.send("position startpos", "go infinite")
    client.expect("info")
    [engine] = server.children()
    helper = int(re.findall(r"! child (\d+)", log.read_text())[0])
    assert alive(engine) and alive(helper)
    client.vanish()
    assert wait_gone(engine), "the engine outlived its session"
    assert wait_gone(helper), "a process the engine started outlived its session"
    other = connect(server, clients)
    other.handshake()


def test_a_hosted_bot_session_ends_with_its_client(
    start: StartServer, clients: list[Client]
) -> None:
    server = start("--bot", "tests.tei.host.test_engine_host:PatientBot", "--max-sessions", "1")
    client = connect(server, clients)
    client.send("position startpos", "go infinite")
    client.expect("info")
    client.vanish()
    server.wait_log("session-1 closed")  # the search was stopped, the session is over
    live_session(server, clients)


def test_bad_command_lines_exit_2() -> None:
    import subprocess
    import sys

    for args in (
        ["--allow-origin", "ptn.ninja"],
        ["--max-sessions", "0"],
        ["--idle-timeout", "-1"],
        ["--bot", "random", "--", "tiltak"],
        ["--bot", "no-such-bot"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "tei", "serve", "--port", "0", *args],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert done.returncode == 2, (args, done.stderr)
        assert "tei serve" in done.stderr or "error" in done.stderr, done.stderr


def test_a_message_of_4_mib_of_newlines_costs_nothing_and_lines_are_capped(
    start: StartServer, clients: list[Client], tmp_path: Path
) -> None:
    """Before: 4 million empty lines, each through the host and into the log (minutes of
    CPU, 62 MB of log), going on after the client left."""
    log = tmp_path / "ws.log"
    server = start("--bot", "random", "--log", str(log))
    client = connect(server, clients)
    client.send("\n" * ((4 << 20) - 100) + "isready")
    assert client.expect("readyok") == ["readyok"]
    client.send("isready\n" * 1000)
    got: list[str] = []
    while got.count("readyok") < MAX_MESSAGE_LINES or not any("error" in g for g in got):
        got.append(client.line())
    assert f"a message of more than {MAX_MESSAGE_LINES} lines" in "".join(got)
    assert got.count("readyok") == MAX_MESSAGE_LINES
    client.send("isready")
    assert client.expect("readyok") == ["readyok"]  # nothing more came from the 1000
    assert log.stat().st_size < 100_000
    client.send("\n" * ((4 << 20) - 100))
    client.vanish()
    server.wait_log("session-1 closed")
    assert log.stat().st_size < 100_000
