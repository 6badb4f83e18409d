"""Pure rules for engine options: matching declared names, the one value validator, and
what a new game needs to send (which options, which `teinewgame`), refused up front when
the engine cannot play the requested rules."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from rules.game import GameError
from rules.registry import new_game
from tei.errors import TeiError
from tei.protocol import OptionDecl, SizeDecl, TeiNewGame

#: rules option key -> (TEI option name, value meaning "not needed")
RULE_OPTIONS: dict[str, tuple[str, str]] = {
    "halfkomi": ("HalfKomi", "0"),
    "players": ("Players", "2"),
    "teams": ("Teams", "false"),
    "shortgame": ("ShortGame", "false"),
}


_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


@functools.cache
def default_size(game: str) -> int | None:
    """The board size a game's core starts with when no `size` is given (None: the game
    has no size, e.g. Traxit, or is unknown); sent with `teinewgame` by default."""
    try:
        size = getattr(new_game(game), "size", None)
    except GameError:
        return None
    return size if isinstance(size, int) else None


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
        if text.lower() in _TRUE:
            return "true"
        if text.lower() in _FALSE:
            return "false"
        raise OptionRefused(decl.name, f"{value!r} is not true or false")
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
    """Games from a combo option `Game` (lower-case); {"tak"} when it is absent."""
    decl = find_option(options, "Game")
    if decl is None:
        return frozenset({"tak"})
    names = {v.lower() for v in decl.vars}
    if decl.default:
        names.add(decl.default.lower())
    return frozenset(names) or frozenset({"tak"})


def _same(a: str, b: str) -> bool:
    a, b = a.strip().lower(), b.strip().lower()
    if (a in _TRUE and b in _TRUE) or (a in _FALSE and b in _FALSE):
        return True
    return a == b


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

    Engines that declare no `Game` option only play Tak and get plain legacy TEI. Komi
    goes through `HalfKomi` (legacy) or `teinewgame size N halfkomi K` (TEI v1, when the
    engine sent `size` lines); without either, only half-komi 0 is playable. Other rules
    options go to the declared option of the same name; one the engine does not declare is
    refused unless it has its neutral value.
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
    elif game != "tak":
        raise OptionRefused(
            "Game", f"the engine declares no Game option, so it plays only tak, not {game}"
        )
    size: int | None = default_size(game)
    halfkomi = 0
    for key, value in rules.items():
        key = key.strip().lower()
        if key == "size":
            try:
                size = int(value)
            except ValueError:
                raise OptionRefused("size", f"{value!r} is not an integer") from None
            continue
        if key == "halfkomi":
            try:
                halfkomi = int(value)
            except ValueError:
                raise OptionRefused("HalfKomi", f"{value!r} is not an integer") from None
            if sizes is not None:
                continue  # TEI v1 carries komi in teinewgame
        tei_name, neutral = RULE_OPTIONS.get(key, (key, None))
        decl = find_option(options, tei_name)
        if decl is None:
            if neutral is not None and _same(value, neutral):
                continue
            raise OptionRefused(tei_name, f"not declared, needed for rules option {key}={value}")
        normalize_value(decl, value)
        settings.append((decl.name, value))
    if sizes is not None and game == "tak":
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
