"""Seek and game descriptions shared by the lobby lines (`Seek new`, `GameList Add`),
each holding its `GameTerms`, and what both directions of the codec share (numbers,
lines without fields, one-word game lines).

A seek keeps every field the server knows; `fields(protocol)` prints them in the layout of
that protocol version (0/1: empty opponent leaves a trailing space; 2: opponent `0`
placeholder plus a bot flag).
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from adapters.playtak.errors import PlaytakError
from adapters.playtak.terms import BOARD_CLOCK, REST, TERMS, ClockView, GameTerms


class LineError(PlaytakError, ValueError):
    """A server or client line of a known kind whose fields do not parse."""


@attrs.frozen
class FixedLine:
    """A message without fields, in either direction: always the same line, `LINE`."""

    LINE: ClassVar[str] = ""

    def to_line(self, protocol: int = 2) -> str:
        return self.LINE


@attrs.frozen
class Template:
    """A message, in either direction, that prints its fields into `FORMAT` by name
    (`"Online {count}"`)."""

    FORMAT: ClassVar[str] = ""

    def to_line(self, protocol: int = 2) -> str:
        return self.FORMAT.format(**attrs.asdict(self, recurse=False))


@attrs.frozen
class AsRead:
    """A line this codec does not read, in either direction: it prints as it came."""

    line: str

    def to_line(self, protocol: int = 2) -> str:
        return self.line


#: the draw and undo words, the same both ways (the server passes them to the opponent)
DRAW_UNDO = ("OfferDraw", "RemoveDraw", "RequestUndo", "RemoveUndo")


@attrs.frozen
class GameWord(Template):
    """`Game#<id> <kind>`, one word about a game, in either direction (`OfferDraw` ...)."""

    FORMAT = "Game#{game_id} {kind}"

    game_id: int
    kind: str


def to_int(word: str, line: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise LineError(f"bad number {word!r} in {line!r}") from None


@attrs.frozen
class SeekInfo(ClockView):
    """One open seek as the server lists it."""

    no: int
    name: str
    terms: GameTerms
    color: str = "A"  # the seeker's colour: W, B or A (random)
    opponent: str = ""  # only this player may accept; empty = anyone
    bot: bool | None = None  # protocol 2 only

    def fields(self, protocol: int = 2) -> str:
        terms = self.terms
        head = f"{self.no} {self.name} {terms.text(BOARD_CLOCK)} {self.color} {terms.text(REST)}"
        if protocol >= 2:
            return f"{head} {self.opponent or '0'} {int(bool(self.bot))}"
        return f"{head} {self.opponent}"

    @classmethod
    def parse_fields(cls, words: list[str], line: str) -> SeekInfo:
        """Fields after `Seek new`/`Seek remove`; missing trailing fields take defaults."""
        if len(words) < 4:
            raise LineError(f"too few seek fields in {line!r}")
        no, name = to_int(words[0], line), words[1]
        size, time = to_int(words[2], line), to_int(words[3], line)
        if len(words) == 5 or (len(words) > 4 and words[4] in ("W", "B", "A")):
            # historic layout: no name size time [colour]
            return cls(no, name, GameTerms(size, time), words[4] if len(words) > 4 else "A")
        if len(words) < 6:
            return cls(no, name, GameTerms(size, time, to_int(words[4], line)))
        nums = [to_int(w, line) for w in words[6:13] if w != ""]
        terms = GameTerms.read(nums, REST, size=size, time=time, inc=to_int(words[4], line))
        rest = words[13:]
        opponent = rest[0] if rest else ""
        bot: bool | None = None
        if len(rest) >= 2 and rest[1] in ("0", "1"):
            bot = rest[1] == "1"
            if opponent == "0":
                opponent = ""
        return cls(no, name, terms, words[5], opponent=opponent, bot=bot)


@attrs.frozen
class GameInfo(ClockView):
    """A running game as `GameList Add` and `Observe` describe it."""

    no: int
    white: str
    black: str
    terms: GameTerms

    def fields(self) -> str:
        return f"{self.no} {self.white} {self.black} {self.terms.text()}"

    @classmethod
    def parse_fields(cls, words: list[str], line: str) -> GameInfo:
        if words and words[0].startswith("Game#"):
            # historic: Game#1 alice vs bobby, 5x5, 180, 15, 0 half-moves played, alice to move
            text = " ".join(words)
            parts = [p.strip() for p in text.split(",")]
            head = parts[0].split()
            if len(head) < 4 or head[2] != "vs":
                raise LineError(f"cannot read the game in {line!r}")
            terms: dict[str, int] = {}
            if len(parts) > 1 and "x" in parts[1]:
                terms["size"] = to_int(parts[1].split("x")[0], line)
            if len(parts) > 3:
                terms.update(time=to_int(parts[2], line), inc=to_int(parts[3], line))
            return cls(to_int(head[0][5:], line), head[1], head[3], GameTerms(**terms))
        if len(words) < 3:
            raise LineError(f"too few game fields in {line!r}")
        nums = [to_int(w, line) for w in words[3:13]]
        return cls(to_int(words[0], line), words[1], words[2], GameTerms.read(nums, TERMS))
