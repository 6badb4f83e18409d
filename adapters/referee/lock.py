"""One live match per set of files: a match holds an exclusive lock (`flock`) on its
records file and its state file while it runs, and a new match does not replace the
state file of an unfinished one unless told to (`--force`).

The lock belongs to an open file, so the system drops it when the process ends, however
it ends: a match killed with SIGKILL leaves no stale lock behind."""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from adapters.referee.engines import MatchError
from adapters.referee.state import StateError, read_state


@contextlib.contextmanager
def locked(paths: Sequence[str | Path]) -> Iterator[None]:
    """Hold an exclusive lock on each file of `paths` (created when missing) for the
    `with` block; MatchError naming the first file another live match holds, or one
    that cannot be opened. Files that are not regular files (`/dev/null`) are not
    locked, nor are files on a file system without locks."""
    with contextlib.ExitStack() as stack:
        for path in dict.fromkeys(Path(p) for p in paths):
            try:
                handle = stack.enter_context(open(path, "a", encoding="utf-8"))
            except OSError as exc:
                raise MatchError(f"cannot write {path}: {exc.strerror or exc}") from None
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
                continue
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise MatchError(
                    f"{path} is in use by another tei match running now: wait for it to"
                    " end, or give this match other files (--ptnout, --state)"
                ) from None
            except OSError:
                continue  # a file system without locks: go on unlocked
        yield


def unfinished(path: str | Path) -> str | None:
    """Why a new match must not replace the state file `path` (None when it may: no
    file, an empty one, or the state of a match that ended)."""
    path = Path(path)
    try:
        if path.stat().st_size == 0:
            return None
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    try:
        state = read_state(path)
    except StateError as exc:
        return f"{path} is not the state file of a finished match ({exc})"
    if state.ended:
        return None
    return (
        f"{path} holds an unfinished match (run {state.run}, {len(state.games)} games"
        f" finished): continue it with: tei match --resume {path}"
    )


def refuse_unfinished(path: str | Path) -> None:
    """MatchError when `path` holds a state a new match must not replace (`unfinished`)."""
    why = unfinished(path)
    if why is not None:
        raise MatchError(f"{why}; or give --force to start a new match over it")
