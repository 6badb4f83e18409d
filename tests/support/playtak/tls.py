"""TLS for the playtak tests: certificates made on the spot (trustme) and a TLS terminator
on 127.0.0.1 in front of a plain server, as a reverse proxy would stand in front of
playtak.com."""

from __future__ import annotations

import ssl
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

import trio
import trustme

from tests.support.playtak.waiting import Tally


class Authority:
    """A certificate authority of the test, with the PEM file a client would trust."""

    def __init__(self, directory: Path) -> None:
        self.ca = trustme.CA()
        self.pem = directory / "test-ca.pem"
        self.ca.cert_pem.write_to_path(str(self.pem))

    def server_context(self, *names: str) -> ssl.SSLContext:
        """A server's TLS context with a certificate for `names` issued by this authority."""
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.ca.issue_cert(*names).configure_cert(context)
        return context


class TlsTerminator:
    """Takes TLS connections on 127.0.0.1 and relays their bytes to a plain TCP port."""

    def __init__(self, context: ssl.SSLContext, backend_port: int) -> None:
        self.context = context
        self.backend_port = backend_port
        self.port = 0

    async def serve(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            listeners = await nursery.start(
                partial(trio.serve_tcp, host="127.0.0.1"), self._relay, 0
            )
            self.port = listeners[0].socket.getsockname()[1]
            task_status.started(self.port)

    async def _relay(self, tcp: trio.SocketStream) -> None:
        front = trio.SSLStream(tcp, self.context, server_side=True)
        try:
            await front.do_handshake()
        except trio.BrokenResourceError:  # the client refused our certificate
            await tcp.aclose()
            return
        back = await trio.open_tcp_stream("127.0.0.1", self.backend_port)
        async with front, back, trio.open_nursery() as nursery:

            async def pipe(source: trio.abc.Stream, sink: trio.abc.Stream) -> None:
                try:
                    while data := await source.receive_some(65536):
                        await sink.send_all(data)
                except (trio.BrokenResourceError, trio.ClosedResourceError):
                    pass
                nursery.cancel_scope.cancel()  # one side ended: end both

            nursery.start_soon(pipe, front, back)
            nursery.start_soon(pipe, back, front)


async def serve_tcp(
    nursery: trio.Nursery, handler: Callable[[trio.SocketStream], Awaitable[None]]
) -> int:
    """A TCP port on 127.0.0.1 whose connections `handler` serves."""
    listeners = await nursery.start(partial(trio.serve_tcp, host="127.0.0.1"), handler, 0)
    port: int = listeners[0].socket.getsockname()[1]
    return port


async def serve_silence(nursery: trio.Nursery, accepted: Tally) -> int:
    """A TCP port on 127.0.0.1 that takes connections, reads, and never answers (a TLS
    server that hangs in the handshake); every accept is counted in `accepted`."""

    async def handler(stream: trio.SocketStream) -> None:
        accepted.add()
        while await stream.receive_some(4096):
            pass

    return await serve_tcp(nursery, handler)
