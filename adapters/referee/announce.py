"""Events built from what the referee already holds (a game, its clocks, the progress)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from adapters.referee.events import (
    EngineInfo,
    Event,
    GameOver,
    GameStarted,
    MovePlayed,
    SprtStatus,
    StandingRow,
    Standings,
)
from adapters.referee.stats import (
    FIELD,
    TRINOMIAL_VALUES,
    elo_interval,
    format_elo,
    pair_stats,
    standings,
)
from rules.game import Game, GameError
from rules.registry import game_class
from tei.protocol import Info

if TYPE_CHECKING:
    from adapters.referee.runner import MatchProgress

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
        # the download's file type: PTN where the game writes PTN, plain text otherwise
        record_format="ptn" if game_class(game_name).record_format == "ptn" else "txt",
    )


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 2)


def match_standings(progress: MatchProgress) -> Standings:
    """The standings event of a match now: each engine's points and Elo, and the SPRT."""
    config = progress.config
    scores = progress.scores()
    rows = []
    for r in standings(scores, len(config.engines)):
        field = pair_stats(scores, r.who[0], FIELD)  # as the final table: pairs first
        interval = (
            field.elo_estimate()
            if field.games
            else elo_interval((r.losses, r.draws, r.wins), TRINOMIAL_VALUES)
        )
        elo, low, high = interval if interval is not None else (math.inf,) * 3
        rows.append(
            StandingRow(
                name="+".join(config.engines[i].name for i in r.who),
                games=r.games,
                points=r.points,
                wins=r.wins,
                draws=r.draws,
                losses=r.losses,
                elo=_finite(elo),
                low=_finite(low),
                high=_finite(high),
                elo_text=format_elo(interval),
            )
        )
    sprt = None
    if config.sprt is not None:
        counts = config.sprt.counts(pair_stats(scores, 0, 1))
        s = config.sprt
        sprt = SprtStatus(s.elo0, s.elo1, s.lower, s.upper, s.llr(counts), s.decide(counts))
    return Standings(tuple(rows), len(progress.finished), progress.total, progress.status, sprt)
