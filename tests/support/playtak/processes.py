"""`tei playtak` bots and the local server as real processes."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager, contextmanager

import trio

from tests.support.playtak.lines import LineClient

TEI = [sys.executable, "-m", "tei", "playtak"]
SERVER = [sys.executable, "-m", "adapters.playtak.server.listeners"]


@asynccontextmanager
async def server_process(*args: str) -> AsyncIterator[tuple[str, str]]:
    """The local server on free ports (with `args`): its tcp:// and ws:// URLs."""
    server = await trio.lowlevel.open_process(
        [*SERVER, "--port", "0", "--ws-port", "0", *args], stdout=subprocess.PIPE
    )
    try:
        assert server.stdout is not None
        banner = b""
        with trio.fail_after(20):
            while banner.count(b"\n") < 2:
                banner += await server.stdout.receive_some(4096)
        tcp_url, ws_url = (line.split()[-1] for line in banner.decode().splitlines()[:2])
        yield tcp_url, ws_url
    finally:
        server.terminate()
        await server.wait()


@contextmanager
def tcp_server(*args: str) -> Iterator[str]:
    """The local server on a free TCP port only (with `args`), from blocking code: its
    address."""
    with subprocess.Popen(
        [*SERVER, "--port", "0", "--no-websocket", *args], stdout=subprocess.PIPE, text=True
    ) as server:
        try:
            assert server.stdout is not None
            yield server.stdout.readline().split()[-1]
        finally:
            server.terminate()


async def seeker_and_acceptor(
    tcp_url: str,
    seeker: Sequence[str],
    acceptor: Sequence[str],
    env: Mapping[str, str] | None = None,
    timeout: float = 60,
) -> dict[str, subprocess.CompletedProcess[bytes]]:
    """Run the `seeker` bot until its seek is up, then the `acceptor` too, until both
    end; their outcomes by name. The seek comes first, so the acceptor's login burst
    replays it."""
    results: dict[str, subprocess.CompletedProcess[bytes]] = {}

    async def run(name: str, argv: Sequence[str]) -> None:
        results[name] = await trio.run_process(
            list(argv), env=env, capture_stdout=True, capture_stderr=True, check=False
        )

    watcher = await LineClient.connect(int(tcp_url.rsplit(":", 1)[1]))
    with trio.fail_after(timeout):
        async with trio.open_nursery() as nursery:
            try:
                await watcher.login("watcher")
                nursery.start_soon(run, "seeker", seeker)
                await watcher.expect("Seek new 1 *", timeout=30)
            finally:
                await watcher.aclose()
            nursery.start_soon(run, "acceptor", acceptor)
    return results
