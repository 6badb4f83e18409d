"""The referee's statistics: Elo, LOS, intervals, standings and the SPRT."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from adapters.referee.sprt import Sprt, SprtError
from adapters.referee.stats import (
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


def test_sprt_bounds_and_a_hand_computed_llr() -> None:
    sprt = Sprt.parse(["elo0=0", "elo1=10", "alpha=0.05", "beta=0.05"])
    assert sprt.upper == pytest.approx(math.log(19))
    assert sprt.lower == pytest.approx(-math.log(19))
    # pentanomial (1, 4, 10, 4, 1): 20 pairs, mean 0.5, variance (2*0.25 + 8*0.0625)/20
    # = 0.05; s0 = 0.5, s1 = 1/(1+10^-0.025) = 1/1.9440609 = 0.5143872;
    # LLR = 20 * (s1-s0) * (1 - s0 - s1) / 0.1 = -200 * 0.0143872^2 = -0.0413982
    assert sprt.llr((1, 4, 10, 4, 1)) == pytest.approx(-0.0413982, abs=1e-6)
    assert sprt.decide((1, 4, 10, 4, 1)) is None


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


def _exact_gsprt(counts: tuple[int, ...], values: tuple[float, ...], e0: float, e1: float) -> float:
    """The exact generalised SPRT: the log-likelihood of the most likely distribution with
    mean score s1 minus the one with mean s0 (Lagrange multiplier found by bisection)."""

    def loglik(s: float) -> float:
        n = sum(counts)
        f = [c / n for c in counts]
        d = [v - s for v in values]
        lo, hi = -1 / max(d) + 1e-12, -1 / min(d) - 1e-12
        for _ in range(200):
            mid = (lo + hi) / 2
            if sum(fi * di / (1 + mid * di) for fi, di in zip(f, d, strict=True)) > 0:
                lo = mid
            else:
                hi = mid
        lam = (lo + hi) / 2
        return sum(
            c * math.log(fi / (1 + lam * di)) for c, fi, di in zip(counts, f, d, strict=True) if c
        )

    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (e0, e1))
    return loglik(s1) - loglik(s0)


@pytest.mark.parametrize(
    "counts", [(300, 400, 340), (280, 420, 300), (20, 120, 400, 130, 30), (60, 200, 480, 180, 80)]
)
def test_sprt_llr_agrees_with_the_exact_gsprt(counts: tuple[int, ...]) -> None:
    values = (0.0, 0.5, 1.0) if len(counts) == 3 else (0.0, 0.25, 0.5, 0.75, 1.0)
    model = "trinomial" if len(counts) == 3 else "pentanomial"
    approx = Sprt(0, 10, model=model).llr(counts)
    assert approx == pytest.approx(_exact_gsprt(counts, values, 0, 10), rel=0.01)
