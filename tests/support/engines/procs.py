"""Process helpers for tests: the `tei` command run to its end, is a pid alive (zombies
count as dead), members of a group."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

FAKE = str(Path(__file__).with_name("fake_tei.py"))
GUARD = str(Path(__file__).with_name("group_guard.py"))


def guarded(argv: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`argv` started under a group guard (group_guard.py) in a new session: the process
    returned leads the group (`os.killpg(proc.pid, ...)` ends it all), and the guard
    kills that group as soon as this process ends, however it ends."""
    return subprocess.Popen(
        [sys.executable, GUARD, *argv],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
        env=env,
    )


def fake(mode: str = "good", *extra: str) -> list[str]:
    """The command line of the fake engine in a mode."""
    return [sys.executable, FAKE, "--mode", mode, *extra]


def tei(
    *args: str,
    timeout: float = 60.0,
    cwd: str | None = None,
    path: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """`python -m tei ARGS` run to its end (no input), its output captured as text;
    `path` is put first on its PYTHONPATH (where test bots are)."""
    env = None
    if path is not None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([path, os.environ.get("PYTHONPATH", "")]),
        }
    return subprocess.run(
        [sys.executable, "-m", "tei", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
    )


def _state(pid: int) -> str | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()[0]


def alive(pid: int) -> bool:
    """True if the process exists and is not a zombie."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    state = _state(pid)
    return state is not None and state != "Z"


def _each_process(name: str) -> Iterator[tuple[int, bytes]]:
    """(pid, contents of /proc/PID/NAME) of every process whose file is readable."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            yield int(entry.name), (entry / name).read_bytes()
        except OSError:
            continue


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is `pgid`."""
    members = []
    for pid, text in _each_process("stat"):
        fields = text.rsplit(b")", 1)[1].split()
        if int(fields[2]) == pgid and fields[0] != b"Z":
            members.append(pid)
    return members


def _command_lines() -> Iterator[tuple[int, list[bytes]]]:
    """(pid, command line words) of every process readable in /proc."""
    for pid, text in _each_process("cmdline"):
        yield pid, text.split(b"\0")


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError):
        return None


def fake_processes() -> list[int]:
    """Live fake engines started by this process (none may survive a test)."""
    me = os.getpid()
    return [
        pid
        for pid, words in _command_lines()
        if FAKE.encode() in words and _parent(pid) == me and alive(pid)
    ]


def with_token(token: str) -> list[int]:
    """Live processes whose command line holds `token` (helpers a test engine started)."""
    return [pid for pid, words in _command_lines() if token.encode() in words and alive(pid)]


def mentioning(*markers: str) -> list[int]:
    """Live processes whose command line holds every one of `markers` (anywhere in it)."""
    wanted = [marker.encode() for marker in markers]
    return [
        pid
        for pid, words in _command_lines()
        if all(marker in b"\0".join(words) for marker in wanted) and alive(pid)
    ]


def wait_dead(pid: int, timeout: float) -> None:
    """Wait until `pid` has ended (through a pidfd); AssertionError after `timeout` s."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    finally:
        os.close(fd)
    assert ready or not alive(pid), f"process {pid} still alive after {timeout} s"
