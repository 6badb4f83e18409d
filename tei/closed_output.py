"""A reader that went away (`tei ... | head -3`): the command ends quietly, as other
command-line tools do when their output pipe is closed, with exit status 141 (what a
shell reports for a process ended by SIGPIPE: 128 + 13) and no traceback."""

from __future__ import annotations

import os
import signal
import sys
from typing import TextIO

#: the exit status of a command whose standard output was closed by its reader
CLOSED_OUTPUT_STATUS = 128 + signal.SIGPIPE


def silence(stream: TextIO | None = None) -> None:
    """Send what is still written to `stream` (default: standard output) to the null
    device, so that neither later writes nor the interpreter's last flush raise."""
    out = sys.stdout if stream is None else stream
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, out.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def is_closed_output(exc: BaseException) -> bool:
    """Whether `exc` (or every non-cancellation leaf of a group) is a closed pipe."""
    if isinstance(exc, BaseExceptionGroup):
        from tei.errors import main_error

        return is_closed_output(main_error(exc))
    return isinstance(exc, BrokenPipeError)
