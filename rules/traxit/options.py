"""Traxit rules options (strings, as every core takes them) -> a Layout and the start tiles.

players 2-4 (default 2) · teams (4 players: seats 0+2 against 1+3) · shortgame (3 sets of 3
rounds, 9 tiles per player) · seed (integer, default 0: which 9 tiles in the short game) ·
tiles (the short game's tiles, e.g. `T01,T02,...` for everyone or one `/`-separated list per
seat) · allow_mirror (tiles may also be mirrored) · bonus_per (`set` or `game`).
"""

from __future__ import annotations

import random

from rules.game import GameError, Options
from rules.traxit.board import DEFAULT_OWNERS, DEFAULT_SIDES, default_obstacles
from rules.traxit.state import Layout
from rules.traxit.tiles import ALL_TILES_MASK, TILE_COUNT, parse_tile

_TRUE = ("1", "true", "yes", "on")
_FALSE = ("", "0", "false", "no", "off")
SHORT_SETS, SHORT_ROUNDS = 3, 3


def bool_option(options: Options, key: str) -> bool:
    value = options.get(key, "").strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise GameError(f"option {key}={options[key]!r}: expected true or false")


def int_option(options: Options, key: str, default: int, low: int, high: int) -> int:
    text = options.get(key, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise GameError(f"option {key}={text!r}: expected an integer") from None
    if not low <= value <= high:
        raise GameError(f"option {key}={value}: must be {low}..{high}")
    return value


def layout_from_options(options: Options | None) -> tuple[Layout, tuple[int, ...]]:
    """The game frame and each seat's tiles for these options; GameError names a bad one."""
    opts = {k.lower(): v for k, v in (options or {}).items()}
    n = int_option(opts, "players", 2, 2, 4)
    teams = bool_option(opts, "teams")
    if teams and n != 4:
        raise GameError(f"option teams=true needs players=4, not {n}")
    short = bool_option(opts, "shortgame")
    mirror = bool_option(opts, "allow_mirror")
    bonus_per = opts.get("bonus_per", "set").strip().lower() or "set"
    if bonus_per not in ("set", "game"):
        raise GameError(f"option bonus_per={bonus_per!r}: expected set or game")
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
    listed = opts.get("tiles", "").strip()
    if listed and not short:
        raise GameError("option tiles: only the short game (shortgame=true) leaves tiles out")
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
    rng = random.Random(int_option(opts, "seed", 0, 0, 2**63 - 1))
    return tuple(sum(1 << t for t in rng.sample(range(TILE_COUNT), count)) for _ in range(n))
