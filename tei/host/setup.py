"""How an engine host is set up: its configuration, the bots it serves and the options it
declares, checked once before the first line is read."""

from __future__ import annotations

import importlib
import inspect
import traceback
from collections.abc import Callable, Mapping
from typing import Any

import attrs

from bots.base import Bot
from bots.registry import default_bot, make_bot
from rules.game import Game, GameError, OptionSpec
from rules.registry import game_class
from tei.errors import OptionValueError, TeiError
from tei.host.declared_options import HostOption, from_bot_option, game_options


class HostSetupError(TeiError, ValueError):
    """The host cannot serve what it was asked to (no such game or bot)."""


class BotLoadError(HostSetupError):
    """A `module:Class` bot cannot be loaded: the message names the file and line."""


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
    stop_grace: float = 0.5
    #: seconds a bot gets to answer once its reports show a `go depth`/`go nodes` limit
    #: reached, before the host answers for it
    limit_grace: float = 1.0
    #: the longest (seconds) a `go depth`/`go nodes` search with no time limit may run
    #: before the host stops it as if `stop` had come; None = no cap
    limit_cap: float | None = None
    name: str = "tei-host"
    #: `id version` at the handshake (the package version and its build); "" = none
    version: str = ""
    #: ms past the move's whole time (movetime or clock) the host waits for its bot before
    #: answering for it (a referee's margin); None = its own deadline (`search_deadlines`)
    overrun_grace_ms: float | None = None
    #: a bot failure (exception, bad action, overrun) ends the session with exit status 1
    #: instead of a stand-in answer
    strict: bool = False


def _where(exc: BaseException) -> str:
    """`file:line: ` of the innermost frame an exception went through ("" if none)."""
    frames = traceback.extract_tb(exc.__traceback__)
    return f"{frames[-1].filename}:{frames[-1].lineno}: " if frames else ""


def _problem(exc: BaseException) -> str:
    return traceback.format_exception_only(exc)[-1].strip()


def bot_class(name: str) -> type[Bot]:
    """The Bot subclass `module:Class` names; BotLoadError names the file and line of
    what stops it from loading (a syntax error, an error while importing, no such class,
    not a Bot)."""
    module_name, _, attr = name.partition(":")
    failed = f"cannot load bot {name!r}"
    try:
        module = importlib.import_module(module_name)
    except SyntaxError as exc:
        where = f"{exc.filename}:{exc.lineno}: " if exc.filename else ""
        raise BotLoadError(f"{failed}: {where}{type(exc).__name__}: {exc.msg}") from None
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise BotLoadError(
                f"{failed}: no module {exc.name!r} on the Python path (set PYTHONPATH)"
            ) from None
        raise BotLoadError(f"{failed}: {_where(exc)}{_problem(exc)}") from None
    except Exception as exc:
        raise BotLoadError(f"{failed}: {_where(exc)}{_problem(exc)}") from None
    file = getattr(module, "__file__", None) or module_name
    cls = getattr(module, attr, None)
    if cls is None:
        raise BotLoadError(f"{failed}: {file}: no {attr!r} in module {module_name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Bot)):
        try:
            line = f":{inspect.getsourcelines(cls)[1]}"
        except (OSError, TypeError):
            line = ""
        raise BotLoadError(f"{failed}: {file}{line}: {attr} is not a subclass of bots.base.Bot")
    return cls


def load_bot(game: str, name: str) -> Bot:
    """A new bot: a built-in one by name, or `module:Class` naming any Bot subclass
    (BotLoadError when it cannot be loaded or made)."""
    if ":" not in name:
        return make_bot(game, name)
    cls = bot_class(name)
    if cls.games and game not in cls.games:
        raise ValueError(f"bot {name!r} does not play {game}")
    try:
        bot: Bot = cls()
    except Exception as exc:
        raise BotLoadError(f"cannot make bot {name!r}: {_where(exc)}{_problem(exc)}") from None
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
        except BotLoadError:
            raise
        except (ValueError, ImportError) as exc:
            problems[game] = str(exc)
    if config.game not in bots:
        why = problems.get(config.game, "unknown game")
        offered = f" (games available: {', '.join(bots)})" if bots else ""
        raise HostSetupError(
            f"cannot serve game {config.game!r} with bot {config.bot or 'default'!r}: "
            f"{why}{offered}"
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
