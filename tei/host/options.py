"""The TEI options an engine host declares, and how a `setoption` value is checked.

The host declares `Game` (a combo of the games it serves), then the rules options each
game's option specs say engines are told by `setoption` (Tak's `HalfKomi`, Traxit's
`Players`, `Teams`, `ShortGame`, ...), followed by the options of the bots it serves.
Names are matched case-insensitively; values are validated against the declaration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

import attrs

from bots.base import BotOption
from rules.game import Game, GameError, OptionSpec, bool_word
from rules.registry import game_class
from tei.errors import TeiError
from tei.game_rules import told_options
from tei.protocol import OptionDecl


class OptionValueError(TeiError, ValueError):
    """A `setoption` for an unknown option or with a value the declaration forbids."""


@attrs.frozen
class HostOption:
    """One declared option; `decl` is what `tei` prints."""

    decl: OptionDecl
    #: the rules option it sets, if any (its spec checks text values)
    spec: OptionSpec | None = None

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
            flag = bool_word(text)
            if flag is None:
                raise OptionValueError(f"option {decl.name!r} takes true or false, not {value!r}")
            return "true" if flag else "false"
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
        if self.spec is not None and text != "":
            try:
                return self.spec.normalise(text)
            except GameError as exc:
                raise OptionValueError(f"option {decl.name!r}: {exc}") from None
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


def spec_option(spec: OptionSpec, default: str) -> HostOption:
    """The TEI declaration of a rules option engines are told by `setoption`."""
    assert spec.tei is not None
    if spec.kind == "int" and default != "":
        return HostOption(OptionDecl(spec.tei, "spin", default, spec.low, spec.high), spec)
    if spec.kind == "bool":
        return HostOption(OptionDecl(spec.tei, "check", default), spec)
    if spec.kind == "choice":
        return HostOption(OptionDecl(spec.tei, "combo", default, vars=spec.choices), spec)
    # text, or a number whose default depends on other options ("" = that default)
    return HostOption(OptionDecl(spec.tei, "string", default), spec)


def game_options(
    games: Iterable[str],
    default_game: str,
    rules: Mapping[str, str],
    classes: Callable[[str], type[Game[Any]]] = game_class,
) -> list[HostOption]:
    """The host's own options for the games it serves: `Game` (left out when the one
    game served is what an engine without it plays: Tak), then per game the rules
    options told by `setoption`. Defaults come from the specs, and
    for `default_game` from `rules` (validated options from the command line)."""
    games = tuple(games)
    legacy = len(games) == 1 and classes(games[0]).tei_legacy
    out = [] if legacy else [HostOption(OptionDecl("Game", "combo", default_game, vars=games))]
    seen = {"game"}
    for game in games:
        given = rules if game == default_game else {}
        for spec in told_options(classes(game)):
            assert spec.tei is not None
            if spec.tei.lower() in seen:
                continue
            seen.add(spec.tei.lower())
            out.append(spec_option(spec, given.get(spec.name, spec.default)))
    return out
