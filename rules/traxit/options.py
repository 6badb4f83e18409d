"""Traxit rules options (strings, as every core takes them) -> a Layout and the start tiles.

The options are `OPTION_SPECS` (players, teams, shortgame, seed, tiles, allow_mirror,
bonus_per; see docs/traxit.md); `check_options` validates them with the rules that link
them (teams means 4 players; tiles only in the short game).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from rules.game import GameError, OptionError, Options, OptionSpec, validate_options
from rules.traxit.board import DEFAULT_OWNERS, DEFAULT_SIDES, default_obstacles
from rules.traxit.state import Layout
from rules.traxit.tiles import ALL_TILES_MASK, TILE_COUNT, parse_tile

SHORT_SETS, SHORT_ROUNDS = 3, 3
TEAM_PLAYERS = 4

#: Traxit's rules options (see docs/traxit.md)
OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "players",
        "int",
        "2",
        "number of seats",
        min(DEFAULT_OWNERS),
        max(DEFAULT_OWNERS),
        tei="Players",
        in_position=True,
    ),
    OptionSpec(
        "teams",
        "bool",
        "false",
        f"2 against 2 (means players={TEAM_PLAYERS})",
        tei="Teams",
        in_position=True,
    ),
    OptionSpec(
        "shortgame",
        "bool",
        "false",
        f"{SHORT_SETS} sets of {SHORT_ROUNDS} rounds with {SHORT_SETS * SHORT_ROUNDS} tiles each",
        tei="ShortGame",
        in_position=True,
    ),
    OptionSpec(
        "seed", "int", "0", "which tiles the short game deals", 0, 2**63 - 1, tei="DealSeed"
    ),
    OptionSpec(
        "tiles",
        "str",
        "",
        "the short game's tiles (default: dealt from seed): T01,T02,... or one list "
        "per seat, /-separated",
        tei="Tiles",
    ),
    OptionSpec("allow_mirror", "bool", "false", "tiles may also be mirrored", tei="AllowMirror"),
    OptionSpec(
        "bonus_per",
        "choice",
        "set",
        "how often the bonus can be earned",
        choices=("set", "game"),
        tei="BonusPer",
    ),
)


def check_options(options: Mapping[str, Any] | None) -> dict[str, str]:
    """The options validated and normalised; `teams` implies players=4."""
    given = validate_options(OPTION_SPECS, options, "Traxit")
    if given.get("teams") == "true":
        players = given.setdefault("players", str(TEAM_PLAYERS))
        if players != str(TEAM_PLAYERS):
            raise OptionError(
                f"option teams=true needs players={TEAM_PLAYERS}, not {players}",
                "players",
                players,
            )
    if "tiles" in given and given.get("shortgame") != "true":
        raise OptionError(
            "option tiles: only the short game (shortgame=true) leaves tiles out",
            "tiles",
            given["tiles"],
        )
    return given


def layout_from_options(options: Options | None) -> tuple[Layout, tuple[int, ...]]:
    """The game frame and each seat's tiles for these options; GameError names a bad one."""
    opts = check_options(options)
    n = int(opts.get("players", "2"))
    teams = opts.get("teams") == "true"
    short = opts.get("shortgame") == "true"
    mirror = opts.get("allow_mirror") == "true"
    bonus_per = opts.get("bonus_per", "set")
    sets, rounds = (SHORT_SETS, SHORT_ROUNDS) if short else (4, 4)
    layout = Layout(
        owners=DEFAULT_OWNERS[n],
        sides=DEFAULT_SIDES[n],
        obstacles=default_obstacles(n),
        teams=teams,
        sets=sets,
        rounds=rounds,
        mirror=mirror,
        bonus_game=bonus_per == "game",
    )
    return layout, start_tiles(opts, n, sets * rounds, short)


def start_tiles(opts: Options, n: int, count: int, short: bool) -> tuple[int, ...]:
    listed = opts.get("tiles", "")
    if not short:
        return (ALL_TILES_MASK,) * n
    if listed:
        groups = listed.split("/")
        if len(groups) not in (1, n):
            raise GameError(f"option tiles={listed!r}: give one list, or one per seat ({n})")
        masks = []
        for group in groups:
            mask = 0
            for item in group.replace(" ", ",").split(","):
                if item:
                    try:
                        mask |= 1 << parse_tile(item)
                    except ValueError as exc:
                        raise GameError(f"option tiles={listed!r}: {exc}") from None
            if bin(mask).count("1") != count:
                raise GameError(f"option tiles={listed!r}: each list needs {count} tiles")
            masks.append(mask)
        return tuple(masks) if len(masks) == n else (masks[0],) * n
    rng = random.Random(int(opts.get("seed", "0")))
    return tuple(sum(1 << t for t in rng.sample(range(TILE_COUNT), count)) for _ in range(n))
