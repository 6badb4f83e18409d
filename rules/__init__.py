"""Pure game cores (Tak, Trike, Traxit) behind one `Game` interface. No I/O in the
games (`rules.build.guard()`, called by the program's front doors, reads the install's
build manifest)."""

from rules.game import (
    FALSE_WORDS,
    TRUE_WORDS,
    Game,
    GameError,
    IllegalAction,
    NotationError,
    OptionError,
    OptionSpec,
    Outcome,
    PositionError,
    bool_word,
    validate_options,
)
from rules.registry import GAME_NAMES, game_class, new_game

__all__ = [
    "FALSE_WORDS",
    "GAME_NAMES",
    "TRUE_WORDS",
    "Game",
    "GameError",
    "IllegalAction",
    "NotationError",
    "OptionError",
    "OptionSpec",
    "Outcome",
    "PositionError",
    "bool_word",
    "game_class",
    "new_game",
    "validate_options",
]
