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
from rules.game import Game, GameError, OptionSpec
from rules.registry import game_class
from tei.errors import OptionValueError
from tei.game_rules import option_decl, told_options
from tei.protocol import OptionDecl


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
        parsed = self.decl.parse(value)
        if parsed is None:  # a button
            return ""
        if self.decl.type == "string" and self.spec is not None and parsed.strip() != "":
            try:
                return self.spec.normalise(parsed)
            except GameError:
                why = f"takes {self.spec.values_text()}, not {value!r}"
                raise OptionValueError(self.name, why) from None
        return parsed


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
    return HostOption(option_decl(spec, default), spec)


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
