#!/usr/bin/env python3
"""Run a command and kill its whole process group when this script's stdin closes.

Started in a new session (`start_new_session=True`), the guard leads the group that the
command and everything it starts belong to. The test process holds the other end of
the guard's stdin: when that process ends, however (a failed test's finalizer, a
pytest-timeout kill, `os._exit`, SIGKILL), stdin reaches its end and the guard kills
the group, itself included. Usage: group_guard.py COMMAND [ARG...]
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys


def main() -> None:
    subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL)
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os.killpg(0, signal.SIGKILL)


if __name__ == "__main__":
    main()
