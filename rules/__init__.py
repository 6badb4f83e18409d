"""Pure game cores (Tak, Trike, Traxit) behind one `Game` interface. No I/O here."""

from rules.game import (
    Game,
    GameError,
    IllegalAction,
    NotationError,
    Outcome,
    PositionError,
)
from rules.registry import GAME_NAMES, game_class, new_game

__all__ = [
    "GAME_NAMES",
    "Game",
    "GameError",
    "IllegalAction",
    "NotationError",
    "Outcome",
    "PositionError",
    "game_class",
    "new_game",
]
