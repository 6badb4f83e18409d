"""The reply a pondering bot expects (pure): after our move, the position to think on
during the opponent's time and that reply in server notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adapters.playtak.notation import ServerMove
from rules.game import Game, GameError


def expected_reply(game: Game[Any], infos: Sequence[Any]) -> tuple[Game[Any], str] | None:
    """For `game` whose last move is ours: a copy with the reply played that the first pv
    among `infos` (newest first) expects after that move, and the reply in server
    notation; None when no pv begins with our move and a legal reply that does not end
    the game."""
    for info in infos:
        found = after_expected_reply(game, tuple(getattr(info, "pv", None) or ()))
        if found is not None:
            return found
    return None


def after_expected_reply(game: Game[Any], pv: tuple[str, ...]) -> tuple[Game[Any], str] | None:
    """A copy of `game` (whose last move is ours) with the reply `pv` expects played, and
    that reply in server notation; None when `pv` does not begin with our move, has no
    legal reply after it, or that reply ends the game."""
    if len(pv) < 2:
        return None
    after = game.copy()
    played = after.undo()
    try:
        if after.parse_action(pv[0]) != played:
            return None
        after.play(played)
        reply = after.parse_action(pv[1])
    except GameError:
        return None
    if reply not in after.legal():
        return None
    after.play(reply)
    if after.result is not None:
        return None  # that reply ends the game: nothing to think about
    return after, ServerMove.from_move(reply).to_text()
