"""The TEI options an engine host declares, and how a `setoption` value is checked.

The host declares `Game` (a combo of the games it serves), `HalfKomi` (Tak), `Players`,
`Teams` and `ShortGame` (Traxit), followed by the options of the bots it serves. Names are
matched case-insensitively; values are validated against the declaration.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from bots.base import BotOption
from tei.errors import TeiError
from tei.protocol import OptionDecl

TRUE_WORDS = ("true", "false")


class OptionValueError(TeiError, ValueError):
    """A `setoption` for an unknown option or with a value the declaration forbids."""


@attrs.frozen
class HostOption:
    """One declared option; `decl` is what `tei` prints."""

    decl: OptionDecl

    @property
    def name(self) -> str:
        return self.decl.name

    def check(self, value: str | None) -> str:
        """The normalised value, or OptionValueError naming the option and the value."""
        decl = self.decl
        if decl.type == "button":
            return ""
        if value is None:
            raise OptionValueError(f"option {decl.name!r} needs a value")
        text = value.strip()
        if decl.type == "check":
            if text.lower() not in TRUE_WORDS:
                raise OptionValueError(f"option {decl.name!r} takes true or false, not {value!r}")
            return text.lower()
        if decl.type == "spin":
            try:
                number = int(text)
            except ValueError:
                raise OptionValueError(
                    f"option {decl.name!r} takes an integer, not {value!r}"
                ) from None
            low = decl.min if decl.min is not None else number
            high = decl.max if decl.max is not None else number
            if not low <= number <= high:
                raise OptionValueError(
                    f"option {decl.name!r} takes {decl.min}..{decl.max}, not {value!r}"
                )
            return str(number)
        if decl.type == "combo":
            for var in decl.vars:
                if var.lower() == text.lower():
                    return var
            raise OptionValueError(
                f"option {decl.name!r} takes one of {', '.join(decl.vars)}, not {value!r}"
            )
        return value


def from_bot_option(option: BotOption) -> HostOption:
    """The TEI declaration of a bot's option."""
    default = None if option.type == "button" else option.default
    return HostOption(
        OptionDecl(
            option.name,
            option.type,
            default,
            option.min,
            option.max,
            tuple(option.choices),
        )
    )


def game_options(
    games: Iterable[str], default_game: str, halfkomi: int, players: int, teams: bool, short: bool
) -> list[HostOption]:
    """The host's own options for the games it serves, with their defaults."""
    games = tuple(games)
    out = [HostOption(OptionDecl("Game", "combo", default_game, vars=games))]
    if "tak" in games:
        out.append(HostOption(OptionDecl("HalfKomi", "spin", str(halfkomi), 0, 8)))
    if "traxit" in games:
        out += [
            HostOption(OptionDecl("Players", "spin", str(players), 2, 4)),
            HostOption(OptionDecl("Teams", "check", "true" if teams else "false")),
            HostOption(OptionDecl("ShortGame", "check", "true" if short else "false")),
        ]
    return out
