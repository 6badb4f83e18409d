"""Tak: the rules core (fast board, moves in PTN, positions in TPS, PTN game files)."""

from rules.tak.board import Board
from rules.tak.game import TakGame, TakOptions
from rules.tak.move import Move
from rules.tak.position import Position
from rules.tak.ptn import PtnGame, PtnPly, parse_many

__all__ = ["Board", "Move", "Position", "PtnGame", "PtnPly", "TakGame", "TakOptions", "parse_many"]
