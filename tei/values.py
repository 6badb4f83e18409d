"""Setting values from text, shared by the command line (tei.cli), config and state files
and the local playtak server: range-checked numbers (argparse types whose error names the
range, so a nonsense value such as `--max-plies -1` or `--grace nan` is a usage error,
exit 2) and `NAME=VALUE` pairs."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from tei.errors import TeiError
from tei.lines import QUOTE_CHARS, quote


def _number(value: float) -> str:
    """A bound as written: an integer in full, another number short (`0.5`, `1e+06`)."""
    return str(value) if isinstance(value, int) else f"{value:g}"


def _bounds(low: float | None, high: float | None, above: bool) -> str:
    if low is not None and high is not None:
        low_text, high_text = _number(low), _number(high)
        return (
            f"more than {low_text} and at most {high_text}" if above else f"{low_text}..{high_text}"
        )
    if low is not None:
        return f"more than {_number(low)}" if above else f"at least {_number(low)}"
    return f"at most {_number(high)}" if high is not None else "a number"


def _check(value: float, text: str, low: float | None, high: float | None, above: bool) -> None:
    too_low = low is not None and (value <= low if above else value < low)
    if too_low or (high is not None and value > high):
        shown = text if len(text) <= QUOTE_CHARS else quote(text)
        raise argparse.ArgumentTypeError(f"must be {_bounds(low, high, above)}, not {shown}")


def int_in(low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from `low` to `high` (None: unbounded)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {quote(text)}") from None
        _check(value, text, low, high, False)
        return value

    parse.__name__ = "integer"
    return parse


def float_in(
    low: float | None = None, high: float | None = None, *, above: bool = False
) -> Callable[[str], float]:
    """An argparse type: a finite number from `low` (excluded when `above`) to `high`."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {quote(text)}") from None
        if not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
        _check(value, text, low, high, above)
        return value

    parse.__name__ = "number"
    return parse


#: seconds: more than 0
POSITIVE_SECONDS = float_in(0, above=True)
#: seconds: 0 or more
SECONDS = float_in(0)
#: a TCP port (0: any free one)
PORT = int_in(0, 65535)
#: a random seed
SEED = int_in(0, 2**63 - 1)


class UsageError(TeiError, ValueError):
    """A bad command-line value; the message names the flag and the value."""


def split_pair(
    item: str, flag: str, form: str = "NAME=VALUE", separator: str = "="
) -> tuple[str, str]:
    """`NAME=VALUE` as its two parts, stripped; UsageError (`--option 'x' is not
    NAME=VALUE`) when the separator or the name is missing."""
    name, sep, value = item.partition(separator)
    if not sep or not name.strip():
        raise UsageError(f"{flag} {item!r} is not {form}")
    return name.strip(), value.strip()
