"""Events built from what a venue already holds: a game, its clocks, an engine's info."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from adapters.stream.events import (
    EngineInfo,
    Event,
    GameOver,
    GameStarted,
    MovePlayed,
)
from rules.game import Game, GameError
from rules.registry import game_class
from tei.protocol import Info

Publish = Callable[[Event], None]


def picture(game: Game[Any]) -> str:
    """The game's SVG with the last action highlighted ("" for a game without one)."""
    try:
        return game.render_svg()
    except GameError:
        return ""


def game_started(
    game_id: int,
    label: str,
    game: Game[Any],
    players: Sequence[str],
    clocks_ms: tuple[float | None, ...],
    title: str = "",
) -> GameStarted:
    return GameStarted(
        game=game_id,
        label=label,
        game_name=game.name,
        players=tuple(players),
        seat_names=tuple(game.seat_name(s) for s in range(game.players)),
        clocks_ms=clocks_ms,
        position=game.position_string(),
        svg=picture(game),
        moves=tuple(game.history_text()),
        title=title,
    )


def move_played(
    game_id: int, game: Game[Any], seat: int, elapsed_ms: float, clocks_ms: tuple[float | None, ...]
) -> MovePlayed:
    """The event after `game`'s last action (played by `seat`)."""
    return MovePlayed(
        game=game_id,
        ply=game.ply,
        seat=seat,
        move=game.format_action(game.history[-1]),
        elapsed_ms=elapsed_ms,
        clocks_ms=clocks_ms,
        position=game.position_string(),
        svg=picture(game),
        turn=None if game.result is not None else game.turn,
    )


def engine_info(game_id: int, seat: int, info: Info) -> EngineInfo:
    score = info.score
    text = None
    if score is not None:
        text = score.to_line().removeprefix("score ")
    return EngineInfo(game_id, seat, info.depth, text, info.pv, info.nodes)


def game_over(
    game_id: int,
    game_name: str,
    result: str,
    termination: str,
    reason: str,
    plies: int,
    record: str,
    players: Sequence[str],
    label: str = "",
    detail: str = "",
) -> GameOver:
    """The end of a game; `game_name` gives the download's file type (PTN where the game
    writes PTN, plain text otherwise)."""
    kind = "ptn" if game_class(game_name).record_format == "ptn" else "txt"
    return GameOver(
        game=game_id,
        result=result,
        termination=termination,
        reason=reason,
        plies=plies,
        record=record,
        players=tuple(players),
        label=label,
        detail=detail,
        record_format=kind,
    )
