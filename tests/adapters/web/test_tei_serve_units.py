"""The pure parts of `tei serve`: the origin allow-list, the one-bestmove-per-go relay,
and a session's reading of scripted messages."""

from __future__ import annotations

from typing import Any

import pytest
import trio
import trio.testing

from adapters.web.tei_origins import OriginPatternError, OriginPolicy, check_pattern
from adapters.web.tei_relay import RelayState
from adapters.web.tei_socket import WAITING_LINES, _Session


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("https://ptn.ninja", True),
        ("https://PTN.ninja/", True),
        ("http://ptn.ninja", False),
        ("https://ptn.ninja.evil.example", False),
        ("http://localhost:8080", True),
        ("http://localhost", True),
        ("http://localhost:", False),
        ("http://localhost.evil.example", False),
        ("http://localhost:80x", False),
        ("http://127.0.0.1:3000", True),
        ("https://127.0.0.1:3000", False),
        ("http://[::1]:8000", True),  # tei serve listens on ::1 too
        ("http://[::1]", True),
        ("http://[::2]:8000", False),
        ("http://[::1]:8000.evil.example", False),
        ("null", False),
        ("", False),
        (None, True),  # a program, not a browser page
    ],
)
def test_default_origins(origin: str | None, allowed: bool) -> None:
    assert OriginPolicy.build().allows(origin) is allowed


def test_added_and_any_origins() -> None:
    policy = OriginPolicy.build(("http://my.example:8080",))
    assert policy.allows("http://my.example:8080")
    assert not policy.allows("http://my.example:8081")
    assert OriginPolicy.build(any_origin=True).allows("https://evil.example")


@pytest.mark.parametrize("bad", ["ptn.ninja", "https://", "https://a.example/path", "://x"])
def test_bad_origin_patterns_are_named(bad: str) -> None:
    with pytest.raises(OriginPatternError, match="is not scheme://host"):
        check_pattern(bad)


def test_relay_gives_one_bestmove_per_go() -> None:
    relay = RelayState()
    assert relay.from_engine("bestmove a1") is False  # no search asked for: dropped
    relay.from_client("position startpos")
    relay.from_client("go movetime 100")
    assert relay.from_engine("info depth 1 pv a1")
    assert relay.from_engine("bestmove a1")
    assert relay.from_engine("bestmove b1") is False  # a second answer: dropped
    assert relay.dropped == 2
    relay.from_client("go infinite")
    assert relay.on_engine_exit("the engine exited (exit code 3)") == [
        "info string error: the engine exited (exit code 3)",
        "bestmove --",
    ]
    assert relay.on_engine_exit("again") == ["info string error: again"]


class ScriptedSocket:
    """A websocket that gives scripted messages, then waits forever; records what is sent."""

    def __init__(self, *messages: dict[str, Any]) -> None:
        self.messages = list(messages)
        self.sent: list[str] = []

    async def receive(self) -> dict[str, Any]:
        if not self.messages:
            await trio.sleep_forever()
        return self.messages.pop(0)

    async def send_text(self, line: str) -> None:
        self.sent.append(line)


def text(body: str) -> dict[str, Any]:
    return {"type": "websocket.receive", "text": body}


async def test_a_session_passes_nothing_on_once_its_client_has_left() -> None:
    ws = ScriptedSocket(text("isready\n" * 100), {"type": "websocket.disconnect"})
    session = _Session(ws, "s", None)  # type: ignore[arg-type]
    got: list[object] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.receive)
        await trio.testing.wait_all_tasks_blocked()  # both messages read: the client left
        got += [line async for line in session.lines()]
    assert session.gone and got == []


async def test_a_session_reads_on_and_drops_what_it_cannot_hold() -> None:
    """Lines nobody takes do not stop the reading (a disconnect is always seen): past
    WAITING_LINES they are dropped, with one error line per message."""
    many = text("isready\n" * 256)
    ws = ScriptedSocket(*[many] * (WAITING_LINES // 256 + 2), text("\n" * 100_000))
    session = _Session(ws, "s", None)  # type: ignore[arg-type]
    async with trio.open_nursery() as nursery:
        nursery.start_soon(session.receive)
        await trio.testing.wait_all_tasks_blocked()
        assert not ws.messages  # all read, none taken
        assert (
            ws.sent
            == [f"info string error: 256 lines dropped: {WAITING_LINES} lines were waiting already"]
            * 2
        )
        first = [await anext(aiter(session.lines())) for _ in range(3)]
        assert first == ["isready"] * 3
        nursery.cancel_scope.cancel()
