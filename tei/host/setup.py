"""How an engine host is set up: its configuration, the bots it serves and the options it
declares, checked once before the first line is read."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from bots.base import Bot
from bots.registry import default_bot, make_bot
from rules.game import Game, GameError, OptionSpec
from rules.registry import game_class
from tei.errors import OptionValueError, TeiError
from tei.host.options import HostOption, from_bot_option, game_options


class HostSetupError(TeiError, ValueError):
    """The host cannot serve what it was asked to (no such game or bot)."""


@attrs.frozen
class HostConfig:
    """How a host is set up; `rules` are rules options for `game` from the command line."""

    game: str = "tak"
    bot: str | None = None
    rules: Mapping[str, str] = attrs.field(factory=dict)
    #: games to offer; None = `game` only (an engine declares the options of the game it
    #: serves, so a Tak GUI sees no Traxit settings)
    games: tuple[str, ...] | None = None
    tei_v1: bool = False
    #: seconds a bot gets to answer after `stop` before the host answers for it
    stop_grace: float = 0.05
    #: seconds a bot gets to answer once its reports show a `go depth`/`go nodes` limit
    #: reached, before the host answers for it
    limit_grace: float = 1.0
    #: the longest (seconds) a `go depth`/`go nodes` search with no time limit may run
    #: before the host stops it as if `stop` had come; None = no cap
    limit_cap: float | None = None
    name: str = "tei-host"
    #: `id version` at the handshake (the package version and its build); "" = none
    version: str = ""


def load_bot(game: str, name: str) -> Bot:
    """A new bot: a built-in one by name, or `module:Class` naming any Bot subclass."""
    if ":" not in name:
        return make_bot(game, name)
    module_name, _, attr = name.partition(":")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"cannot load bot {name!r}: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        raise ValueError(f"{name!r} is not a Bot class")
    if cls.games and game not in cls.games:
        raise ValueError(f"bot {name!r} does not play {game}")
    bot: Bot = cls()
    return bot


def _importable(name: str) -> bool:
    try:
        game_class(name)
    except ImportError:
        return False
    return True


@attrs.frozen
class HostSetup:
    """What a host serves: a bot per game, the command line's rules options for the
    configured game (validated), and every option it declares (game's, rules', bots')."""

    bots: dict[str, Bot]
    rules: dict[str, str]
    options: list[HostOption]
    #: TEI name (lower case) -> the rules option it sets
    rule_specs: dict[str, OptionSpec]


def _bots(config: HostConfig, make: Callable[[str, str], Bot]) -> dict[str, Bot]:
    candidates = config.games if config.games is not None else (config.game,)
    bots: dict[str, Bot] = {}
    problems: dict[str, str] = {}
    for game in candidates:
        if config.games is None and not _importable(game):
            problems[game] = "its rules core is not available"
            continue
        try:
            bots[game] = make(game, config.bot or default_bot(game))
        except (ValueError, ImportError) as exc:
            problems[game] = str(exc)
    if config.game not in bots:
        why = problems.get(config.game, "unknown game")
        offered = ", ".join(bots) or "none"
        raise HostSetupError(
            f"cannot serve game {config.game!r} with bot {config.bot or 'default'!r}: "
            f"{why} (games available: {offered})"
        )
    return bots


def host_setup(
    config: HostConfig,
    game_factory: Callable[[str], type[Game[Any]]] = game_class,
    bot_factory: Callable[[str, str], Bot] | None = None,
) -> HostSetup:
    """The bots and options for `config`; HostSetupError says what cannot be served."""
    bots = _bots(config, bot_factory or load_bot)
    try:
        rules = game_factory(config.game).validate_options(config.rules)
    except GameError as exc:
        raise HostSetupError(f"bad rules option: {exc}") from None
    options = game_options(bots, config.game, rules, game_factory)
    rule_specs = {o.name.lower(): o.spec for o in options if o.spec is not None}
    for option in options:
        try:
            option.check(option.decl.default)
        except OptionValueError as exc:
            raise HostSetupError(f"{exc} (from the command line)") from None
    own = {o.name.lower() for o in options}
    for bot in bots.values():
        for bot_option in bot.options:
            if bot_option.name.lower() not in own:
                own.add(bot_option.name.lower())
                options.append(from_bot_option(bot_option))
    return HostSetup(bots, rules, options, rule_specs)
