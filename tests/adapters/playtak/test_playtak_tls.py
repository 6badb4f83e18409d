"""wss:// as users meet it: the local server behind a TLS terminator on 127.0.0.1, with
certificates made by the test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from adapters.playtak.server.listeners import LocalServer
from adapters.playtak.server.lobby import ServerSettings
from adapters.playtak.transport import ConnectSettings, open_transport
from tei.cli import main
from tests.support.playtak.bridges import make_bridge
from tests.support.playtak.tls import Authority, TlsTerminator, serve_silence
from tests.support.playtak.waiting import Tally, watch_log

pytestmark = pytest.mark.process

TEI = [sys.executable, "-m", "tei", "playtak", "--bot", "random", "--move-overhead", "100"]


async def terminated(
    nursery: trio.Nursery, authority: Authority, *names: str
) -> tuple[LocalServer, str]:
    """The local server behind a TLS terminator whose certificate names `names`; its URL."""
    server = LocalServer(ServerSettings(seed=5))
    await nursery.start(server.serve)
    assert server.ws_port is not None
    terminator = TlsTerminator(authority.server_context(*names), server.ws_port)
    port = await nursery.start(terminator.serve)
    return server, f"wss://127.0.0.1:{port}/ws"


async def run_cli(argv: list[str], env: dict[str, str], limit: float) -> tuple[int, str, str]:
    """`tei playtak ARGS` as a process; its status, stdout and stderr, within `limit` s."""
    with trio.move_on_after(limit):
        done = await trio.run_process(
            [*TEI, *argv], env=env, capture_stdout=True, capture_stderr=True, check=False
        )
        return done.returncode, done.stdout.decode(), done.stderr.decode()
    raise AssertionError(f"tei playtak {' '.join(argv)} still ran after {limit:g} s")


def env_without_extra_trust() -> dict[str, str]:
    """The environment with the system's trust only (no test authority anywhere)."""
    env = dict(os.environ)
    env.pop("SSL_CERT_FILE", None)
    return env


async def test_a_full_game_over_wss_with_ca_file_and_ssl_cert_file(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    authority = Authority(tmp_path)
    server, url = await terminated(nursery, authority, "127.0.0.1")
    seeker = make_bridge(
        url,
        user="alice",
        seek="4 60 3 W 0 15 0 1 0",
        ptn_dir=tmp_path,
        connect=ConnectSettings(ca_file=authority.pem),
    )
    done = Tally("games of the in-process bot")

    async def seek() -> None:
        await seeker.run()
        done.add()

    nursery.start_soon(seek)
    env = dict(env_without_extra_trust(), SSL_CERT_FILE=str(authority.pem))
    argv = ["--server", url, "--accept-from", "alice", "--games", "1"]
    code, out, err = await run_cli(argv, env, limit=60)
    assert code == 0, err[-2000:]
    await done.reach(1, timeout=20)
    assert out.startswith("game 1: ")
    assert [game_id for game_id, _result, _path in seeker.finished] == [1]
    assert server.core.finished[0].result == out.split()[2]


@pytest.mark.parametrize(
    ("names", "trust", "words"),
    [
        (("127.0.0.1",), False, "certificate verify failed: unable to get local issuer"),
        (("other.example",), True, "certificate names another host: IP address mismatch"),
    ],
    ids=["untrusted", "wrong-host"],
)
async def test_a_certificate_that_does_not_verify_stops_the_bot_with_status_1(
    nursery: trio.Nursery, tmp_path: Path, names: tuple[str, ...], trust: bool, words: str
) -> None:
    authority = Authority(tmp_path)
    _server, url = await terminated(nursery, authority, *names)
    argv = ["--server", url, "--seek", "5 60 0"]
    if trust:
        argv += ["--ca-file", str(authority.pem)]
    code, out, err = await run_cli(argv, env_without_extra_trust(), limit=20)
    assert code == 1, err[-2000:]
    assert f"cannot connect to {url}: TLS handshake failed" in err
    assert words in err
    assert "reconnecting" not in err and out == ""


def test_a_bad_ca_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    not_pem = tmp_path / "not.pem"
    not_pem.write_text("hello\n")
    for path, words in [(not_pem, "cannot load certificates"), (tmp_path / "none.pem", "No such")]:
        argv = ["--server", "wss://127.0.0.1:1/ws", "--seek", "5 60 0", "--ca-file", str(path)]
        assert main(["playtak", *argv]) == 2
        err = capsys.readouterr().err
        assert f"--ca-file '{path}'" in err and words in err


def test_help_lists_the_tls_options() -> None:
    out = subprocess.run([*TEI, "--help"], capture_output=True, text=True, check=True).stdout
    assert "--ca-file PEM" in out and "--insecure" in out and "SSL_CERT_FILE" in out


async def test_a_tls_handshake_that_never_ends_times_out_and_is_retried(
    nursery: trio.Nursery,
) -> None:
    accepted = Tally("connections to the silent server")
    port = await serve_silence(nursery, accepted)
    bridge = make_bridge(
        f"wss://127.0.0.1:{port}/ws", seek="5 60 0", connect=ConnectSettings(tls_timeout=0.3)
    )
    with watch_log("the TLS handshake timed out after 0.3 s") as log:
        async with trio.open_nursery() as inner:
            inner.start_soon(bridge.session.run, bridge)
            await accepted.reach(2)
            await log.matches.reach(1)
            inner.cancel_scope.cancel()
    assert log.with_text()[0].startswith(f"cannot connect to wss://127.0.0.1:{port}/ws: ")


async def test_insecure_connects_and_warns_on_every_connect(
    nursery: trio.Nursery, tmp_path: Path
) -> None:
    _server, url = await terminated(nursery, Authority(tmp_path), "other.example")
    with watch_log("is NOT verified") as log:
        for _ in range(2):
            async with open_transport(url, ConnectSettings(insecure=True)) as transport:
                assert await transport.receive_line() == "Welcome!"
    assert log.matches.count == 2
