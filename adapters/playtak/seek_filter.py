"""Which seeks of other players the bot accepts, and which one it takes (sans-IO).

`SeekFilter.refusal(seek, me)` says why a seek is not for us (None: it is);
`SeekFilter.best(seeks)` picks among acceptable seeks by this rule:

1. a seek addressed to us by name before an open one;
2. the time control closest to the preferred one (`prefer`, the first of our own
   seeks), by the estimated length of a game, base + 40 x increment seconds;
3. the oldest (the lowest seek number).

`SeekFilter.parse(...)` reads the command line's `--accept-*` texts; a bad one raises
`SeekFilterError` naming the option and the text.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from adapters.playtak.commands import NAME_RE
from adapters.playtak.errors import PlaytakError
from adapters.playtak.seeks import SeekInfo

#: moves a game is taken to last when time controls are compared
MOVES_PER_GAME = 40
RATED_CHOICES = ("any", "rated", "unrated")
TOURNAMENT_CHOICES = ("any", "yes", "no")
OPPONENT_CHOICES = ("any", "bots", "humans")
COLOR_NAMES = {"W": "white", "B": "black", "A": "random"}


class SeekFilterError(PlaytakError, ValueError):
    """A bad `--accept-*` setting (the message names the option and the text)."""


@attrs.frozen
class Range:
    """Whole numbers from `low` to `high` (None: no upper end), both included."""

    low: int = 0
    high: int | None = None

    @classmethod
    def parse(cls, text: str, option: str) -> Range:
        """`MIN:MAX`, `MIN:`, `:MAX` or `N` (seconds, whole numbers)."""
        low, sep, high = text.strip().partition(":")
        try:
            lo = int(low) if low.strip() else 0
            hi = (int(high) if high.strip() else None) if sep else lo
        except ValueError:
            raise SeekFilterError(f"{option} {text!r}: give MIN:MAX in whole seconds") from None
        if lo < 0 or (hi is not None and hi < lo):
            raise SeekFilterError(f"{option} {text!r}: not a range of seconds from MIN to MAX")
        return cls(lo, hi)

    def __contains__(self, value: object) -> bool:
        return (
            isinstance(value, int)
            and self.low <= value
            and (self.high is None or value <= self.high)
        )

    def __str__(self) -> str:
        return f"{self.low}:{'' if self.high is None else self.high}"


def _items(text: str | None) -> list[str]:
    return [w for w in (text or "").replace(",", " ").split() if w]


def _numbers(text: str | None, option: str, low: int, high: int) -> frozenset[int]:
    out = set()
    for word in _items(text):
        if not word.isdigit() or not low <= int(word) <= high:
            raise SeekFilterError(f"{option} {text!r}: {word!r} is not a number {low}..{high}")
        out.add(int(word))
    return frozenset(out)


def player_names(text: str | None, option: str) -> frozenset[str]:
    """Player names (commas or spaces between), lower-cased; a bad one is refused."""
    names = _items(text)
    for name in names:
        if not NAME_RE.fullmatch(name):
            raise SeekFilterError(f"{option}: {name!r} is not a player name")
    return frozenset(n.lower() for n in names)


def _choice(text: str, option: str, choices: tuple[str, ...]) -> str:
    if text not in choices:
        raise SeekFilterError(f"{option} {text!r}: one of {', '.join(choices)}")
    return text


def game_seconds(time: int, inc: int) -> int:
    """The estimated length of one side's game: base + MOVES_PER_GAME x increment."""
    return time + MOVES_PER_GAME * inc


@attrs.frozen
class SeekFilter:
    """The seeks of other players we accept (empty sets and open ranges: any)."""

    sizes: frozenset[int] = frozenset()
    time: Range = Range()
    inc: Range = Range()
    komi: frozenset[int] = frozenset()
    #: the colours we accept to play: W, B, A (random)
    colors: frozenset[str] = frozenset()
    rated: str = RATED_CHOICES[0]
    tournament: str = TOURNAMENT_CHOICES[0]
    opponents: str = OPPONENT_CHOICES[0]
    allow: frozenset[str] = frozenset()
    block: frozenset[str] = frozenset()
    #: (base, increment) seconds of the time control we prefer (None: no preference)
    prefer: tuple[int, int] | None = None

    @classmethod
    def parse(
        cls,
        *,
        sizes: str | None = None,
        time: str | None = None,
        inc: str | None = None,
        komi: str | None = None,
        colors: str | None = None,
        rated: str = RATED_CHOICES[0],
        tournament: str = TOURNAMENT_CHOICES[0],
        opponents: str = OPPONENT_CHOICES[0],
        allow: str | None = None,
        block: str | None = None,
        prefer: tuple[int, int] | None = None,
    ) -> SeekFilter:
        """The filter of the `--accept-*` option texts (None: any)."""
        wanted_colors = frozenset(c.upper() for c in _items(colors))
        bad = wanted_colors - set(COLOR_NAMES)
        if bad:
            raise SeekFilterError(f"--accept-color {colors!r}: {sorted(bad)[0]!r} is not W, B or A")
        return cls(
            sizes=_numbers(sizes, "--accept-size", 3, 8),
            time=Range() if time is None else Range.parse(time, "--accept-time"),
            inc=Range() if inc is None else Range.parse(inc, "--accept-inc"),
            komi=_numbers(komi, "--accept-komi", 0, 8),
            colors=wanted_colors,
            rated=_choice(rated, "--accept-rated", RATED_CHOICES),
            tournament=_choice(tournament, "--accept-tournament", TOURNAMENT_CHOICES),
            opponents=_choice(opponents, "--accept-opponents", OPPONENT_CHOICES),
            allow=player_names(allow, "--allow"),
            block=player_names(block, "--block"),
            prefer=prefer,
        )

    def refusal(self, seek: SeekInfo, me: str) -> str | None:
        """Why we do not accept `seek` as the player `me` (None: we do)."""
        name = seek.name.lower()
        ours = "A" if seek.color == "A" else ("B" if seek.color == "W" else "W")
        checks = (
            (name == me.lower(), "it is our own"),
            (seek.opponent.lower() not in ("", me.lower()), f"it is for {seek.opponent}"),
            (name in self.block, f"{seek.name} is blocked"),
            (bool(self.allow) and name not in self.allow, f"{seek.name} is not allowed"),
            (bool(self.sizes) and seek.size not in self.sizes, f"size {seek.size}"),
            (seek.time not in self.time, f"base time {seek.time} s is not {self.time}"),
            (seek.inc not in self.inc, f"increment {seek.inc} s is not {self.inc}"),
            (bool(self.komi) and seek.komi not in self.komi, f"komi {seek.komi}"),
            (bool(self.colors) and ours not in self.colors, f"we would be {COLOR_NAMES[ours]}"),
            (self.rated == "rated" and seek.unrated, "unrated"),
            (self.rated == "unrated" and not seek.unrated, "rated"),
            (self.tournament == "yes" and not seek.tournament, "not a tournament game"),
            (self.tournament == "no" and seek.tournament, "a tournament game"),
            (self.opponents != "any" and seek.bot is None, "the server does not say if a bot"),
            (self.opponents == "bots" and seek.bot is False, f"{seek.name} is not a bot"),
            (self.opponents == "humans" and bool(seek.bot), f"{seek.name} is a bot"),
        )
        return next((why for failed, why in checks if failed), None)

    def accepts(self, seek: SeekInfo, me: str) -> bool:
        return self.refusal(seek, me) is None

    def rank(self, seek: SeekInfo, me: str = "") -> tuple[int, int, int]:
        """The order of the choice rule (see the module): smaller first."""
        addressed = 0 if me and seek.opponent.lower() == me.lower() else 1
        distance = 0
        if self.prefer is not None:
            wanted = game_seconds(*self.prefer)
            distance = abs(game_seconds(seek.time, seek.inc) - wanted)
        return (addressed, distance, seek.no)

    def best(self, acceptable: Iterable[SeekInfo], me: str = "") -> SeekInfo | None:
        """The seek the choice rule takes among `acceptable` ones (None: none)."""
        return min(acceptable, key=lambda seek: self.rank(seek, me), default=None)
