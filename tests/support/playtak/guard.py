"""A fixture for every playtak test module: the test may reach 127.0.0.1 only (names are
not even looked up), and it must leave no child process and no open socket behind.

Names under `.invalid` (reserved never to resolve, RFC 6761) get the resolver's "no such
name" answer at once, without a query, so that tests of a failed lookup stay offline.

tests/adapters/playtak/conftest.py applies it to every playtak test (it is autouse)."""

from __future__ import annotations

import gc
import os
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest

LOOPBACK = ("127.0.0.1", b"127.0.0.1")


def _check_host(host: object, what: str) -> None:
    if host not in LOOPBACK:
        raise AssertionError(f"a playtak test tried to {what} {host!r}: only 127.0.0.1 is allowed")


def _check_address(sock: socket.socket, address: Any, what: str) -> None:
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        _check_host(address[0], what)


def _children() -> set[int]:
    """Pids of this process's living (not zombie) children."""
    me = str(os.getpid())
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            found.add(int(entry))
    return found


def _sockets() -> set[str]:
    """The inodes of this process's open sockets."""
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:"):
            found.add(target)
    return found


def _settle(check: Any, before: set[Any], seconds: float = 5.0) -> set[Any]:
    """What `check()` finds beyond `before`, after giving closing things a moment."""
    deadline = time.monotonic() + seconds
    extra = check() - before
    while extra and time.monotonic() < deadline:
        gc.collect()  # only when something is left: a full collection costs up to a second
        time.sleep(0.05)
        extra = check() - before
    return extra


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    children, sockets = _children(), _sockets()
    real_getaddrinfo = socket.getaddrinfo
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex
    real_bind = socket.socket.bind

    def getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
        name = host.decode() if isinstance(host, bytes) else host
        if isinstance(name, str) and name.lower().rstrip(".").endswith(".invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        _check_host(host, "look up")
        return real_getaddrinfo(host, *args, **kwargs)

    def connect(self: socket.socket, address: Any) -> None:
        _check_address(self, address, "connect to")
        real_connect(self, address)

    def connect_ex(self: socket.socket, address: Any) -> int:
        _check_address(self, address, "connect to")
        return real_connect_ex(self, address)

    def bind(self: socket.socket, address: Any) -> None:
        _check_address(self, address, "listen on")
        real_bind(self, address)

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    monkeypatch.setattr(socket.socket, "connect", connect)
    monkeypatch.setattr(socket.socket, "connect_ex", connect_ex)
    monkeypatch.setattr(socket.socket, "bind", bind)
    yield
    monkeypatch.undo()
    left = _settle(_children, children)
    assert not left, f"the test left child processes behind: {sorted(left)}"
    open_sockets = _settle(_sockets, sockets)
    assert not open_sockets, f"the test left {len(open_sockets)} socket(s) open"
