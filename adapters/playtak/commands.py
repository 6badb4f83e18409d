"""Client -> server commands of the playtak protocol (sans-IO), both ways.

Clients build commands and send `to_line()`; the local server reads lines with
`parse_client_line`, which follows the real server's regexes, prefix matching included
(so `Seek 5 180 10 W 4 21 1 0 0` without the trailing space is read as the short V1 seek
and loses its komi, exactly like on playtak.com).
"""

from __future__ import annotations

import random
import re
import string

import attrs

from adapters.playtak.seeks import DRAW_UNDO, AsRead, FixedLine, GameWord, Template
from adapters.playtak.terms import BOARD_CLOCK, REST, ClockView, GameTerms

NAME_RE = re.compile(r"[a-zA-Z][a-zA-Z0-9_]{3,15}")
PASSWORD_RE = re.compile(r"[^\s]{6,50}")
GUEST_TOKEN_RE = re.compile(r"[a-z]{20}")

#: what each number of a seek after its colour takes, said when a word is not one
SEEK_FIELDS = {
    "komi": "is not a whole number of half-flats 0..8 (komi 2.5 flats is 5)",
    "flats": "is not a whole number of flat stones",
    "caps": "is not a whole number of capstones",
    "unrated": "is not 0 or 1",
    "tournament": "is not 0 or 1",
    "trigger": "is not a move number",
    "amount": "is not a whole number of seconds",
}


@attrs.frozen
class ProtocolCmd(Template):
    FORMAT = "Protocol {version}"

    version: int


@attrs.frozen
class ClientCmd(Template):
    FORMAT = "Client {name}"

    name: str


@attrs.frozen
class Login(Template):
    FORMAT = "Login {name} {password}"

    name: str
    password: str = attrs.field(repr=False)


@attrs.frozen
class LoginGuest:
    """`Login Guest [token]`: a 20-letter lower-case token keeps the same guest for 4 h."""

    token: str | None = None

    def to_line(self) -> str:
        return "Login Guest" + (f" {self.token}" if self.token else "")

    @classmethod
    def fresh(cls, rng: random.Random | None = None) -> LoginGuest:
        """A login with a new random token (20 lower-case letters)."""
        chooser = rng or random.SystemRandom()
        return cls("".join(chooser.choice(string.ascii_lowercase) for _ in range(20)))


@attrs.frozen
class Seek(ClockView):
    """A seek; `to_line()` always ends the opponent field with its separating space."""

    terms: GameTerms
    color: str = "A"  # the seeker's colour: W, B, A
    opponent: str = ""

    def to_line(self) -> str:
        terms = self.terms
        head = f"Seek {terms.text(BOARD_CLOCK)} {self.color} {terms.text(REST[:-2])} "
        if self.trigger or self.amount:
            head += f"{self.trigger} {self.amount} "
        return head + self.opponent

    @classmethod
    def parse_spec(cls, text: str) -> Seek:
        """A seek from `size time inc [color komi flats caps unrated tournament
        [trigger amount]] [opponent]` (the command line's --seek)."""
        words = text.split()
        if len(words) < 3:
            raise ValueError(f"seek {text!r}: give at least 'size time increment'")
        try:
            size, time, inc = (int(w) for w in words[:3])
        except ValueError:
            raise ValueError(f"seek {text!r}: size, time and increment are numbers") from None
        color = words[3].upper() if len(words) > 3 else "A"
        if color not in ("W", "B", "A"):
            raise ValueError(f"seek {text!r}: colour {words[3]!r} is not W, B or A")
        rest = words[4:]
        opponent = ""
        if rest and rest[-1][:1].isalpha():
            opponent = rest.pop()
            if not NAME_RE.fullmatch(opponent):
                raise ValueError(f"seek {text!r}: {opponent!r} is not a player name")
        for name, word in zip(REST, rest, strict=False):
            if not word.isdigit():
                raise ValueError(f"seek {text!r}: {name} {word!r} {SEEK_FIELDS[name]}")
        if len(rest) not in (0, 1, 3, 5, 7):
            raise ValueError(
                f"seek {text!r}: expected size time inc color komi flats caps unrated "
                "tournament [trigger amount] [opponent]"
            )
        nums = [int(w) for w in rest]
        if not 3 <= size <= 8:
            raise ValueError(f"seek {text!r}: size {size} is not 3..8")
        terms = GameTerms.read(nums, REST, size=size, time=time, inc=inc)
        if not 0 <= terms.komi <= 8:
            raise ValueError(f"seek {text!r}: komi {terms.komi} (half-flats) is not 0..8")
        return cls(terms, color, opponent)


class RemoveSeek(FixedLine):
    LINE = "Seek 0 0 0 A 0 0 0 0 0 "


@attrs.frozen
class Accept(Template):
    FORMAT = "Accept {seek_no}"

    seek_no: int


class ListSeeks(FixedLine):
    LINE = "List"


class ListGames(FixedLine):
    LINE = "GameList"


@attrs.frozen
class Observe:
    game_id: int
    stop: bool = False

    def to_line(self) -> str:
        return f"{'Unobserve' if self.stop else 'Observe'} {self.game_id}"


@attrs.frozen
class PlayMove(Template):
    """`Game#1 P A1 W` / `Game#1 M A1 C1 1 2` (move in server notation)."""

    FORMAT = "Game#{game_id} {move}"

    game_id: int
    move: str


#: what a player says about a game in one word: the draw and undo words, and `Resign`
GAME_ACTIONS = (*DRAW_UNDO, "Resign")


class GameAction(GameWord):
    """`Game#1 OfferDraw`, `RemoveDraw`, `RequestUndo`, `RemoveUndo`, `Resign`."""


@attrs.frozen
class Say:
    """`Shout text` (name None) or `Tell name text`."""

    text: str
    to: str | None = None

    def to_line(self) -> str:
        return f"Tell {self.to} {self.text}" if self.to else f"Shout {self.text}"


class Ping(FixedLine):
    LINE = "PING"


class Quit(FixedLine):
    LINE = "quit"


class UnknownCommand(AsRead):
    """A line the server does not understand (answered with NOK)."""


ClientCommand = (
    ProtocolCmd
    | ClientCmd
    | Login
    | LoginGuest
    | Seek
    | RemoveSeek
    | Accept
    | ListSeeks
    | ListGames
    | Observe
    | PlayMove
    | GameAction
    | Say
    | Ping
    | Quit
    | UnknownCommand
)

_N = r"(\d+)"
_SEEK_V1 = re.compile(r"Seek (\d) (\d+) (\d+)( [WB])?")
_SEEK_V2 = re.compile(
    r"Seek (\d) (\d+) (\d+) ([WBA]) (\d+) (\d+) (\d+) (0|1) (0|1) ([A-Za-z0-9_]*)"
)
_SEEK_V3 = re.compile(
    r"Seek (\d) (\d+) (\d+) ([WBA]) (\d+) (\d+) (\d+) (0|1) (0|1) (\d+) (\d+) ([A-Za-z0-9_]*)"
)
_PLACE = re.compile(r"Game#(\d+) P ([A-Z])(\d)( C)?( W)?")
_MOVE = re.compile(r"Game#(\d+) M ([A-Z])(\d) ([A-Z])(\d)((?: \d)+)")
_ACTION = re.compile(r"Game#(\d+) (" + "|".join(GAME_ACTIONS) + ")")
_PROTOCOL = re.compile(r"Protocol ([1-9][0-9]{0,8})")
_CLIENT = re.compile(r"Client ([A-Za-z\-.0-9]{1,60})")
_TELL = re.compile(r"Tell ([a-zA-Z][a-zA-Z0-9_]{3,15}) (.{1,256})", re.S)


def _seek_from_match(m: re.Match[str], v3: bool) -> Seek | RemoveSeek:
    size = int(m[1])
    if size == 0:
        return RemoveSeek()
    if not 3 <= size <= 8:
        size = 5
    trigger, amount = (int(m[10]), int(m[11])) if v3 else (0, 0)
    opponent = m[12] if v3 else m[10]
    terms = GameTerms(
        size,
        int(m[2]),
        int(m[3]),
        min(int(m[5]), 8),
        max(10, min(int(m[6]), 80)),
        min(int(m[7]), 5),
        m[8] == "1",
        m[9] == "1",
        trigger,
        amount,
    )
    return Seek(terms, m[4], opponent)


def parse_client_line(line: str) -> ClientCommand:
    """What the server makes of one client line (trailing CR/LF removed); never raises."""
    text = line.rstrip("\r\n")
    if text == "PING":
        return Ping()
    if text == "quit":
        return Quit()
    if text.startswith("Login "):
        words = text.split(" ")
        if len(words) >= 2 and words[1] == "Guest":
            token = words[2] if len(words) > 2 and GUEST_TOKEN_RE.fullmatch(words[2]) else None
            return LoginGuest(token)
        if len(words) == 3 and NAME_RE.fullmatch(words[1]) and PASSWORD_RE.fullmatch(words[2]):
            return Login(words[1], words[2])
        return UnknownCommand(text)
    if m := _PROTOCOL.match(text):
        return ProtocolCmd(int(m[1]))
    if m := _CLIENT.match(text):
        return ClientCmd(m[1])
    if m := _SEEK_V3.match(text):
        return _seek_from_match(m, v3=True)
    if m := _SEEK_V2.match(text):
        return _seek_from_match(m, v3=False)
    if m := _SEEK_V1.match(text):
        size = int(m[1])
        if size == 0:
            return RemoveSeek()
        size = size if 3 <= size <= 8 else 5
        return Seek(GameTerms(size, int(m[2]), int(m[3])), (m[4] or " A").strip())
    if m := re.match(r"Accept " + _N, text):
        return Accept(int(m[1]))
    if text.startswith("GameList"):
        return ListGames()
    if text.startswith("List"):
        return ListSeeks()
    if m := re.match(r"(Observe|Unobserve) " + _N, text):
        return Observe(int(m[2]), stop=m[1] == "Unobserve")
    if m := _PLACE.match(text):
        piece = "C" if m[4] else "W" if m[5] else ""
        square = m[2] + m[3]
        return PlayMove(int(m[1]), f"P {square}" + (f" {piece}" if piece else ""))
    if m := _MOVE.match(text):
        # any squares and drops: the game itself refuses a bad one with its error text
        return PlayMove(int(m[1]), f"M {m[2]}{m[3]} {m[4]}{m[5]}{m[6]}")
    if m := _ACTION.match(text):
        return GameAction(int(m[1]), m[2])
    if m := re.match(r"Shout (.{1,256})", text, re.S):
        return Say(m[1])
    if m := _TELL.match(text):
        return Say(m[2], to=m[1])
    return UnknownCommand(text)


__all__ = [
    "GAME_ACTIONS",
    "GUEST_TOKEN_RE",
    "NAME_RE",
    "PASSWORD_RE",
    "Accept",
    "ClientCmd",
    "ClientCommand",
    "GameAction",
    "ListGames",
    "ListSeeks",
    "Login",
    "LoginGuest",
    "Observe",
    "Ping",
    "PlayMove",
    "ProtocolCmd",
    "Quit",
    "RemoveSeek",
    "Say",
    "Seek",
    "UnknownCommand",
    "parse_client_line",
]
