"""The match summary: one value built from a match's progress, with every number the
referee reports (standings, pairs, SPRT, terminations, timing, faults, each game).

The final text, the JSON file and the stream's standings events are renderings of it
(adapters.referee.report); no renderer computes a result of its own. `table` is the
part announced after every game (the standings and the SPRT), `summarize` the whole.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import attrs

from adapters.referee.config import MatchConfig, seats_per_game, team_game
from adapters.referee.facts import MoveTimes, Status, Termination, status_text
from adapters.referee.progress import MatchProgress
from adapters.referee.state import FinishedGame
from adapters.referee.stats import (
    FIELD,
    TRINOMIAL_VALUES,
    GameScore,
    Standing,
    elo_interval,
    pair_stats,
    standings,
    team_standings,
)

#: (Elo, low, high) at 95%; a bound may be infinite
Interval = tuple[float, float, float]


@attrs.frozen
class Line:
    """One engine's (or team's) line of the standings."""

    names: tuple[str, ...]
    games: int
    points: float
    #: sole wins, shared wins (draws), losses
    wins: int
    draws: int
    losses: int
    #: Elo against the field (game pairs first, as a pair's), None when unknown
    elo: Interval | None = None
    #: adjudicated games per rule (a single engine's line)
    adjudicated: Mapping[str, int] = attrs.field(factory=dict)

    @property
    def name(self) -> str:
        return "+".join(self.names)

    @property
    def score(self) -> float:
        return self.points / self.games if self.games else 0.0


@attrs.frozen
class SprtLine:
    """The SPRT's settings and where it stands."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    model: str
    llr: float
    lower: float
    upper: float
    #: "H0", "H1", or None while it goes on
    decision: str | None


@attrs.frozen
class Table:
    """The standings now (announced after every game)."""

    standings: tuple[Line, ...]
    done: int
    total: int
    status: Status
    #: what went wrong when the status is Status.ERROR
    error: str = ""
    sprt: SprtLine | None = None

    @property
    def status_text(self) -> str:
        return status_text(self.status, self.error)


@attrs.frozen
class PairLine:
    """Head-to-head numbers of engine `a` against engine `b`."""

    a: str
    b: str
    wins: int
    losses: int
    draws: int
    score: float
    #: from the single games, from the game pairs, and the one tables show
    elo: Interval | None
    elo_penta: Interval | None
    elo_estimate: Interval | None
    los: float
    draw_ratio: float
    penta: tuple[int, ...]

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@attrs.frozen
class EngineTiming:
    """An engine's moves over the match (times in ms, rounded to the microsecond)."""

    name: str
    moves: int
    average_ms: float
    max_ms: float
    #: measured minus reported time, None when it never reported one
    latency_ms: float | None


@attrs.frozen
class EngineLine:
    """An engine of the match: its name, command and clock."""

    name: str
    command: tuple[str, ...]
    clock: str


@attrs.frozen
class GameLine:
    """A finished game."""

    index: int
    players: tuple[str, ...]
    result: str
    winners: tuple[int, ...]
    termination: Termination
    reason: str
    plies: int
    detail: str
    #: the engine at fault
    culprit: str | None


@attrs.frozen
class MatchSummary:
    """Everything the referee reports about a match."""

    table: Table
    game: str
    rules: Mapping[str, str]
    engines: tuple[EngineLine, ...]
    #: whether a game has two seats (then the standings show Elo), and whether seats
    #: play in teams (then the team standings are shown)
    two_seats: bool
    team_game: bool
    teams: tuple[Line, ...]
    pairs: tuple[PairLine, ...]
    #: games per termination, adjudicated games per rule, in game order
    terminations: Mapping[Termination, int]
    adjudications: Mapping[str, int]
    timing: tuple[EngineTiming, ...]
    #: per engine name: its lost games per fault
    faults: Mapping[str, Mapping[Termination, int]]
    restarts: Mapping[str, int]
    results: tuple[GameLine, ...]


def _names(config: MatchConfig, who: Iterable[int]) -> tuple[str, ...]:
    return tuple(config.engines[i].name for i in who)


def _adjudications(games: Iterable[FinishedGame], engine: int | None = None) -> Counter[str]:
    """Adjudicated games per rule, of one engine when `engine` is given."""
    return Counter(
        game.reason
        for game in games
        if game.termination is Termination.ADJUDICATED and (engine is None or engine in game.seats)
    )


def _line(
    config: MatchConfig, r: Standing, elo: Interval | None, adjudicated: Mapping[str, int]
) -> Line:
    names = _names(config, r.who)
    return Line(names, r.games, r.points, r.wins, r.draws, r.losses, elo, adjudicated)


def standing_lines(progress: MatchProgress) -> tuple[Line, ...]:
    """Each engine's line, best first, with its Elo against the field."""
    scores = progress.scores()
    lines = []
    for r in standings(scores, len(progress.config.engines)):
        engine = r.who[0]
        field = pair_stats(scores, engine, FIELD)
        elo = (
            field.elo_estimate()
            if field.games
            else elo_interval((r.losses, r.draws, r.wins), TRINOMIAL_VALUES)
        )
        adjudicated = _adjudications(progress.finished.values(), engine)
        lines.append(_line(progress.config, r, elo, adjudicated))
    return tuple(lines)


def player_line(name: str, scores: Sequence[GameScore], unfinished: int = 0) -> Line:
    """The line of one player (engine 0 of `scores`), with `unfinished` games more that
    have no result (counted as played, neither won nor lost)."""
    r = standings(scores, 1)[0]
    return Line((name,), r.games + unfinished, float(r.points), r.wins, r.draws, r.losses)


def sprt_line(progress: MatchProgress) -> SprtLine | None:
    """The SPRT of the first two engines (None when the match has none)."""
    sprt = progress.config.sprt
    if sprt is None:
        return None
    counts = sprt.counts(pair_stats(progress.scores(), 0, 1))
    return SprtLine(
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.model,
        sprt.llr(counts),
        sprt.lower,
        sprt.upper,
        sprt.decide(counts),
    )


def table(progress: MatchProgress) -> Table:
    """The standings of a match now."""
    return Table(
        standing_lines(progress),
        len(progress.finished),
        progress.total,
        progress.status,
        progress.error,
        sprt_line(progress),
    )


def pair_lines(progress: MatchProgress) -> tuple[PairLine, ...]:
    """Head-to-head numbers of every pair of engines that met."""
    config, scores = progress.config, progress.scores()
    out = []
    for a, b in itertools.combinations(range(len(config.engines)), 2):
        s = pair_stats(scores, a, b)
        if s.games:
            out.append(
                PairLine(
                    config.engines[a].name,
                    config.engines[b].name,
                    s.wins,
                    s.losses,
                    s.draws,
                    s.score,
                    s.elo(),
                    s.elo_penta(),
                    s.elo_estimate(),
                    s.los,
                    s.draw_ratio,
                    s.penta,
                )
            )
    return tuple(out)


def timings(progress: MatchProgress) -> tuple[EngineTiming, ...]:
    """Per engine (that moved), in the match's order: its moves and their times."""
    sums: dict[int, MoveTimes] = {}
    for game in progress.finished.values():
        for t in game.timing:
            sums[t.engine] = sums[t.engine] + t if t.engine in sums else t
    out = []
    for engine, t in sorted(sums.items()):
        if t.moves:
            out.append(
                EngineTiming(
                    progress.config.engines[engine].name,
                    t.moves,
                    round(t.total_ms / t.moves, 3),
                    round(t.max_ms, 3),
                    round(t.latency_ms / t.reported, 3) if t.reported else None,
                )
            )
    return tuple(out)


def _game_line(config: MatchConfig, g: FinishedGame) -> GameLine:
    culprit = None if g.culprit is None else config.engines[g.culprit].name
    players = _names(config, g.seats)
    return GameLine(
        g.index, players, g.code, g.winners, g.termination, g.reason, g.plies, g.detail, culprit
    )


def summarize(progress: MatchProgress) -> MatchSummary:
    """The summary of a match now."""
    config, games = progress.config, progress.finished.values()
    faults: dict[str, Counter[Termination]] = {}
    for game in games:
        if game.culprit is not None:
            faults.setdefault(config.engines[game.culprit].name, Counter())[game.termination] += 1
    teams = team_standings(progress.scores())
    return MatchSummary(
        table=table(progress),
        game=config.game,
        rules=dict(config.rules),
        engines=tuple(EngineLine(e.name, e.argv, e.control.describe()) for e in config.engines),
        two_seats=seats_per_game(config) == 2,
        team_game=team_game(config),
        teams=tuple(_line(config, r, None, {}) for r in teams),
        pairs=pair_lines(progress),
        terminations=Counter(game.termination for game in games),
        adjudications=_adjudications(games),
        timing=timings(progress),
        faults=faults,
        restarts={config.engines[i].name: n for i, n in progress.restarts.items()},
        results=tuple(_game_line(config, g) for _, g in sorted(progress.finished.items())),
    )
