"""Game cores by name; imported lazily so that one game's import cost is not paid by another."""

from __future__ import annotations

import importlib
from typing import Any

from rules.game import Game, GameError, Options

_GAMES: dict[str, str] = {
    "tak": "rules.tak.game:TakGame",
    "trike": "rules.trike.game:TrikeGame",
    "traxit": "rules.traxit.game:TraxitGame",
}

GAME_NAMES: tuple[str, ...] = tuple(_GAMES)


def game_class(name: str) -> type[Game[Any]]:
    """The Game subclass registered under `name` (case-insensitive)."""
    key = name.strip().lower()
    if key not in _GAMES:
        raise GameError(f"unknown game {name!r}; known: {', '.join(GAME_NAMES)}")
    module_name, _, attr = _GAMES[key].partition(":")
    cls: type[Game[Any]] = getattr(importlib.import_module(module_name), attr)
    return cls


def new_game(name: str, options: Options | None = None) -> Game[Any]:
    return game_class(name).new(options)
