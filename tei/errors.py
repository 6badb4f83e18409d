"""The root of every error the `tei` package raises on purpose."""

from __future__ import annotations


class TeiError(Exception):
    """Base of tei's errors: the codec's `ProtocolError`, the driver's `EngineError`, ..."""


def leaves(group: BaseExceptionGroup[BaseException]) -> list[BaseException]:
    """The exceptions of a (nested) exception group, in order."""
    found: list[BaseException] = []
    for inner in group.exceptions:
        found += leaves(inner) if isinstance(inner, BaseExceptionGroup) else [inner]
    return found


def main_error(group: BaseExceptionGroup[BaseException]) -> BaseException:
    """The one exception that says what happened in a nursery's group (the house's one
    rule): the first leaf that is not a cancellation (`trio.Cancelled`, found by name so
    this module needs no trio), else the first leaf."""
    found = leaves(group)
    return next((e for e in found if type(e).__name__ != "Cancelled"), found[0])
