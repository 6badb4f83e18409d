"""Judging the moves of a game from the engine's view of each position, without I/O.

An `Eval` is what the engine said of one position (score from the side to move's view,
best move, principal variation). A move is judged by the value it lost for its player:
the value of the position before it (the engine's best) minus the value after it. Values
are in the engine's unit (centi-flats for Tak engines); a proven win or loss counts as
`CAP` (so a slower win loses nothing), and a move that turns the result (a won position
no longer won, or a not-lost one lost, as proven scores or the game's end tell) is a
blunder whatever the numbers say.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from adapters.referee.adjudication import centiflats
from adapters.referee.records import score_text
from rules.game import Outcome
from tei.protocol import Score

#: the value a proven win counts for in a loss (and the bound of any score)
CAP = 1000
#: default thresholds of lost value (engine units) for `?!`, `?` and `??`
INACCURACY, MISTAKE, BLUNDER = 50, 100, 300
MARKS = ("?!", "?", "??")


@attrs.frozen
class Thresholds:
    """Lost value from which a move is marked `?!`, `?` and `??`."""

    inaccuracy: int = INACCURACY
    mistake: int = MISTAKE
    blunder: int = BLUNDER

    def mark(self, loss: int) -> str:
        if loss >= self.blunder:
            return "??"
        if loss >= self.mistake:
            return "?"
        if loss >= self.inaccuracy:
            return "?!"
        return ""


@attrs.frozen
class Eval:
    """The engine's view of one position: `score` from the side to move's view, its best
    move and principal variation (canonical texts), the depth; or why there is none."""

    score: Score | None = None
    best: str | None = None
    pv: tuple[str, ...] = ()
    depth: int | None = None
    #: set when the position could not be analysed (the engine failed twice, ...)
    unanalysed: str | None = None

    def to_json(self) -> dict[str, Any]:
        score = self.score
        data: dict[str, Any] = {"best": self.best, "pv": list(self.pv), "depth": self.depth}
        if score is not None:
            data["score"] = [score.kind, score.value, score.bound]
        if self.unanalysed is not None:
            data["unanalysed"] = self.unanalysed
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Eval:
        raw = data.get("score")
        score = Score(str(raw[0]), raw[1], raw[2]) if raw else None
        return cls(
            score,
            data.get("best"),
            tuple(data.get("pv") or ()),
            data.get("depth"),
            data.get("unanalysed"),
        )


def value(score: Score | None) -> int | None:
    """A score as one number for the side to move, within +-CAP (None: no usable score)."""
    if score is None:
        return None
    found = centiflats(score.kind, score.value, score.bound)
    return None if found is None else int(max(-CAP, min(CAP, found)))


def proven(score: Score | None) -> str | None:
    """ "win", "loss" or "draw" when the score is a proven result for the side to move."""
    return score.bound if score is not None and score.kind == "solved" else None


def flipped(score: Score) -> Score:
    """The same score from the other side's view (two players)."""
    if score.kind == "solved":
        bound = {"win": "loss", "loss": "win"}.get(score.bound or "", score.bound)
        return Score(score.kind, score.value, bound)
    return Score(score.kind, None if score.value is None else -score.value, score.bound)


def first_view(score: Score, turn: int, players: int) -> Score:
    """The score from the first player's (White's) view in a two-player game; as it is
    (the side to move's view) with more players."""
    return flipped(score) if players == 2 and turn == 1 else score


@attrs.frozen
class Verdict:
    """One move judged: the value it lost (None: not known), its mark, whether it turned
    the result, and notes (`missed road in one`, ...)."""

    loss: int | None
    mark: str
    turned: bool
    notes: tuple[str, ...] = ()


def _outcome_value(outcome: Outcome, seat: int) -> int:
    points = outcome.points(seat)
    return CAP if points == 1 else -CAP if points == 0 else 0


def judge(
    before: Eval,
    after: Eval | Outcome,
    *,
    mover: int,
    turn_after: int,
    players: int,
    played: str,
    thresholds: Thresholds,
    notes: Sequence[str] = (),
    severe: bool = False,
) -> Verdict:
    """The verdict on the move `played` by `mover` from the position of `before` to the
    one of `after` (its Eval, or the game's outcome when the move ended it). `severe`:
    the rules found a missed or walked-into win (`notes` says which): a turned result."""
    start = value(before.score)
    if isinstance(after, Outcome):
        end: int | None = _outcome_value(after, mover)
        won_after = after.points(mover) == 1
        lost_after = after.points(mover) == 0
    else:
        end = value(after.score)
        result = proven(after.score)
        if end is not None and turn_after != mover:
            if players != 2:
                end = None
            else:
                end = -end
                result = {"win": "loss", "loss": "win"}.get(result or "", result)
        won_after, lost_after = result == "win", result == "loss"
    result_before = proven(before.score)
    turned = severe or (result_before == "win" and not won_after)
    turned = turned or (result_before in ("win", "draw") and lost_after)
    loss = None if start is None or end is None else max(0, start - end)
    if played == before.best and not turned:
        loss = 0  # the engine's own choice: what it lost is the search's noise
    mark = "??" if turned else thresholds.mark(loss or 0)
    return Verdict(loss, mark, turned, tuple(notes))


def comment(
    before: Eval, after: Eval | Outcome, turn_after: int, players: int, verdict: Verdict
) -> str:
    """`eval +0.45 best c3 pv c3 d4 loss 1.20 missed road in one`: the score after the move
    (White's view), the engine's best move and line in the position before it, the value
    lost when it counts, notes."""
    parts = []
    if isinstance(after, Eval) and after.score is not None:
        view = first_view(after.score, turn_after, players)
        parts.append("eval " + score_text(view.kind, view.value, view.bound))
    elif isinstance(after, Outcome):
        parts.append(f"result {after.code}")
    if before.best:
        parts.append(f"best {before.best}")
    if before.pv:
        parts.append("pv " + " ".join(before.pv))
    if verdict.loss and verdict.mark:
        parts.append(f"loss {verdict.loss / 100:.2f}")
    parts.extend(verdict.notes)
    if before.unanalysed:
        parts.append(f"unanalysed: {before.unanalysed}")
    return " ".join(parts)
