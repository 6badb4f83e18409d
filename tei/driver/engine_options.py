"""Pure rules for engine options: matching declared names, the one value validator, and
what a new game needs to send (which options, which `teinewgame`) for the game's
`TeiSettings` (tei.game_rules), refused up front when the engine cannot play them."""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from rules.game import GameError, OptionError
from tei.errors import OptionValueError, TeiError
from tei.game_rules import TeiSettings, legacy_games
from tei.protocol import OptionDecl, SizeDecl, TeiNewGame


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
    """The text to send for `value` (`OptionDecl.parse`), or None for a button;
    OptionRefused if not allowed."""
    try:
        return decl.parse(value)
    except OptionValueError as exc:
        raise OptionRefused(decl.name, exc.why) from None


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


@attrs.frozen
class NewGameMessages:
    """What `new_game` sends: option settings (in order, `Game` first), then `teinewgame`."""

    settings: tuple[tuple[str, str], ...]
    teinewgame: TeiNewGame


def tei_settings(game: str, rules: Mapping[str, str]) -> TeiSettings:
    """`TeiSettings.of`, with an unknown game or a bad rules option refused."""
    try:
        return TeiSettings.of(game, rules)
    except OptionError as exc:
        raise OptionRefused(exc.option, str(exc)) from None
    except GameError as exc:
        raise OptionRefused("Game", str(exc)) from None


def plan_new_game(
    told: TeiSettings,
    options: Mapping[str, OptionDecl],
    sizes: SizeDecl | None = None,
) -> NewGameMessages:
    """Decide the messages of a new game; OptionRefused when the engine cannot play it.

    Engines that declare no `Game` option only play the legacy games (Tak) and get plain
    legacy TEI. Komi goes through `HalfKomi` (legacy) or `teinewgame size N halfkomi K`
    (TEI v1, for the game TEI v1 speaks of, when the engine sent `size` lines). A setting
    the engine does not declare is refused unless it is at the game's default.
    """
    game = told.game
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
    v1 = sizes is not None and told.v1_komi is not None
    for name, value in told.setoptions(v1=v1):
        decl = find_option(options, name)
        if decl is None:
            if name in told.neutral:
                continue
            raise OptionRefused(name, f"not declared, needed for {game} rules {name}={value}")
        normalize_value(decl, value)
        settings.append((decl.name, value))
    if sizes is not None and v1:
        size, halfkomi = told.size, told.halfkomi
        if sizes.sizes and size not in sizes.sizes:
            raise OptionRefused("size", f"the engine plays sizes {sizes.sizes}, not {size}")
        komis = sizes.halfkomis or (0,)
        if halfkomi not in komis:
            raise OptionRefused("HalfKomi", f"the engine plays half-komi {komis}, not {halfkomi}")
        return NewGameMessages(tuple(settings), TeiNewGame(size, halfkomi, v1=True))
    return NewGameMessages(tuple(settings), TeiNewGame(told.size))


def declared_refusal(
    game: str,
    rules: Mapping[str, str],
    options: Mapping[str, OptionDecl],
    sizes: SizeDecl | None,
) -> str | None:
    """Why an engine that declared `options` and `sizes` cannot play `game` under
    `rules` (rules options, as the game's core takes them), or None when it can."""
    try:
        plan_new_game(tei_settings(game, rules), options, sizes)
    except OptionRefused as exc:
        return str(exc)
    return None
