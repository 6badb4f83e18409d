"""A match's settings, declared once.

`MatchSettings` has one field a setting, named as the settings dict (and the state file
that keeps it for resuming) names it, with its default and its `Setting`: the shape a
config or state file may give it, a numeric setting's range, its choices, how the
command line's value becomes it and whether a resumed match takes it from the command
line. `DEFAULTS`, `NUMBERS`, `RESUMABLE` and `check_shapes` are read off it; so are the
defaults, argparse types and choices of `tei match`'s options (`tei.cli.match_options`),
and `build_config` checks a settings dict against it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

import attrs

from adapters.referee.engines import MatchError
from adapters.referee.openings import FORMATS
from adapters.referee.schedule import MAX_GAMES, TOURNAMENTS
from adapters.referee.setting_types import (
    ADJUDICATION,
    ENGINE,
    ENGINES,
    FILES,
    RULES,
    SCALAR,
    TEXT,
    WORDS,
    Shape,
)
from tei.values import SEED, float_in, int_in

#: ceilings of the counts (--games and --rounds: schedule.MAX_GAMES)
MAX_CONCURRENCY = 256
MAX_PLIES = 1_000_000
MAX_INDEX = 1_000_000_000
MAX_SECONDS = 1_000_000

#: the metadata key of a field's `Setting`
SETTING = "adapters.referee.setting"

#: how the command line's value becomes the setting: as given, its words joined by
#: spaces, a path (or list of paths) as text, or built from other options (the rules
#: from the game's options, the engines from --engine and --each)
Form = Literal["value", "words", "path", "paths", "built"]


@attrs.frozen
class Setting:
    """What a match setting may be, besides its default."""

    shape: Shape = SCALAR
    #: a numeric setting's parser: range-checked (its option's argparse type too)
    number: Callable[[str], float] | None = None
    choices: tuple[str, ...] | None = None
    form: Form = "value"
    #: a resumed match takes it from the command line (the rest is the state file's)
    resumable: bool = False


def match_setting(default: Any, **setting: Any) -> Any:
    """A field: a setting with its default (a list or dict copied per instance)."""
    meta = {SETTING: Setting(**setting)}
    if isinstance(default, list | dict):
        return attrs.field(factory=default.copy, metadata=meta)
    return attrs.field(default=default, metadata=meta)


@attrs.frozen
class MatchSettings:
    """Every setting of a match, as the state file keeps them (JSON-able)."""

    game: str = match_setting("tak", shape=TEXT)
    rules: dict[str, Any] = match_setting({}, shape=RULES, form="built")
    engines: list[dict[str, Any]] = match_setting([], shape=ENGINES, form="built")
    each: dict[str, Any] = match_setting({}, shape=ENGINE, form="built")
    tournament: str = match_setting("round-robin", shape=TEXT, choices=TOURNAMENTS)
    games: int = match_setting(2, number=int_in(1, MAX_GAMES))
    rounds: int = match_setting(1, number=int_in(1, MAX_GAMES))
    concurrency: int = match_setting(1, number=int_in(1, MAX_CONCURRENCY), resumable=True)
    #: a Dask scheduler address or `local[:N]`; None: games run in this process
    cluster: str | None = match_setting(None, resumable=True)
    openings: list[str] = match_setting([], shape=FILES, form="paths")
    openings_format: str = match_setting("auto", choices=("auto", *FORMATS))
    openings_order: str = match_setting("sequential", choices=("sequential", "random"))
    openings_start: int = match_setting(0, number=int_in(0, MAX_INDEX))
    openings_plies: int | None = match_setting(None, number=int_in(0, MAX_PLIES))
    seed: int | None = match_setting(None, number=SEED)
    max_plies: int = match_setting(1000, number=int_in(0, MAX_PLIES))
    grace: float = match_setting(1.0, number=float_in(0, MAX_SECONDS), resumable=True)
    timeout: float = match_setting(
        60.0, number=float_in(0, MAX_SECONDS, above=True), resumable=True
    )
    records: str | None = match_setting(None, shape=TEXT, form="path")
    log: str | None = match_setting(None, shape=TEXT, form="path", resumable=True)
    json: str | None = match_setting(None, shape=TEXT, form="path", resumable=True)
    sprt: list[str] | None = match_setting(None, shape=WORDS)
    resign: str | None = match_setting(None, shape=ADJUDICATION, form="words")
    draw: str | None = match_setting(None, shape=ADJUDICATION, form="words")
    tinue_adjudication: str | None = match_setting(None, shape=ADJUDICATION, form="words")
    event: str = match_setting("tei match")
    site: str = match_setting("local")


#: each setting's `Setting`, by name
DECLARED: dict[str, Setting] = {
    field.name: field.metadata[SETTING] for field in attrs.fields(MatchSettings)
}
#: the settings and their defaults (a settings dict from it; mutable defaults shared)
DEFAULTS: dict[str, Any] = attrs.asdict(MatchSettings(), recurse=False)
#: the numeric settings' parsers: the command line's argparse types, applied again to
#: the values of a config file or a state file
NUMBERS: dict[str, Callable[[str], float]] = {
    name: setting.number for name, setting in DECLARED.items() if setting.number is not None
}
#: what a resumed match takes from the command line
RESUMABLE = tuple(name for name, setting in DECLARED.items() if setting.resumable)


def named(form: Form) -> tuple[str, ...]:
    """The settings of this form."""
    return tuple(name for name, setting in DECLARED.items() if setting.form == form)


def check_shapes(settings: Mapping[str, Any], where: str) -> None:
    """MatchError naming the first setting of `settings` (and `where` they come from)
    whose type is wrong, down to an engine's key (`engines 2.options.Hash`); a key
    that is no setting is a string or a number."""
    for key, value in settings.items():
        shape = DECLARED[key].shape if key in DECLARED else SCALAR
        why = shape(key, value)
        if why is not None:
            raise MatchError(f"{where}: {why}")
