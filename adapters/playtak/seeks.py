"""Seek and game descriptions shared by the lobby lines (`Seek new`, `GameList Add`),
the game terms they carry, and what both directions of the codec share (numbers, lines
without fields, one-word game lines).

A seek keeps every field the server knows; `fields(protocol)` prints them in the layout of
that protocol version (0/1: empty opponent leaves a trailing space; 2: opponent `0`
placeholder plus a bot flag).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import attrs

from adapters.playtak.errors import PlaytakError
from rules.tak.tables import RESERVES


class LineError(PlaytakError, ValueError):
    """A server or client line of a known kind whose fields do not parse."""


@attrs.frozen
class FixedLine:
    """A message without fields, in either direction: always the same line, `LINE`."""

    LINE: ClassVar[str] = ""

    def to_line(self, protocol: int = 2) -> str:
        return self.LINE


@attrs.frozen
class GameWord:
    """`Game#<id> <kind>`, one word about a game, in either direction (`OfferDraw` ...)."""

    game_id: int
    kind: str

    def to_line(self, protocol: int = 2) -> str:
        return f"Game#{self.game_id} {self.kind}"


def to_int(word: str, line: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise LineError(f"bad number {word!r} in {line!r}") from None


def standard_pieces(size: int) -> tuple[int, int]:
    return RESERVES.get(size, RESERVES[5])


#: the terms of a game, as seeks, lobby lines and game starts name them
TERMS = (
    "size",
    "time",
    "inc",
    "komi",
    "flats",
    "caps",
    "unrated",
    "tournament",
    "trigger",
    "amount",
)


def terms_of(source: object) -> dict[str, Any]:
    """The `TERMS` of a seek or a game, by name (to build another description from)."""
    return {name: getattr(source, name) for name in TERMS}


def read_terms(numbers: Sequence[int], names: Sequence[str] = TERMS) -> dict[str, Any]:
    """The terms `names` read in this order from the numbers of a line (extra numbers are
    ignored, missing terms left out), the flags `unrated` and `tournament` as bools."""
    terms: dict[str, Any] = dict(zip(names, numbers, strict=False))
    for flag in ("unrated", "tournament"):
        if flag in terms:
            terms[flag] = bool(terms[flag])
    return terms


@attrs.frozen
class SeekInfo:
    """One open seek as the server lists it."""

    no: int
    name: str
    size: int
    time: int  # seconds
    inc: int  # seconds
    color: str = "A"  # the seeker's colour: W, B or A (random)
    komi: int = 0  # half-flats
    flats: int = 21
    caps: int = 1
    unrated: bool = False
    tournament: bool = False
    trigger: int = 0
    amount: int = 0
    opponent: str = ""  # only this player may accept; empty = anyone
    bot: bool | None = None  # protocol 2 only

    def fields(self, protocol: int = 2) -> str:
        head = (
            f"{self.no} {self.name} {self.size} {self.time} {self.inc} {self.color} "
            f"{self.komi} {self.flats} {self.caps} {int(self.unrated)} {int(self.tournament)} "
            f"{self.trigger} {self.amount}"
        )
        if protocol >= 2:
            return f"{head} {self.opponent or '0'} {int(bool(self.bot))}"
        return f"{head} {self.opponent}"

    @classmethod
    def parse_fields(cls, words: list[str], line: str) -> SeekInfo:
        """Fields after `Seek new`/`Seek remove`; missing trailing fields take defaults."""
        if len(words) < 4:
            raise LineError(f"too few seek fields in {line!r}")
        no, name, size, time = to_int(words[0], line), words[1], words[2], words[3]
        size_n = to_int(size, line)
        flats, caps = standard_pieces(size_n)
        if len(words) == 5 or (len(words) > 4 and words[4] in ("W", "B", "A")):
            # historic layout: no name size time [colour]
            return cls(no, name, size_n, to_int(time, line), 0, words[4] if len(words) > 4 else "A")
        if len(words) < 6:
            return cls(no, name, size_n, to_int(time, line), to_int(words[4], line))
        nums = [to_int(w, line) for w in words[6:13] if w != ""]
        terms = {"flats": flats, "caps": caps, **read_terms(nums, TERMS[3:])}
        rest = words[13:]
        opponent = rest[0] if rest else ""
        bot: bool | None = None
        if len(rest) >= 2 and rest[1] in ("0", "1"):
            bot = rest[1] == "1"
            if opponent == "0":
                opponent = ""
        return cls(
            no,
            name,
            size_n,
            to_int(time, line),
            to_int(words[4], line),
            words[5],
            opponent=opponent,
            bot=bot,
            **terms,
        )


@attrs.frozen
class GameInfo:
    """A running game as `GameList Add` and `Observe` describe it."""

    no: int
    white: str
    black: str
    size: int = 5
    time: int = 0
    inc: int = 0
    komi: int = 0
    flats: int = 21
    caps: int = 1
    unrated: bool = False
    tournament: bool = False
    trigger: int = 0
    amount: int = 0

    def fields(self) -> str:
        return (
            f"{self.no} {self.white} {self.black} {self.size} {self.time} {self.inc} "
            f"{self.komi} {self.flats} {self.caps} {int(self.unrated)} {int(self.tournament)} "
            f"{self.trigger} {self.amount}"
        )

    @classmethod
    def parse_fields(cls, words: list[str], line: str) -> GameInfo:
        if words and words[0].startswith("Game#"):
            # historic: Game#1 alice vs bobby, 5x5, 180, 15, 0 half-moves played, alice to move
            text = " ".join(words)
            parts = [p.strip() for p in text.split(",")]
            head = parts[0].split()
            if len(head) < 4 or head[2] != "vs":
                raise LineError(f"cannot read the game in {line!r}")
            info = cls(to_int(head[0][5:], line), head[1], head[3])
            if len(parts) > 1 and "x" in parts[1]:
                info = attrs.evolve(info, size=to_int(parts[1].split("x")[0], line))
            if len(parts) > 3:
                info = attrs.evolve(info, time=to_int(parts[2], line), inc=to_int(parts[3], line))
            return info
        if len(words) < 3:
            raise LineError(f"too few game fields in {line!r}")
        terms = read_terms([to_int(w, line) for w in words[3:13]])
        flats, caps = standard_pieces(terms.get("size", 5))
        terms = {"flats": flats, "caps": caps, **terms}
        return cls(to_int(words[0], line), words[1], words[2], **terms)
