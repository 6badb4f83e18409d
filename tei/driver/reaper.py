"""Nothing an engine started outlives it: find and kill an engine's descendants (Linux).

Each engine is started with a marker in its environment (`TEI_DRIVER_ENGINE=<random>`),
which every process it starts inherits, also one in a new session or process group and
one already reparented to init; `/proc` is searched for it, for the engine's process
group, and for the children of anything found. A process that clears its environment
and leaves the group after its parent died cannot be found. The engine itself gets a
parent-death signal (SIGKILL when the thread that started it, the one running trio,
ends), so it does not outlive a referee that was killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from collections.abc import Callable, Iterable
from pathlib import Path

import trio

#: the environment variable that marks an engine's processes
MARKER = "TEI_DRIVER_ENGINE"

_PR_SET_PDEATHSIG = 1


def _prctl() -> Callable[..., int] | None:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        prctl: Callable[..., int] = libc.prctl
    except (OSError, AttributeError):
        return None
    return prctl


_PRCTL = _prctl() if os.path.isdir("/proc") else None


def preexec(parent: int) -> Callable[[], None]:
    """The step run in the child before exec: SIGKILL it when its parent dies (and exit
    at once if the parent is already gone)."""

    def child() -> None:
        if _PRCTL is not None:
            _PRCTL(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return child


def _scan(marker: str) -> dict[int, tuple[int, int, bool]]:
    """pid -> (parent pid, process group, carries `marker`) of live processes."""
    table: dict[int, tuple[int, int, bool]] = {}
    needle = f"{MARKER}={marker}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[0] in ("Z", "X"):
            continue
        try:
            marked = needle in (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            marked = False
        table[int(entry.name)] = (int(fields[1]), int(fields[2]), marked)
    return table


def descendants(root: int, marker: str) -> set[int]:
    """Live processes of the engine `root`: its process group, processes carrying its
    marker, and the descendants of those (our own process excepted)."""
    if not os.path.isdir("/proc"):
        return set()
    table = _scan(marker)
    found = {pid for pid, (_, group, marked) in table.items() if marked or group == root}
    if root in table:
        found.add(root)
    frontier = set(found)
    while frontier:
        children = {pid for pid, (ppid, _, _) in table.items() if ppid in frontier}
        frontier = children - found
        found |= frontier
    found.discard(os.getpid())
    return found


def kill_tree(root: int, marker: str, rounds: int = 3) -> set[int]:
    """SIGKILL the engine's process group and every descendant (repeated while new ones
    appear); the pids signalled."""
    killed: set[int] = set()
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGKILL)
    for _ in range(rounds):
        alive = descendants(root, marker) - killed
        if not alive:
            break
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= alive
    return killed


async def wait_gone(pids: Iterable[int], timeout: float) -> None:
    """Wait (up to `timeout` s in all) until these processes have ended, through pidfds."""
    if not hasattr(os, "pidfd_open"):
        return
    with trio.move_on_after(timeout):
        for pid in pids:
            try:
                fd = os.pidfd_open(pid)
            except OSError:
                continue  # already gone
            try:
                await trio.lowlevel.wait_readable(fd)
            finally:
                os.close(fd)
