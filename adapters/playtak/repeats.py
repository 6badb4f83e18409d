"""Log lines a server can repeat without end (draw offers, lines we cannot read, game
starts that are not ours), said a bounded number of times (sans-IO: the caller logs)."""

from __future__ import annotations

import attrs

#: the key all keys past the `keys` bound share
OVERFLOW = "\0more"


@attrs.define
class Repeats:
    """How often each kind of line was said: `first(key)` holds for the first `limit`
    times of a key; at most `keys` keys are told apart (the rest count as one), so a
    server that repeats a line, or varies it, cannot fill the log."""

    limit: int = 1
    keys: int = 64
    _counts: dict[str, int] = attrs.field(factory=dict)

    def first(self, key: str) -> bool:
        """Count one more `key`; whether it is still to be said."""
        if key not in self._counts and len(self._counts) >= self.keys:
            key = OVERFLOW
        count = self._counts[key] = self._counts.get(key, 0) + 1
        return count <= self.limit

    def last(self, key: str) -> bool:
        """`key` was just said for the last time (its count reached the limit)."""
        return self._counts.get(key if key in self._counts else OVERFLOW, 0) == self.limit
