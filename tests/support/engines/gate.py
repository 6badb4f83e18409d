"""A gate a fake engine waits at, so that a test (not the machine's load) decides how far
a run gets before the test interrupts it.

`--gate CONTROL WATCH NEEDLE`: before answering a `go`, the engine waits while the number
of lines of WATCH (a match's or an analysis's state file) holding NEEDLE is at least the
whole number written in CONTROL. A missing CONTROL file is an open gate. So a test writes
`1` to CONTROL, waits until one game (or position) is in the state file, and knows the run
cannot end before it interrupts it; writing a larger number, or removing CONTROL, lets the
run go on.

Fake engines run as scripts; each puts the project's root on its path to import this.
"""

from __future__ import annotations

import time
from pathlib import Path

#: what a line of a match's state file about a finished game holds
GAME_LINE = '"kind":"game"'
#: what a line of an analysis's state file about an evaluated position holds
EVAL_LINE = '"kind":"eval"'


class Gate:
    def __init__(self, control: str, watch: str, needle: str) -> None:
        self.control, self.watch, self.needle = Path(control), Path(watch), needle

    def _limit(self) -> int | None:
        try:
            return int(self.control.read_text())
        except FileNotFoundError:
            return None  # no control file: open

    def _done(self) -> int:
        try:
            return sum(self.needle in line for line in self.watch.read_text().splitlines())
        except FileNotFoundError:
            return 0

    def wait(self) -> None:
        """Return once fewer lines than the limit hold the needle (or there is no limit)."""
        while (limit := self._limit()) is not None and self._done() >= limit:
            time.sleep(0.02)


def set_limit(control: Path, limit: int | None) -> None:
    """Write `limit` to CONTROL at once (a reader never sees it half written); None opens
    the gate for good."""
    if limit is None:
        control.unlink(missing_ok=True)
        return
    partial = control.with_name(control.name + ".partial")
    partial.write_text(str(limit))
    partial.replace(control)


def gate_of(words: list[str] | None) -> Gate | None:
    """The gate of a `--gate CONTROL WATCH NEEDLE` option (argparse `nargs=3`), if given."""
    return Gate(*words) if words else None
