"""The root of every error the `tei` package raises on purpose."""

from __future__ import annotations

import sys


class TeiError(Exception):
    """Base of tei's errors: the codec's `ProtocolError`, the driver's `EngineError`, ..."""


class OptionValueError(TeiError, ValueError):
    """A value an option's declaration does not allow; the message names the option, what
    it takes and the value (`option 'Level' takes 1..10, not '11'`)."""

    def __init__(self, name: str, why: str, message: str = "") -> None:
        super().__init__(message or f"option {name!r} {why}")
        #: the option as declared, and what is wrong ("takes an integer, not 'x'")
        self.name = name
        self.why = why


def leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    """The exceptions of a (nested) exception group, in order."""
    found: list[BaseException] = []
    for inner in group.exceptions:
        found += leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner]
    return found


def main_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The one exception that says what happened in a nursery's group (the house's one
    rule): the first leaf that is not a `trio.Cancelled`, else the first leaf. (A group
    can only hold a `Cancelled` once trio is imported, so this module need not import it.)"""
    found = leaves(group)
    trio = sys.modules.get("trio")
    cancelled: type[BaseException] | tuple[()] = trio.Cancelled if trio is not None else ()
    return next((e for e in found if not isinstance(e, cancelled)), found[0])
