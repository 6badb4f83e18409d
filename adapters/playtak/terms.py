"""The terms of a playtak game, as seeks, lobby lines, game starts and the local server's
games carry them: one value written once, read as numbers from a line and printed back.

Holders keep a `GameTerms` in `terms` and read it as their own attributes through
`TermsView` (`seek.komi`, `start.size`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar, overload

import attrs

from rules.tak.tables import RESERVES

T = TypeVar("T")


def standard_pieces(size: int) -> tuple[int, int]:
    """Flats and capstones each side has on a board of this size (5x5's when unknown)."""
    return RESERVES.get(size, RESERVES[5])


@attrs.frozen
class GameTerms:
    """Size, clock (seconds, increment, `amount` seconds more at own move `trigger`),
    komi in half-flats, reserves (standard for the size unless given) and the flags."""

    size: int = 5
    time: int = 0  # seconds
    inc: int = 0  # seconds
    komi: int = 0  # half-flats
    flats: int = attrs.field()
    caps: int = attrs.field()
    unrated: bool = attrs.field(default=False, converter=bool)
    tournament: bool = attrs.field(default=False, converter=bool)
    trigger: int = 0
    amount: int = 0

    @flats.default
    def _standard_flats(self) -> int:
        return standard_pieces(self.size)[0]

    @caps.default
    def _standard_caps(self) -> int:
        return standard_pieces(self.size)[1]

    @classmethod
    def read(cls, numbers: Sequence[int], names: Sequence[str], **given: Any) -> GameTerms:
        """The terms `names` read in this order from the numbers of a line (extra numbers
        are ignored), over `given`; the rest take their defaults."""
        return cls(**{**given, **dict(zip(names, numbers, strict=False))})

    def text(self, names: Sequence[str] | None = None) -> str:
        """The terms `names` (all by default) as a line prints them (flags as 0/1)."""
        return " ".join(str(int(getattr(self, name))) for name in names or TERMS)


#: the names of the terms, in the order the lines print them
TERMS = tuple(field.name for field in attrs.fields(GameTerms))
#: the clock and board: what lines print apart from the rest (a seek's colour between)
BOARD_CLOCK, REST = TERMS[:3], TERMS[3:]
#: what a protocol 0/1 `Game Start` prints after the colour
OLD_START = ("time", "komi", "flats", "caps", "trigger", "amount")


class Term(Generic[T]):
    """One of the held `terms`, read as the holder's own attribute (`seek.komi`)."""

    __slots__ = ("name",)

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, holder: None, owner: type) -> Term[T]: ...
    @overload
    def __get__(self, holder: TermsView, owner: type) -> T: ...
    def __get__(self, holder: TermsView | None, owner: type) -> Term[T] | T:
        if holder is None:
            return self
        value: T = getattr(holder.terms, self.name)
        return value


class TermsView:
    """A holder of `terms` read as its own attributes (the clock: `ClockView`)."""

    __slots__ = ()
    terms: GameTerms

    size = Term[int]()
    komi = Term[int]()
    flats = Term[int]()
    caps = Term[int]()
    unrated = Term[bool]()
    tournament = Term[bool]()
    trigger = Term[int]()
    amount = Term[int]()

    @property
    def pieces(self) -> tuple[int, int]:
        return (self.terms.flats, self.terms.caps)


class ClockView(TermsView):
    """`TermsView` with the clock: `time` and `inc` in seconds."""

    __slots__ = ()

    time = Term[int]()
    inc = Term[int]()
