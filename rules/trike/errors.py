"""Trike's errors: each names the bad input and subclasses the shared rules errors."""

from __future__ import annotations

from rules.game import IllegalAction, NotationError, OptionError, PositionError


class TrikeOptionError(OptionError):
    """A rules option with a bad value (board side out of range, unknown seat)."""


class CellError(NotationError):
    """A cell name that is malformed or off the board."""


class ActionSyntaxError(NotationError):
    """Action text that is neither a cell, `from-to`, nor `swap`."""


class PositionStringError(NotationError):
    """A TrikePS string that cannot be parsed."""


class ImpossiblePosition(PositionError):
    """A TrikePS string that parses but cannot arise in a game."""


class OccupiedCell(IllegalAction):
    """The target cell already holds a checker."""


class OffLine(IllegalAction):
    """The target is not on one of the six lines through the pawn."""


class BlockedLine(IllegalAction):
    """A checker stands between the pawn and the target."""


class WrongOrigin(IllegalAction):
    """A `from-to` action whose origin is not the pawn's cell."""


class SwapNotAllowed(IllegalAction):
    """`swap` outside the second action of the game."""


class GameOverError(IllegalAction):
    """An action after the pawn is trapped."""
