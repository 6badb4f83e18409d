"""The TEI compliance checker (`tei check`): a scripted session against an engine, one
verdict per check (see docs/check.md).

`run` runs the checks and judges the whole session, `checks` holds the checks themselves
in the order they run, `probe` what they share (sending, waiting, playing positions).
Its command line is `tei.cli.check`.
"""

from tei.check.checks import CHECKS, Check
from tei.check.run import (
    SESSION_CHECKS,
    CheckResult,
    bot_failures,
    check_engine,
    check_names,
    run_checks,
)

__all__ = [
    "CHECKS",
    "SESSION_CHECKS",
    "Check",
    "CheckResult",
    "bot_failures",
    "check_engine",
    "check_names",
    "run_checks",
]
