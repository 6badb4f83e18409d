"""The referee's statistics: Elo, LOS, intervals, standings and the SPRT."""

from __future__ import annotations

import math
from statistics import NormalDist

import attrs
import pytest

from adapters.referee.sprt import Sprt, SprtError
from adapters.referee.stats import (
    FIELD,
    GameScore,
    elo_from_score,
    elo_interval,
    format_elo,
    los,
    pair_stats,
    standings,
    team_standings,
    wilson_interval,
)

# ---- statistics ------------------------------------------------------------------------


def test_elo_of_known_scores() -> None:
    assert elo_from_score(0.5) == 0
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_from_score(1.0) == math.inf


def test_los_matches_the_normal_cdf() -> None:
    # LOS = Phi((W - L) / sqrt(W + L)), computed here with the statistics module
    assert los(10, 5) == pytest.approx(NormalDist().cdf(5 / math.sqrt(15)))
    assert los(3, 3) == 0.5 and los(0, 0) == 0.5


def test_elo_interval_from_variance_of_scores() -> None:
    wins, losses, draws = 30, 10, 20
    n = wins + losses + draws
    mean = (wins + draws / 2) / n
    second_moment = (wins * 1.0 + draws * 0.25) / n
    se = math.sqrt((second_moment - mean**2) / n)
    z = NormalDist().inv_cdf(0.975)
    expected = [400 * math.log10(s / (1 - s)) for s in (mean, mean - z * se, mean + z * se)]
    got = elo_interval((losses, draws, wins), (0.0, 0.5, 1.0))
    assert got is not None
    assert list(got) == pytest.approx(expected)


def test_elo_interval_of_one_kind_of_result_is_the_wilson_bound() -> None:
    # 10 wins of 10: no upper bound; the lower bound is the Wilson one, n / (n + z^2)
    z = NormalDist().inv_cdf(0.975)
    elo, low, high = elo_interval((0, 0, 10), (0.0, 0.5, 1.0)) or (0.0, 0.0, 0.0)
    assert elo == math.inf and high == math.inf
    assert low == pytest.approx(400 * math.log10((10 / (10 + z * z)) / (z * z / (10 + z * z))))
    assert 160 < low < 170
    # all losses mirror it; all draws give a finite interval around 0
    lost = elo_interval((10, 0, 0), (0.0, 0.5, 1.0))
    assert lost is not None and lost[:2] == (-math.inf, -math.inf)
    assert lost[2] == pytest.approx(-low)
    draws = elo_interval((0, 10, 0), (0.0, 0.5, 1.0))
    assert draws is not None and draws[0] == 0 and draws[2] > 0
    assert -draws[1] == pytest.approx(draws[2])


def test_wilson_interval_known_values() -> None:
    # 8 of 10, z = 1.96: the textbook (0.490, 0.943)
    low, high = wilson_interval(0.8, 10, 1.96)
    assert (round(low, 3), round(high, 3)) == (0.490, 0.943)
    assert wilson_interval(0.0, 5)[0] == 0 and wilson_interval(1.0, 5)[1] == 1


def test_format_elo_shows_infinite_bounds_as_bounds() -> None:
    assert format_elo(None) == "-"
    assert format_elo((35.24, 15.0, 55.4)) == "+35.2 +- 20.2"
    assert format_elo((-0.01, -10.0, 10.0)) == "+0.0 +- 10.0"
    assert format_elo((381.7, 159.04, math.inf)) == "+381.7 [+159.0, +inf]"
    assert format_elo((math.inf, 167.4, math.inf)) == "+inf [+167.4, +inf]"
    assert format_elo((-math.inf, -math.inf, -167.4)) == "-inf [-inf, -167.4]"
    # nine wins and a loss: the upper end of the score interval passes 1
    nine = elo_interval((1, 0, 9), (0.0, 0.5, 1.0))
    assert nine is not None and nine[2] == math.inf and 100 < nine[1] < nine[0]
    assert format_elo(nine).endswith(", +inf]")


def test_pair_stats_and_pentanomial() -> None:
    games = [
        GameScore((0, 1), (0,), group=0),  # pair 0: engine 0 wins both
        GameScore((1, 0), (1,), group=0),
        GameScore((0, 1), (0, 1), group=1),  # pair 1: a draw and a loss
        GameScore((1, 0), (0,), group=1),  # seat 0 is engine 1
        GameScore((0, 1), (1,), group=2),  # pair 2 incomplete
    ]
    stats = pair_stats(games, 0, 1)
    assert (stats.wins, stats.losses, stats.draws) == (2, 2, 1)
    # pair 0: 2 points for engine 0; pair 1: 0.5 points; pair 2 is not complete
    assert stats.penta == (0, 1, 0, 0, 1)
    assert stats.score == pytest.approx(2.5 / 5)
    assert stats.draw_ratio == pytest.approx(0.2)


def test_standings_and_teams_in_four_seat_games() -> None:
    games = [
        GameScore((0, 1, 2, 3), (0, 2)),  # team 0+2 wins
        GameScore((3, 0, 1, 2), (0, 2)),  # seats 0 and 2 = engines 3 and 1: team 1+3 wins
        GameScore((2, 3, 0, 1), (0, 1, 2, 3)),  # everyone shares
    ]
    rows = {r.who[0]: r for r in standings(games, 4)}
    assert rows[0].points == pytest.approx(0.5 + 0 + 0.25)
    # a team win is shared with the partner: it counts as a shared win (draw column)
    assert (rows[0].wins, rows[0].draws, rows[0].losses) == (0, 2, 1)
    teams = {r.who: r for r in team_standings(games)}
    assert set(teams) == {(0, 2), (1, 3)}
    assert teams[(0, 2)].points == pytest.approx(1.5)
    assert (teams[(1, 3)].wins, teams[(1, 3)].draws, teams[(1, 3)].losses) == (1, 1, 1)


# ---- SPRT ------------------------------------------------------------------------------


def test_sprt_bounds_and_a_closed_form_llr() -> None:
    sprt = Sprt.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05", "model=trinomial"])
    assert sprt.upper == pytest.approx(math.log(19))
    assert sprt.lower == pytest.approx(-math.log(19))
    # no draws: the fits are (nearly, the empty draw class counts 1e-3) the binomials with
    # win probability s, so LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0))
    s0, s1 = 0.5, 1 / (1 + 10 ** (-10 / 400))
    wins, losses = 60, 40
    closed = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert sprt.llr((losses, 0, wins)) == pytest.approx(closed, abs=2e-3)
    assert sprt.decide((losses, 0, wins)) is None


def test_sprt_is_antisymmetric_and_decides() -> None:
    sprt = Sprt(-5, 5)
    counts = (3, 10, 30, 20, 8)
    assert sprt.llr(counts) == pytest.approx(-sprt.llr(counts[::-1]))
    assert sprt.decide((0, 0, 10, 100, 200)) == "H1"
    assert sprt.decide((200, 100, 10, 0, 0)) == "H0"
    assert Sprt(0, 5, model="trinomial").llr((40, 20, 40)) < 0


@pytest.mark.parametrize(
    "words",
    [
        ["elo0=5", "elo1=0"],
        ["elo1=5"],
        ["elo0=0", "elo1=5", "alpha=2"],
        ["elo0=x", "elo1=5"],
        ["foo=1"],
    ],
)
def test_bad_sprt_settings_are_refused(words: list[str]) -> None:
    with pytest.raises(SprtError):
        Sprt.parse(words)


def _empty_cells(counts: tuple[int, ...]) -> list[float]:
    return [c if c else 1e-3 for c in counts]


def _three_cells(c: list[float], p0: float, p1: float, p2: float, x: float) -> float:
    """The three terms c_i ln q_i of cells (p0, p1, p2) moved by x (1, -2, 1)."""
    return c[0] * math.log(p0 + x) + c[1] * math.log(p1 - 2 * x) + c[2] * math.log(p2 + x)


def _max_loglik(n: list[float], values: tuple[float, ...], s: float) -> float:
    """The largest sum n_j ln p_j over distributions p with expected score s, found by
    cyclic golden-section line searches along the second differences (1, -2, 1), which
    keep the total and the expected score of p (values are evenly spaced).  A step along
    the difference at cells j..j+2 changes only those three terms of the sum, so each line
    search compares those alone (five times faster than summing all cells)."""
    k = len(n)
    # a start inside: half uniform (mean 1/2), half the two-point law of mean 2s - 1/2
    t = 2 * s - 0.5
    p = [0.5 / k] * k
    p[0] += 0.5 * (1 - t)
    p[-1] += 0.5 * t
    golden = (math.sqrt(5) - 1) / 2
    for _ in range(300):
        for j in range(k - 2):
            c, (p0, p1, p2) = n[j : j + 3], p[j : j + 3]
            # the open interval of steps that keep the three cells positive
            a, b = max(-p0, -p2) * (1 - 1e-12), p1 / 2 * (1 - 1e-12)
            for _ in range(80):
                m1, m2 = b - golden * (b - a), a + golden * (b - a)
                if _three_cells(c, p0, p1, p2, m1) < _three_cells(c, p0, p1, p2, m2):
                    a = m1
                else:
                    b = m2
            x = (a + b) / 2
            p[j : j + 3] = [p0 + x, p1 - 2 * x, p2 + x]
    return sum(c * math.log(x) for c, x in zip(n, p, strict=True))


def _brute_llr(counts: tuple[int, ...], e0: float, e1: float) -> float:
    values = tuple(i / (len(counts) - 1) for i in range(len(counts)))
    n = _empty_cells(counts)
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (e0, e1))
    return _max_loglik(n, values, s1) - _max_loglik(n, values, s0)


def _normal_llr(counts: tuple[int, ...], e0: float, e1: float) -> float:
    """The normal approximation: N (s1 - s0) (2m - s0 - s1) / (2v)."""
    values = [i / (len(counts) - 1) for i in range(len(counts))]
    n = sum(counts)
    m = sum(c * v for c, v in zip(counts, values, strict=True)) / n
    var = sum(c * (v - m) ** 2 for c, v in zip(counts, values, strict=True)) / n
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (e0, e1))
    return n * (s1 - s0) * (2 * m - s0 - s1) / (2 * var)


@pytest.mark.parametrize(
    "counts",
    [
        (0, 0, 0, 0, 2),
        (0, 0, 3),
        (1, 0, 0, 0, 5),
        (3, 0, 9),
        (10, 40, 100, 40, 10),
        (8, 38, 100, 44, 10),
        (300, 400, 340),
    ],
)
def test_sprt_llr_is_the_maximum_likelihood_ratio(counts: tuple[int, ...]) -> None:
    model = "trinomial" if len(counts) == 3 else "pentanomial"
    got = Sprt(0, 5, model=model).llr(counts)
    assert got == pytest.approx(_brute_llr(counts, 0, 5), rel=1e-4, abs=1e-6)


@pytest.mark.parametrize(
    "counts",
    [(10, 40, 100, 40, 10), (20, 120, 400, 130, 30), (60, 200, 480, 180, 80), (300, 400, 340)],
)
def test_sprt_llr_agrees_with_the_normal_approximation_on_real_samples(
    counts: tuple[int, ...],
) -> None:
    model = "trinomial" if len(counts) == 3 else "pentanomial"
    got = Sprt(0, 5, model=model).llr(counts)
    assert got == pytest.approx(_normal_llr(counts, 0, 5), rel=0.02)


def test_sprt_decides_nothing_on_a_few_one_sided_results() -> None:
    # two won pairs or three won games say little about 5 Elo: about n ln(s1/s0)
    s1 = 1 / (1 + 10 ** (-5 / 400))
    for counts, model, n in (((0, 0, 0, 0, 2), "pentanomial", 2), ((0, 0, 3), "trinomial", 3)):
        sprt = Sprt(0, 5, model=model)
        assert sprt.decide(counts) is None
        assert sprt.llr(counts) == pytest.approx(n * math.log(s1 / 0.5), rel=0.05)
    # many of them do: ln(19) / ln(s1 / s0) pairs all won accept H1 at 20 Elo
    need = math.ceil(math.log(19) / math.log((1 / (1 + 10 ** (-20 / 400))) / 0.5))
    assert Sprt(0, 20).decide((0, 0, 0, 0, need + 2)) == "H1"
    assert Sprt(0, 20).decide((0, 0, 0, 0, need - 2)) is None
    assert Sprt(0, 5).llr((0, 0, 0, 0, 0)) == 0.0


def test_field_elo_uses_the_pairs_as_the_pair_line_does() -> None:
    # a 4-0 in two colour-swapped pairs: one interval (from the pairs) on both sides
    games = [
        GameScore(seats, (0,) if seats == (0, 1) else (1,), group=g // 2)
        for g, seats in enumerate([(0, 1), (1, 0), (0, 1), (1, 0)])
    ]
    pair = pair_stats(games, 0, 1)
    field = pair_stats(games, 0, FIELD)
    assert field == attrs.evolve(pair, b=FIELD)
    assert field.elo_estimate() == pair.elo_estimate() == pair.elo_penta()
    # against two opponents the field collects the pairs of both encounters
    games += [GameScore((0, 2), (0, 2), group=7), GameScore((2, 0), (1,), group=7)]
    assert pair_stats(games, 0, FIELD).penta == (0, 0, 0, 1, 2)
    assert pair_stats(games, 0, FIELD).draws == 1
