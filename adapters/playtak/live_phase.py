"""The phases of a live game, sans-IO: where the server's game stands on our connection.

    Playing --our move sent--> MoveSent --the server's clocks--> Playing
                                        --NOK: the move taken back--> Playing
    any --connection lost (or new)--> AwaitingReplay --the replay's start--> Replaying
    Replaying or AwaitingReplay --`Your game is resumed`--> Playing

A game begun in the login burst (joined while it ran) begins in `Replaying` with
`unconfirmed` set: a game the server never resumes was not ours. `LiveGame` makes the
transitions (each owns the fields it changes); one a phase does not allow raises
`PhaseError`.
"""

from __future__ import annotations

import attrs

from adapters.playtak.errors import PlaytakError


@attrs.frozen
class Playing:
    """The game runs on this connection: on our turn, we think."""


@attrs.frozen
class MoveSent:
    """Our `move` (server notation) is sent: the server's clocks confirm it, a NOK
    refuses it; nothing is thought meanwhile."""

    move: str


@attrs.frozen
class Replaying:
    """The server replays the game (joined while it ran, or after a reconnect): its moves
    rebuild ours, nothing is thought until it is resumed. `unconfirmed`: begun in the
    login burst and never resumed yet."""

    unconfirmed: bool = False


@attrs.frozen
class AwaitingReplay:
    """The connection was lost (or is new) and the replay has not begun: a login burst
    that ends without one ends the game. `unconfirmed` as in `Replaying`."""

    unconfirmed: bool = False


Phase = Playing | MoveSent | Replaying | AwaitingReplay


class PhaseError(PlaytakError, ValueError):
    """A transition the live game's phase does not allow (the message names both)."""


def unconfirmed(phase: Phase) -> bool:
    """`phase` is a replay (or the wait for one) of a game begun in the login burst."""
    return isinstance(phase, Replaying | AwaitingReplay) and phase.unconfirmed
