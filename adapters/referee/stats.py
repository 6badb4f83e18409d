"""Match statistics: wins/losses/draws, score, Elo with a 95% interval, LOS, pentanomial.

Pure functions over finished games. Every game is a `GameScore`: the engine in each seat
and the seats that won (several winners share the point). Head-to-head numbers of two
engines compare their points in each game they both played (for two seats this is the
plain result; in a 3- or 4-seat Traxit game the one with more points wins the duel).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence

import attrs

#: two-sided 95% quantile of the normal distribution
Z95 = 1.959963984540054


@attrs.frozen
class GameScore:
    """The outcome of one finished game, as statistics need it."""

    seats: tuple[int, ...]
    winners: tuple[int, ...]
    group: int = 0

    def points(self, engine: int) -> float:
        """Match points of an engine in this game (0 when it did not play)."""
        total = 0.0
        for seat, who in enumerate(self.seats):
            if who == engine and seat in self.winners:
                total += 1.0 / len(self.winners)
        return total


def elo_from_score(score: float) -> float:
    """Elo difference that gives this expected score (logistic model); +-inf at 1 and 0."""
    if score >= 1.0:
        return math.inf
    if score <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    """Expected score of an Elo difference (logistic model)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(the first engine is stronger), draws ignored."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def mean_and_variance(counts: Sequence[int], values: Sequence[float]) -> tuple[float, float, int]:
    """Sample mean, population variance and size of a distribution given as counts."""
    n = sum(counts)
    if n == 0:
        return 0.5, 0.0, 0
    mean = sum(c * v for c, v in zip(counts, values, strict=True)) / n
    var = sum(c * (v - mean) ** 2 for c, v in zip(counts, values, strict=True)) / n
    return mean, var, n


def elo_interval(
    counts: Sequence[int], values: Sequence[float]
) -> tuple[float, float, float] | None:
    """(Elo, low, high) at 95%: mean score +- 1.96 standard errors, mapped to Elo.

    `counts[i]` samples scored `values[i]` (a value in 0..1). None without samples.
    A bound is infinite when the score interval reaches 0 or 1 (few samples, lopsided
    results). When all samples are equal the sample variance is 0 and says nothing, so
    the Wilson score interval with the largest variance a mean can have, mean (1 - mean),
    is used instead: 10 wins of 10 give a lower bound of 10 / (10 + 1.96^2) = 0.72
    (+167 Elo) and no upper bound.
    """
    mean, var, n = mean_and_variance(counts, values)
    if n == 0:
        return None
    if var == 0:
        low, high = wilson_interval(mean, n)
        return elo_from_score(mean), elo_from_score(low), elo_from_score(high)
    margin = Z95 * math.sqrt(var / n)
    return elo_from_score(mean), elo_from_score(mean - margin), elo_from_score(mean + margin)


def wilson_interval(mean: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `mean` observed in `n` samples."""
    zz = z * z / n
    if mean <= 0.0 or mean >= 1.0:  # exact ends (rounding would move them off 0 or 1)
        return (0.0, zz / (1 + zz)) if mean <= 0.0 else (1 / (1 + zz), 1.0)
    centre = (mean + zz / 2) / (1 + zz)
    half = z / (1 + zz) * math.sqrt(mean * (1 - mean) / n + zz / (4 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


TRINOMIAL_VALUES = (0.0, 0.5, 1.0)
PENTANOMIAL_VALUES = (0.0, 0.25, 0.5, 0.75, 1.0)


@attrs.frozen
class PairStats:
    """Head-to-head numbers of engine `a` against engine `b` (from a's side)."""

    a: int
    b: int
    wins: int
    losses: int
    draws: int
    #: pair counts by a's points in a two-game pair: 0, 0.5, 1, 1.5, 2
    penta: tuple[int, int, int, int, int]

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    @property
    def draw_ratio(self) -> float:
        return self.draws / self.games if self.games else 0.0

    @property
    def los(self) -> float:
        return los(self.wins, self.losses)

    def elo(self) -> tuple[float, float, float] | None:
        """(Elo, low, high) from the per-game results."""
        return elo_interval((self.losses, self.draws, self.wins), TRINOMIAL_VALUES)

    def elo_penta(self) -> tuple[float, float, float] | None:
        """(Elo, low, high) from the game pairs (None without a complete pair)."""
        return elo_interval(self.penta, PENTANOMIAL_VALUES)

    def elo_estimate(self) -> tuple[float, float, float] | None:
        """The interval shown in tables: from the game pairs when there is a complete
        pair, else from the single games."""
        return self.elo_penta() if any(self.penta) else self.elo()


#: `pair_stats(games, a, FIELD)`: engine `a` against whoever sat opposite (two seats)
FIELD = -1


def pair_stats(games: Iterable[GameScore], a: int, b: int) -> PairStats:
    """Head-to-head W/L/D and pentanomial pair counts of `a` against `b` (`FIELD`: against
    every opponent of its two-seat games)."""
    wins = losses = draws = 0
    by_group: dict[int, list[float]] = defaultdict(list)
    for game in games:
        if a not in game.seats:
            continue
        if b == FIELD:
            if len(game.seats) != 2:
                continue
            pa = game.points(a)
            pb = 1.0 - pa
        elif b in game.seats:
            pa, pb = game.points(a), game.points(b)
        else:
            continue
        if pa > pb:
            wins += 1
        elif pb > pa:
            losses += 1
        else:
            draws += 1
        if len(game.seats) == 2:
            by_group[game.group].append(1.0 if pa > pb else 0.0 if pb > pa else 0.5)
    penta = [0, 0, 0, 0, 0]
    for results in by_group.values():
        if len(results) == 2:
            penta[round(sum(results) * 2)] += 1
    return PairStats(a, b, wins, losses, draws, (penta[0], penta[1], penta[2], penta[3], penta[4]))


@attrs.frozen
class Standing:
    """One engine's (or team's) line of the standings."""

    who: tuple[int, ...]
    games: int
    points: float
    #: sole wins, shared wins (draws), losses
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0


def standings(games: Sequence[GameScore], engines: int) -> list[Standing]:
    """Per-engine totals, best first (points per game, then points)."""
    rows = []
    for engine in range(engines):
        played = [g for g in games if engine in g.seats]
        points = sum(g.points(engine) for g in played)
        wins = draws = losses = 0
        for g in played:
            mine = [s for s, e in enumerate(g.seats) if e == engine and s in g.winners]
            if not mine:
                losses += 1
            elif len(g.winners) == len(mine):
                wins += 1
            else:
                draws += 1
        rows.append(Standing((engine,), len(played), points, wins, draws, losses))
    return sorted(rows, key=lambda r: (-r.score, -r.points, r.who))


def team_standings(games: Sequence[GameScore]) -> list[Standing]:
    """Totals per team of a team game (seats 0+2 against 1+3), best first.

    A team is the set of its engines; its points are the sum of its members' points.
    """
    tallies: dict[tuple[int, ...], list[float]] = {}
    for g in games:
        if len(g.seats) != 4:
            continue
        teams = ((0, 2), (1, 3))
        for team_seats in teams:
            key = tuple(sorted(g.seats[s] for s in team_seats))
            won = [s for s in team_seats if s in g.winners]
            t = tallies.setdefault(key, [0, 0.0, 0, 0, 0])
            t[0] += 1
            t[1] += sum(1.0 / len(g.winners) for _ in won)
            if not won:
                t[4] += 1
            elif len(won) == len(g.winners):
                t[2] += 1
            else:
                t[3] += 1
    rows = [
        Standing(key, int(t[0]), t[1], int(t[2]), int(t[3]), int(t[4]))
        for key, t in tallies.items()
    ]
    return sorted(rows, key=lambda r: (-r.score, -r.points, r.who))


def format_elo(interval: tuple[float, float, float] | None) -> str:
    """'+35.2 +- 20.1' (the +- is half the interval width) when both bounds are finite;
    otherwise the bounds themselves: '+381.7 [+159.0, +inf]', '+inf [+167.4, +inf]'."""
    if interval is None:
        return "-"

    def num(x: float) -> str:
        if math.isinf(x):
            return "+inf" if x > 0 else "-inf"
        return f"{0.0 if abs(x) < 0.05 else x:+.1f}"  # no "-0.0"

    elo, low, high = interval
    if math.isinf(elo) or math.isinf(low) or math.isinf(high):
        return f"{num(elo)} [{num(low)}, {num(high)}]"
    return f"{num(elo)} +- {(high - low) / 2:.1f}"
