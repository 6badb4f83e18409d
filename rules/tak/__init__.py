"""Tak: the rules core (fast board, moves in PTN, positions in TPS, PTN game files)."""

from rules.tak.board import Board
from rules.tak.game import TakGame, TakOptions
from rules.tak.move import Move
from rules.tak.position import Position

__all__ = ["Board", "Move", "Position", "TakGame", "TakOptions"]
