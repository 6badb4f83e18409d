"""Pure rules for engine options: matching declared names, the one value validator, and
what a new game needs to send (which options, which `teinewgame`), refused up front when
the engine cannot play the requested rules."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs

from rules.game import Game, GameError, OptionError, OptionSpec, bool_word
from rules.registry import GAME_NAMES, game_class
from tei.errors import TeiError
from tei.protocol import OptionDecl, SizeDecl, TeiNewGame


def _game(game: str) -> type[Game[Any]] | None:
    """The game's class; None for a game that is unknown or whose core is not installed."""
    try:
        return game_class(game)
    except (GameError, ImportError):
        return None


def _size_spec(game: str) -> OptionSpec | None:
    """The game's option that `teinewgame` carries (the board size), if it has one."""
    cls = _game(game)
    return next((s for s in cls.option_specs() if s.newgame), None) if cls else None


def default_size(game: str) -> int | None:
    """The board size a game's core starts with when no `size` is given (None: the game
    has no size, e.g. Traxit, or is unknown); sent with `teinewgame` by default."""
    spec = _size_spec(game)
    return int(spec.default) if spec is not None else None


@functools.cache
def legacy_games() -> frozenset[str]:
    """The games of engines that declare no `Game` option (`Game.tei_legacy`)."""
    classes = (_game(name) for name in GAME_NAMES)
    return frozenset(cls.name for cls in classes if cls is not None and cls.tei_legacy)


@functools.cache
def _told(game: str) -> dict[str, OptionSpec]:
    """The options engines are told, by rules name and by TEI name (lower case): the
    game's own over those of the other games (whose defaults need no declaration)."""
    out: dict[str, OptionSpec] = {}
    for name in (*(n for n in GAME_NAMES if n != game), game):
        cls = _game(name)
        for spec in cls.option_specs() if cls else ():
            if spec.tei is not None:
                out[spec.name] = out[spec.tei.lower()] = spec
    return out


def _at_default(spec: OptionSpec | None, value: str) -> bool:
    """Whether `value` is the option's default (an engine that does not declare the
    option plays it anyway)."""
    if spec is None:
        return False
    try:
        return spec.normalise(value) == spec.default
    except OptionError:
        return False


class OptionRefused(TeiError, ValueError):
    """An option that cannot be set: `name` is the option, the message says why."""

    def __init__(self, name: str, why: str) -> None:
        super().__init__(f"option {name!r}: {why}")
        self.name = name
        self.why = why


def find_option(options: Mapping[str, OptionDecl], name: str) -> OptionDecl | None:
    """The declared option called `name`, matched case-insensitively (sent as declared)."""
    if name in options:
        return options[name]
    wanted = name.strip().lower()
    for decl in options.values():
        if decl.name.lower() == wanted:
            return decl
    return None


def normalize_value(decl: OptionDecl, value: str) -> str | None:
    """The text to send for `value`, or None for a button; OptionRefused if not allowed."""
    kind = decl.type.lower()
    text = value.strip()
    if kind == "button":
        return None
    if kind == "check":
        flag = bool_word(text)
        if flag is None:
            raise OptionRefused(decl.name, f"{value!r} is not true or false")
        return "true" if flag else "false"
    if kind == "spin":
        try:
            number = int(text)
        except ValueError:
            raise OptionRefused(decl.name, f"{value!r} is not an integer") from None
        if decl.min is not None and number < decl.min:
            raise OptionRefused(decl.name, f"{number} is below the minimum {decl.min}")
        if decl.max is not None and number > decl.max:
            raise OptionRefused(decl.name, f"{number} is above the maximum {decl.max}")
        return str(number)
    if kind == "combo":
        for var in decl.vars:
            if var.lower() == text.lower():
                return var
        if not decl.vars and decl.default is not None and decl.default.lower() == text.lower():
            return decl.default
        allowed = ", ".join(decl.vars) or "(none)"
        raise OptionRefused(decl.name, f"{value!r} is not one of {allowed}")
    return value


def initial_value(decl: OptionDecl) -> str | None:
    """The value an option has before we set it: its declared default, normalized."""
    if decl.default is None or decl.type.lower() == "button":
        return None
    try:
        return normalize_value(decl, decl.default)
    except OptionRefused:
        return decl.default


def declared_games(options: Mapping[str, OptionDecl]) -> frozenset[str]:
    """Games from a combo option `Game` (lower-case); the legacy games (Tak) when it is
    absent."""
    decl = find_option(options, "Game")
    if decl is None:
        return legacy_games()
    names = {v.lower() for v in decl.vars}
    if decl.default:
        names.add(decl.default.lower())
    return frozenset(names) or legacy_games()


def _integer(name: str, value: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise OptionRefused(name, f"{value!r} is not an integer") from None


@attrs.frozen
class NewGamePlan:
    """What `new_game` sends: option settings (in order, `Game` first), then `teinewgame`."""

    settings: tuple[tuple[str, str], ...]
    teinewgame: TeiNewGame


def plan_new_game(
    game: str,
    rules: Mapping[str, str],
    options: Mapping[str, OptionDecl],
    sizes: SizeDecl | None = None,
) -> NewGamePlan:
    """Decide the messages of a new game; OptionRefused when the engine cannot play it.

    Engines that declare no `Game` option only play the legacy games (Tak) and get plain
    legacy TEI. The game's option specs say what each rules option is called in TEI (keys
    are rules names or TEI names) and which one `teinewgame` carries (the size). Komi goes
    through `HalfKomi` (legacy) or `teinewgame size N halfkomi K` (TEI v1, for the game
    TEI v1 speaks of, when the engine sent `size` lines). A rules option the engine does
    not declare is refused unless it has the game's default value.
    """
    game = game.strip().lower()
    settings: list[tuple[str, str]] = []
    game_decl = find_option(options, "Game")
    if game_decl is not None:
        allowed = declared_games(options)
        if game not in allowed:
            raise OptionRefused(
                "Game", f"the engine plays {', '.join(sorted(allowed))}, not {game}"
            )
        settings.append((game_decl.name, game))
    elif game not in legacy_games():
        only = ", ".join(sorted(legacy_games()))
        raise OptionRefused(
            "Game", f"the engine declares no Game option, so it plays only {only}, not {game}"
        )
    cls = _game(game)
    v1_komi = cls.tei_v1_komi if cls is not None and sizes is not None else None
    told = _told(game)
    size: int | None = default_size(game)
    halfkomi = 0
    for key, value in rules.items():
        key = key.strip().lower()
        spec = told.get(key)
        if spec is not None and spec.newgame:
            size = _integer(spec.name, value)
            continue
        if spec is not None and spec.name == v1_komi:
            halfkomi = _integer(spec.tei or spec.name, value)
            continue  # TEI v1 carries komi in teinewgame
        tei_name = spec.tei if spec is not None and spec.tei is not None else key
        decl = find_option(options, tei_name)
        if decl is None:
            if _at_default(spec, value):
                continue
            raise OptionRefused(tei_name, f"not declared, needed for rules option {key}={value}")
        normalize_value(decl, value)
        settings.append((decl.name, value))
    if sizes is not None and v1_komi is not None:
        if sizes.sizes and size not in sizes.sizes:
            raise OptionRefused("size", f"the engine plays sizes {sizes.sizes}, not {size}")
        komis = sizes.halfkomis or (0,)
        if halfkomi not in komis:
            raise OptionRefused("HalfKomi", f"the engine plays half-komi {komis}, not {halfkomi}")
        return NewGamePlan(tuple(settings), TeiNewGame(size, halfkomi, v1=True))
    return NewGamePlan(tuple(settings), TeiNewGame(size))


def declared_refusal(
    game: str,
    rules: Mapping[str, str],
    options: Mapping[str, OptionDecl],
    sizes: SizeDecl | None,
) -> str | None:
    """Why an engine that declared `options` and `sizes` cannot play `game` under
    `rules`, or None when it can."""
    try:
        plan_new_game(game, rules, options, sizes)
    except OptionRefused as exc:
        return str(exc)
    return None
