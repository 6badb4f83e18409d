"""Reading a settings file (a config file, a match's state file) with bounds: only a
regular file, and no more than a cap of bytes, so that `--config /dev/zero` or a FIFO is
refused at once instead of filling the memory or waiting forever."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from tei.errors import TeiError

#: the largest config file read (bytes)
CONFIG_CAP = 1 << 20


class FileBoundsError(TeiError, OSError):
    """A file that is not a regular file or is larger than its cap. An OSError, so that
    it reads as any other file that cannot be read (`strerror` says why)."""


def read_config_bytes(path: str | Path, cap: int = CONFIG_CAP) -> bytes:
    """The bytes of the regular file at `path`, at most `cap` of them. OSError when it
    cannot be read; FileBoundsError (an OSError) when it is a FIFO, a device, a folder
    or longer than `cap`. Opening never blocks (a FIFO without a writer)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            why = f"{_kind(mode)}, not a regular file"
            raise FileBoundsError(errno.EINVAL, why, str(path))
        chunks, size = [], 0
        while size <= cap and (chunk := os.read(fd, min(1 << 16, cap + 1 - size))):
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > cap:
        raise FileBoundsError(errno.EFBIG, f"larger than {cap} bytes", str(path))
    return data


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "a special file"
