"""Sequential probability ratio test (GSPRT) on game or game-pair results.

H0: the Elo difference is `elo0`; H1: it is `elo1` (logistic Elo). The log-likelihood
ratio is the multinomial generalised SPRT (M. Van den Bergh's, as fishtest computes it):
for each hypothesis the most likely distribution of the sample classes whose expected
score is s_i = 1 / (1 + 10^(-elo_i / 400)), and

    LLR = sum_j n_j * ln(p1_j / p0_j)

over the classes j with counts n_j (an empty class counts `EMPTY_CELL`, so that both
fits stay inside the simplex). Samples are game pairs (pentanomial: pair score 0, 1/4,
..., 1) when the match plays pairs, single games (trinomial) otherwise. The test accepts
H1 when LLR >= ln((1-beta) / alpha) and H0 when LLR <= ln(beta / (1-alpha)).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from adapters.referee.errors import RefereeError
from adapters.referee.stats import (
    PENTANOMIAL_VALUES,
    TRINOMIAL_VALUES,
    PairStats,
    score_from_elo,
)

#: the count given to an empty class before the fits (fishtest's regularisation)
EMPTY_CELL = 1e-3


class SprtError(RefereeError):
    """Bad SPRT settings (the message names them)."""


@attrs.frozen
class Sprt:
    """The SPRT settings."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05
    #: "pentanomial" or "trinomial"
    model: str = "pentanomial"

    def __attrs_post_init__(self) -> None:
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise SprtError(f"alpha and beta must lie in (0, 1): {self.alpha}, {self.beta}")
        if self.elo0 >= self.elo1:
            raise SprtError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if self.model not in ("pentanomial", "trinomial"):
            raise SprtError(f"unknown SPRT model {self.model!r}; known: pentanomial, trinomial")

    @classmethod
    def parse(cls, words: Sequence[str]) -> Sprt:
        """From `elo0=0 elo1=5 alpha=0.05 beta=0.05 [model=trinomial]`."""
        values: dict[str, str] = {}
        for word in words:
            key, sep, value = word.partition("=")
            if not sep or key not in ("elo0", "elo1", "alpha", "beta", "model"):
                raise SprtError(f"bad SPRT setting {word!r}; use elo0= elo1= alpha= beta=")
            values[key] = value
        if "elo0" not in values or "elo1" not in values:
            raise SprtError("SPRT needs elo0= and elo1=")
        try:
            return cls(
                elo0=float(values["elo0"]),
                elo1=float(values["elo1"]),
                alpha=float(values.get("alpha", "0.05")),
                beta=float(values.get("beta", "0.05")),
                model=values.get("model", "pentanomial"),
            )
        except ValueError as exc:
            if isinstance(exc, SprtError):
                raise
            raise SprtError(f"bad SPRT number in {' '.join(words)!r}") from exc

    @property
    def lower(self) -> float:
        """The bound at which H0 is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The bound at which H1 is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    def counts(self, pair: PairStats) -> tuple[int, ...]:
        """The samples of a pair for this model: pair classes, or (losses, draws, wins)."""
        if self.model == "pentanomial":
            return pair.penta
        return (pair.losses, pair.draws, pair.wins)

    def llr(self, counts: Sequence[int]) -> float:
        """The LLR of trinomial (L, D, W) or pentanomial (5 pair classes) counts."""
        values = PENTANOMIAL_VALUES if len(counts) == 5 else TRINOMIAL_VALUES
        if len(counts) not in (3, 5):
            raise SprtError(f"SPRT counts must have 3 or 5 entries, not {len(counts)}")
        return llr(counts, values, self.elo0, self.elo1)

    def decide(self, counts: Sequence[int]) -> str | None:
        """ "H1" (accept elo1), "H0" (accept elo0) or None (continue)."""
        value = self.llr(counts)
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def llr(counts: Sequence[int], values: Sequence[float], elo0: float, elo1: float) -> float:
    """GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0); 0 without samples.

    `counts[j]` samples scored `values[j]`. Empty classes count `EMPTY_CELL`.
    """
    if sum(counts) == 0:
        return 0.0
    n = [float(c) if c > 0 else EMPTY_CELL for c in counts]
    p0 = fit_expected_score(n, values, score_from_elo(elo0))
    p1 = fit_expected_score(n, values, score_from_elo(elo1))
    return sum(c * math.log(b / a) for c, a, b in zip(n, p0, p1, strict=True))


def fit_expected_score(
    counts: Sequence[float], values: Sequence[float], score: float
) -> list[float]:
    """The maximum-likelihood class probabilities given `counts`, under the constraint
    that the expected score is `score`.

    With f the observed frequencies and d_j = values[j] - score, the maximum is
    p_j = f_j / (1 + lam * d_j), where the Lagrange multiplier lam makes the expected
    score right: sum_j f_j d_j / (1 + lam d_j) = 0. That sum falls from +inf to -inf on the
    interval where every 1 + lam d_j > 0, so bisection finds its one root. Every count
    must be positive, and `score` must lie strictly between the smallest and largest value.
    """
    total = sum(counts)
    freq = [c / total for c in counts]
    d = [v - score for v in values]
    if min(counts) <= 0 or not min(d) < 0 < max(d):
        raise SprtError(f"cannot fit score {score} to counts {list(counts)}")
    lo, hi = -1.0 / max(d), -1.0 / min(d)

    def excess(lam: float) -> float:
        return sum(f * dj / (1.0 + lam * dj) for f, dj in zip(freq, d, strict=True))

    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2
    p = [f / (1.0 + lam * dj) for f, dj in zip(freq, d, strict=True)]
    norm = sum(p)
    return [x / norm for x in p]
