"""Rules options <-> TEI: the one place that says what engines are told of a game's rules,
and how an engine host reads its rules back from what it was told.

A game's option specs (`rules.game.OptionSpec`) state the facts: each option's TEI name
(None: engines are not told, the referee applies it), whether `teinewgame` carries it (the
board size), whether it is told even at its default. `Game.tei_legacy` says whether
engines that declare no `Game` option play the game, `Game.tei_v1_komi` which option TEI
v1 carries in `teinewgame size N halfkomi K`. Everything else is here:

- `TeiSettings.of(game, rules)`: rules options (by their rules names, as the core takes
  them) -> what a driver tells an engine (a distinct type: TEI names and values);
- `rules_from_tei(game, size, values, base)`: what a host was told -> rules options;
- the host's declarations: `told_options`, `option_decl`, `v1_sizes`, `v1_komi_option`,
  `takes_komi` (and `v1_komi_spec`, the checker's komi probe);
- the referee's: `referee_rules` (what engines are not told: the referee applies it),
  `rules_set_options` (the TEI options an engine entry may not set: the rules set them),
  `pinned_rules` (the rules with what engines are always told written down).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import attrs

from rules.game import Game, GameError, OptionError, OptionSpec
from rules.registry import GAME_NAMES, game_class
from tei.protocol_messages import OptionDecl

__all__ = [
    "TeiSettings",
    "check_game_options",
    "legacy_games",
    "option_decl",
    "pinned_rules",
    "referee_rules",
    "rules_from_tei",
    "rules_set_options",
    "takes_komi",
    "told_options",
    "v1_komi_option",
    "v1_komi_spec",
    "v1_sizes",
]


def _class(game: str) -> type[Game[Any]] | None:
    """The game's class; None for a game that is unknown or whose core is not installed."""
    try:
        return game_class(game)
    except (GameError, ImportError):
        return None


def _size_spec(cls: type[Game[Any]]) -> OptionSpec | None:
    """The option `teinewgame` carries (the board size), if the game has one."""
    return next((s for s in cls.option_specs() if s.newgame), None)


@attrs.frozen
class TeiSettings:
    """What engines are told of one game's rules.

    `size` goes in `teinewgame` (None: the game has no board size). `settings` are the
    `setoption` (TEI name, value) pairs in spec order: each told option that was given,
    and each `always` one (at its default when not given). `neutral` holds the TEI names
    whose value is the game's default: an engine that does not declare such an option
    plays these rules anyway. `v1_komi` is the TEI name of the setting TEI v1 carries in
    `teinewgame ... halfkomi K` (Tak's `HalfKomi`; None: TEI v1 does not speak of the
    game). Equal settings are the same rules, however they were given (`komi 2` and
    `halfkomi 4`).
    """

    game: str
    size: int | None
    settings: tuple[tuple[str, str], ...] = ()
    neutral: frozenset[str] = frozenset()
    v1_komi: str | None = None

    @classmethod
    def of(cls, game: str, rules: Mapping[str, Any] | None = None) -> TeiSettings:
        """The settings of `game` under `rules` (rules names, validated by the game's
        core); GameError for an unknown game, OptionError for a bad rules option."""
        core = game_class(game.strip().lower())
        checked = core.validate_options(rules)
        size: int | None = None
        settings: list[tuple[str, str]] = []
        neutral: set[str] = set()
        v1_komi: str | None = None
        for spec in core.option_specs():
            if spec.tei is None:
                continue
            value = checked.get(spec.name, spec.default)
            if spec.newgame:
                size = int(value)
                continue
            if spec.name == core.tei_v1_komi:
                v1_komi = spec.tei
            if value == "" or (spec.name not in checked and not spec.always):
                continue
            settings.append((spec.tei, value))
            if value == spec.default:
                neutral.add(spec.tei)
        return cls(core.name, size, tuple(settings), frozenset(neutral), v1_komi)

    @classmethod
    def of_game(cls, game: Game[Any]) -> TeiSettings:
        """The settings of a `Game` given without its rules: its board size (read from the
        game, under the name of the option `teinewgame` carries), the rest at defaults."""
        spec = _size_spec(game_class(game.name))
        size = getattr(game, spec.name, None) if spec is not None else None
        return cls.of(game.name, {spec.name: str(size)} if spec and size is not None else {})

    @property
    def halfkomi(self) -> int:
        """The value of the TEI v1 komi setting (0 when not told)."""
        return int(dict(self.settings).get(self.v1_komi or "", "0"))

    def setoptions(self, *, v1: bool = False) -> tuple[tuple[str, str], ...]:
        """The settings sent by `setoption`: all of them, or with `v1` all but the komi
        TEI v1 carries in `teinewgame`."""
        if not v1 or self.v1_komi is None:
            return self.settings
        return tuple((name, value) for name, value in self.settings if name != self.v1_komi)


@functools.cache
def legacy_games() -> frozenset[str]:
    """The games of engines that declare no `Game` option (`Game.tei_legacy`)."""
    classes = (_class(name) for name in GAME_NAMES)
    return frozenset(cls.name for cls in classes if cls is not None and cls.tei_legacy)


def told_options(cls: type[Game[Any]]) -> tuple[OptionSpec, ...]:
    """The rules options engines are told by `setoption` (what a host declares)."""
    return tuple(s for s in cls.option_specs() if s.tei is not None and not s.newgame)


def option_decl(spec: OptionSpec, default: str) -> OptionDecl:
    """The TEI declaration of a told rules option: an integer is a `spin` with its range,
    a yes/no a `check`, a choice a `combo`, a text (or a number whose default depends on
    other options, `default` "") a `string`."""
    assert spec.tei is not None
    if spec.kind == "int" and default != "":
        return OptionDecl(spec.tei, "spin", default, spec.low, spec.high)
    if spec.kind == "bool":
        return OptionDecl(spec.tei, "check", default)
    if spec.kind == "choice":
        return OptionDecl(spec.tei, "combo", default, vars=spec.choices)
    return OptionDecl(spec.tei, "string", default)


def takes_komi(cls: type[Game[Any]]) -> bool:
    """Whether engines are told a komi for this game (TEI v1's `halfkomi`: Tak's)."""
    return v1_komi_option(cls) is not None


def v1_sizes(cls: type[Game[Any]]) -> tuple[int, ...]:
    """The board sizes TEI v1 `size` lines announce for a game: its size option's range."""
    spec = _size_spec(cls)
    assert spec is not None and spec.low is not None and spec.high is not None
    return tuple(range(spec.low, spec.high + 1))


def v1_komi_spec(cls: type[Game[Any]]) -> OptionSpec | None:
    """The rules option `teinewgame ... halfkomi K` sets (TEI v1), if any."""
    return next((s for s in cls.option_specs() if s.name == cls.tei_v1_komi), None)


def v1_komi_option(cls: type[Game[Any]]) -> str | None:
    """The TEI name of the option `teinewgame ... halfkomi K` sets (TEI v1), if any."""
    spec = v1_komi_spec(cls)
    return spec.tei if spec is not None else None


def referee_rules(game: str) -> frozenset[str]:
    """The rules options engines are not told: the referee applies them (a game they end
    is adjudicated)."""
    return frozenset(spec.name for spec in game_class(game).option_specs() if not spec.told)


def rules_set_options(game: str) -> frozenset[str]:
    """The TEI options (lower case) set from a match's game and rules: `Game` and each
    told rules option (an engine's own settings may not name them)."""
    told = {spec.tei.lower() for spec in game_class(game).option_specs() if spec.tei}
    return frozenset({"game", *told})


def pinned_rules(game: str, rules: Mapping[str, str]) -> dict[str, str]:
    """`rules` with each option engines are always told (the board size, `always` ones)
    written down at its default when not given: an engine's own default must not decide
    (the size the engines are told is the size judged)."""
    out = dict(rules)
    for spec in game_class(game).option_specs():
        if spec.newgame or spec.always:
            out.setdefault(spec.name, spec.default)
    return out


def rules_from_tei(
    cls: type[Game[Any]],
    size: int | None,
    values: Mapping[str, str],
    base: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The rules options a host plays from what TEI told it: `base` (e.g. the command
    line's), the board size of the last `teinewgame` (None: not told), and each told
    option's value in `values` (by lower-case TEI name; "" means the default)."""
    opts = dict(base or {})
    for spec in cls.option_specs():
        if spec.tei is None:
            continue
        if spec.newgame:
            if size is not None:
                opts[spec.name] = str(size)
            continue
        value = values.get(spec.tei.lower())
        if value is None:
            continue
        if value == "":
            opts.pop(spec.name, None)
        else:
            opts[spec.name] = value
    return opts


#: rules option -> the flag that sets it (for "drop --komi" hints)
FLAGS = {
    "size": "--size",
    "komi": "--komi",
    "halfkomi": "--komi",
    "players": "--players",
    "teams": "--teams",
    "shortgame": "--short-game",
}


def check_game_options(game: str, rules: Mapping[str, Any]) -> dict[str, str]:
    """`rules` validated and normalised for `game` (see `Game.validate_options`).

    GameError names the bad option; one that belongs to other games says so and which
    flag to drop (`komi is a Tak rule; trike has none (drop --komi)`).
    """
    cls = game_class(game)
    try:
        checked = cls.validate_options(rules)
        cls.new(checked)  # what only a game can check (e.g. Traxit's list of tiles)
        return checked
    except OptionError as exc:
        key = exc.option.strip().lower()
        if key in {spec.name for spec in cls.option_specs()}:
            raise
        owners = [
            name.capitalize()
            for name in GAME_NAMES
            if name != cls.name and key in {s.name for s in game_class(name).option_specs()}
        ]
        if not owners:
            raise
        flag = FLAGS.get(key, f"--rule {key}=...")
        raise OptionError(
            f"{key} is a {' and '.join(owners)} rule; {cls.name} has none (drop {flag})",
            exc.option,
            exc.value,
        ) from None
