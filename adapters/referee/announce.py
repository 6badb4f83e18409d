"""The referee's standings event: built from a match's progress (its points, Elo and
SPRT). The other events are built by `adapters.stream.announce`."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from adapters.referee.stats import (
    FIELD,
    TRINOMIAL_VALUES,
    elo_interval,
    format_elo,
    pair_stats,
    standings,
)
from adapters.stream.events import SprtStatus, StandingRow, Standings

if TYPE_CHECKING:
    from adapters.referee.runner import MatchProgress


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
