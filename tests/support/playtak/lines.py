"""A raw line client for the playtak server tests (TCP, trio)."""

from __future__ import annotations

import re

import trio


class LineClient:
    """Reads and writes playtak lines; `expect` skips lines until one matches."""

    def __init__(self, stream: trio.SocketStream) -> None:
        self.stream = stream
        self.buffer = b""
        self.seen: list[str] = []

    @classmethod
    async def connect(cls, port: int) -> LineClient:
        return cls(await trio.open_tcp_stream("127.0.0.1", port))

    @classmethod
    async def logged_in(
        cls, port: int, name: str, password: str = "secret1", protocol: int = 2
    ) -> LineClient:
        """A client connected to the port and logged in as `name`."""
        client = await cls.connect(port)
        await client.login(name, password, protocol)
        return client

    async def send(self, line: str) -> None:
        await self.stream.send_all((line + "\n").encode("iso-8859-1"))

    async def line(self, timeout: float = 10.0) -> str:
        with trio.fail_after(timeout):
            while b"\n" not in self.buffer:
                data = await self.stream.receive_some(65536)
                if not data:
                    raise EOFError("connection closed")
                self.buffer += data
        raw, self.buffer = self.buffer.split(b"\n", 1)
        text = raw.decode("iso-8859-1")
        self.seen.append(text)
        return text

    async def expect(self, wanted: str, timeout: float = 10.0) -> list[str]:
        """Lines up to and including the first that equals `wanted`, where each '*' in
        it stands for any text (`Seek new * alice *`)."""
        pattern = re.compile(".*".join(re.escape(part) for part in wanted.split("*")), re.S)
        lines = []
        while True:
            text = await self.line(timeout)
            lines.append(text)
            if pattern.fullmatch(text):
                return lines

    async def closed(self, timeout: float = 10.0) -> list[str]:
        """Read until the server closes the connection (then close ours); the lines read."""
        lines = []
        try:
            while True:
                lines.append(await self.line(timeout))
        except EOFError:
            await self.aclose()
            return lines

    async def login(self, name: str, password: str = "secret1", protocol: int = 2) -> None:
        await self.expect("Login or Register")
        if protocol:
            await self.send(f"Protocol {protocol}")
            await self.expect("OK")
        await self.send(f"Login {name} {password}")
        await self.expect(f"Welcome {name}!")

    async def aclose(self) -> None:
        await self.stream.aclose()
