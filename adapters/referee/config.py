"""Match settings: from `--engine k=v ...` words, `--each` and the other settings
(declared in `adapters.referee.settings`), to one JSON-able settings dict (kept in the
state file for resuming) and from that to a checked `MatchConfig`."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from adapters.referee.adjudication import AdjudicationError, AdjudicationRules
from adapters.referee.clock import TimeControl, TimeControlError
from adapters.referee.engines import EngineSpec, MatchError, unique_names
from adapters.referee.settings import DEFAULTS as DEFAULTS
from adapters.referee.settings import NUMBERS, check_shapes
from adapters.referee.sprt import Sprt, SprtError
from rules.game import GameError
from rules.registry import game_class
from tei.game_rules import check_game_options, pinned_rules, rules_set_options

#: keys of an engine (an --engine spec or a table of the engines file; plus option.NAME)
ENGINE_KEYS = (
    "conf",
    "cmd",
    "name",
    "dir",
    "arg",
    "bot",
    "tc",
    "st",
    "nodes",
    "depth",
    "margin",
    "restart",
    "options",
)
#: the clock of an engine given no tc=, st=, nodes= or depth=
DEFAULT_TC = "10+0.1"


def parse_engine_words(words: Sequence[str]) -> dict[str, Any]:
    """`cmd="..." name=X option.Hash=64 tc=10+0.1` -> a dict (options gathered)."""
    out: dict[str, Any] = {}
    options: dict[str, str] = {}
    args: list[str] = []
    for word in words:
        key, sep, value = word.partition("=")
        if not sep:
            raise MatchError(f"engine setting {word!r} is not KEY=VALUE")
        if key.startswith("option."):
            options[key[len("option.") :]] = value
        elif key == "arg":
            args.append(value)
        elif key in ENGINE_KEYS:
            out[key] = value
        else:
            raise MatchError(
                f"unknown engine key {key!r}; known: {', '.join(ENGINE_KEYS)}, option.NAME"
            )
    if options:
        out["options"] = options
    if args:
        out["arg"] = args
    return out


def merge_engine(each: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """An engine's own keys over the shared ones (options merged name by name)."""
    merged = {**each, **own}
    options = {**dict(each.get("options") or {}), **dict(own.get("options") or {})}
    if options:
        merged["options"] = options
    return merged


def engine_spec(entry: Mapping[str, Any], game: str, number: int) -> EngineSpec:
    """An EngineSpec from one merged engine entry; MatchError naming the entry if bad."""
    label = entry.get("name") or entry.get("bot") or f"engine {number}"
    limited = any(entry.get(key) is not None for key in ("tc", "st", "nodes", "depth"))
    try:
        control = TimeControl.from_settings(
            tc=_text(entry.get("tc")) if limited else DEFAULT_TC,
            st=_text(entry.get("st")),
            nodes=_text(entry.get("nodes")),
            depth=_text(entry.get("depth")),
            margin=_text(entry.get("margin")),
        )
    except TimeControlError as exc:
        raise MatchError(f"engine {label!r}: {exc}") from None
    if not control.timed and control.nodes is None and control.depth is None:
        raise MatchError(f"engine {label!r} has no limit: give tc=, st=, nodes= or depth=")
    options = tuple((str(k), _text(v) or "") for k, v in dict(entry.get("options") or {}).items())
    for key, _ in options:
        if key.lower() in rules_set_options(game):
            raise MatchError(
                f"engine {label!r}: option.{key} is set by the referee from the match's rules"
                " (--game and the game options: --size, --komi, --players, --rule, ...)"
            )
    extra = entry.get("arg") or []
    if isinstance(extra, str):
        extra = [extra]
    restart = str(entry.get("restart", "auto")).lower()
    if restart not in ("auto", "on"):
        raise MatchError(f"engine {label!r}: restart={restart} is not auto or on")
    if entry.get("bot"):
        if entry.get("cmd"):
            raise MatchError(f"engine {label!r}: give cmd= or bot=, not both")
        return EngineSpec.builtin(
            game,
            str(entry["bot"]),
            name=entry.get("name"),
            options=options,
            control=control,
            cwd=entry.get("dir"),
            restart=restart == "on",
        )
    cmd = entry.get("cmd")
    if not cmd:
        raise MatchError(f"engine {label!r} needs cmd=COMMAND or bot=NAME")
    argv = shlex.split(cmd) if isinstance(cmd, str) else [str(c) for c in cmd]
    if not argv:
        raise MatchError(f"engine {label!r}: empty cmd")
    return EngineSpec(
        name=str(entry.get("name") or Path(argv[0]).name),
        argv=(*argv, *(str(a) for a in extra)),
        cwd=entry.get("dir"),
        options=options,
        control=control,
        restart=restart == "on",
    )


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@attrs.frozen
class MatchConfig:
    """Everything a match needs, checked: the settings (`MatchSettings` declares them)
    converted, the engines as specs, the SPRT and the adjudication rules parsed."""

    game: str
    rules: Mapping[str, str]
    engines: tuple[EngineSpec, ...]
    tournament: str
    games: int
    rounds: int
    concurrency: int
    cluster: str | None
    openings: tuple[str, ...]
    openings_format: str
    openings_order: str
    openings_start: int
    openings_plies: int | None
    seed: int | None
    max_plies: int | None
    grace: float
    timeout: float
    records: str | None
    log: str | None
    json: str | None
    sprt: Sprt | None
    event: str
    site: str
    settings: Mapping[str, Any]
    adjudication: AdjudicationRules = attrs.field(factory=AdjudicationRules)


def seats_per_game(config: MatchConfig) -> int:
    """Seats of one game of the match (Traxit: its players option)."""
    return game_class(config.game).new(config.rules).players


def team_game(config: MatchConfig) -> bool:
    """Whether seats play in teams (Traxit's teams option)."""
    return len(game_class(config.game).new(config.rules).partners(0)) > 1


def build_config(settings: Mapping[str, Any]) -> MatchConfig:
    """A MatchConfig from a settings dict (as made by the CLI or read from a state file)."""
    check_shapes(settings, "match settings")
    s = {**DEFAULTS, **settings}
    game = str(s["game"]).lower()
    try:
        rules = check_game_options(game, dict(s["rules"]))
    except GameError as exc:
        raise MatchError(str(exc)) from None
    rules = pinned_rules(game, rules)
    for key, parse in NUMBERS.items():
        if s[key] is not None:
            try:
                parse(str(s[key]))
            except argparse.ArgumentTypeError as exc:
                raise MatchError(f"{key} {exc}") from None
    each = dict(s["each"] or {})
    entries = list(s["engines"] or [])
    if len(entries) < 2:
        raise MatchError(f"a match needs at least 2 engines, got {len(entries)}")
    merged = [merge_engine(each, entry) for entry in entries]
    engines = unique_names(
        [engine_spec(entry, game, i + 1) for i, entry in enumerate(merged)],
        [bool(entry.get("name")) for entry in merged],
    )
    sprt = None
    if s["sprt"]:
        words = s["sprt"] if isinstance(s["sprt"], list) else str(s["sprt"]).split()
        try:
            sprt = Sprt.parse(words)
        except SprtError as exc:
            raise MatchError(str(exc)) from None
    try:
        config = MatchConfig(
            game=game,
            rules=rules,
            engines=engines,
            tournament=str(s["tournament"]),
            games=int(s["games"]),
            rounds=int(s["rounds"]),
            concurrency=int(s["concurrency"]),
            cluster=_cluster(s["cluster"]),
            openings=tuple(str(p) for p in (s["openings"] or [])),
            openings_format=str(s["openings_format"]),
            openings_order=str(s["openings_order"]),
            openings_start=int(s["openings_start"]),
            openings_plies=None if s["openings_plies"] is None else int(s["openings_plies"]),
            seed=None if s["seed"] is None else int(s["seed"]),
            max_plies=None if not s["max_plies"] else int(s["max_plies"]),
            grace=float(s["grace"]),
            timeout=float(s["timeout"]),
            records=s["records"],
            log=s["log"],
            json=s["json"],
            sprt=sprt,
            event=str(s["event"]),
            site=str(s["site"]),
            settings=dict(s),
        )
    except (TypeError, ValueError) as exc:
        if isinstance(exc, MatchError):
            raise
        raise MatchError(f"bad match setting: {exc}") from None
    try:
        rules_of_adjudication = AdjudicationRules.from_settings(s, game, seats_per_game(config))
    except AdjudicationError as exc:
        raise MatchError(str(exc)) from None
    return attrs.evolve(config, adjudication=rules_of_adjudication)


def _cluster(value: Any) -> str | None:
    """The --cluster address, checked (imports nothing of Dask)."""
    if value is None or str(value).strip().lower() in ("", "none"):
        return None
    from adapters.referee.cluster import ClusterAddress

    return ClusterAddress.parse(str(value)).describe()
