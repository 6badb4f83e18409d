"""The game's optional draw rules as the Tak search sees them (`repetition`, `rule50`).

`DrawRules` follows the line the search is on: `enter` records each position reached
(its hash and the plies in a row without a placement or a wall flattening), `drawn`
says whether the position at a ply ends the game as a draw: 50 such plies, a position
repeated inside the search (treated as a draw, as chess engines do) or occurring for
the third time counting the game's history before the root.
"""

from __future__ import annotations

from typing import Final

from rules.tak.tables import CRUSH_BIT, KIND_SHIFT

RULE50_PLIES: Final = 50


class DrawRules:
    """The draw rules of one search line, by ply from the root (0 is the root)."""

    def __init__(self, plies: int) -> None:
        self.repetition = False
        self.rule50 = False
        #: occurrences of each position in the game so far (root included)
        self.seen: dict[int, int] = {}
        #: hash and plies without a placement or a crush, by ply from the root
        self.path = [0] * plies
        self.quiet = [0] * plies

    def set(self, repetition: bool, rule50: bool, seen: dict[int, int], quiet: int) -> bool:
        """Turn the rules on or off for the next search: `seen` counts the positions of
        the game (root included), `quiet` the plies in a row without a placement or a
        wall flattening before the root. True if either rule is on."""
        self.repetition = repetition
        self.rule50 = rule50
        self.seen = seen
        self.quiet[0] = quiet
        return repetition or rule50

    def enter(self, code: int, ply: int, key: int) -> None:
        """Record the position `key` reached at `ply` by the move `code`."""
        self.path[ply] = key
        if (code >> KIND_SHIFT) & 3 != 3 or code & CRUSH_BIT:
            self.quiet[ply] = 0
        else:
            self.quiet[ply] = self.quiet[ply - 1] + 1

    def drawn(self, ply: int) -> bool:
        """Whether the position at `ply` is drawn by a rule that is on."""
        quiet = self.quiet[ply]
        if self.rule50 and quiet >= RULE50_PLIES:
            return True
        if not self.repetition or quiet < 2:
            return False
        key = self.path[ply]
        # only positions since the last placement or crush can repeat this one
        i = ply - 2
        stop = ply - quiet
        while i >= 0 and i >= stop:
            if self.path[i] == key:
                return True
            i -= 2
        # before the root: the game's own history
        return stop < 0 and self.seen.get(key, 0) >= 2
