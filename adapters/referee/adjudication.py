"""Adjudication: ending decided games early, by the engines' scores or by a proof.

Three rules, each a frozen value that parses and prints its `KEY=VALUE` words:

* `ResignRule` (`--resign movecount=N score=CP [twosided=true]`): a side whose engine
  reported a score of CP centiflats or worse against itself on each of its last N moves
  loses; with `twosided`, the opponent's engine must also have reported at least +CP on
  each of its last N moves.
* `DrawRule` (`--draw movenumber=N movecount=M score=CP`): once N full moves are played,
  a draw when both engines reported scores within CP of 0 on each of their last M moves.
* `TinueRule` (`--tinue-adjudication [plies=K]`, Tak only): the side to move wins when
  the rules core proves a tinue within K plies (`rules.tak.tinue`).

Scores are the engine's last `info score` of the move: `cp` as given; `solved win` /
`mate N>0` beyond any CP, `solved loss` / `mate N<=0` below any, `solved draw` 0. A move
without a score breaks a run. The rules only read scores and the game: `GameJudge` is
fed after every move and answers with a `Verdict` or None.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs

from adapters.referee.errors import RefereeError
from rules.game import Game, Outcome
from rules.registry import game_class

#: the rules' names (also the `reason` of an adjudicated outcome)
RESIGN, DRAW, TINUE = "resign", "draw", "tinue"
RULES = (RESIGN, DRAW, TINUE)


class AdjudicationError(RefereeError):
    """Bad adjudication settings (the message names the rule and the word)."""


def _words(rule: str, words: Sequence[str], known: Mapping[str, type]) -> dict[str, Any]:
    """`KEY=VALUE` words to typed values; AdjudicationError naming a bad one."""
    out: dict[str, Any] = {}
    for word in words:
        key, sep, text = word.partition("=")
        key = key.strip().lower()
        if not sep or key not in known:
            raise AdjudicationError(
                f"--{rule}: bad setting {word!r}; use {' '.join(f'{k}=...' for k in known)}"
            )
        kind = known[key]
        if kind is bool:
            lowered = text.strip().lower()
            if lowered not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
                raise AdjudicationError(f"--{rule}: {key}={text!r} is not true or false")
            out[key] = lowered in ("true", "1", "yes", "on")
            continue
        try:
            value = int(text)
        except ValueError:
            raise AdjudicationError(f"--{rule}: {key}={text!r} is not a whole number") from None
        least = 0 if key in ("score", "movenumber") else 1
        if value < least:
            raise AdjudicationError(f"--{rule}: {key}={text!r} must be at least {least}")
        out[key] = value
    return out


def _need(rule: str, values: Mapping[str, Any], keys: Sequence[str]) -> None:
    missing = [k for k in keys if k not in values]
    if missing:
        raise AdjudicationError(f"--{rule}: give {' '.join(f'{k}=N' for k in missing)}")


@attrs.frozen
class ResignRule:
    movecount: int
    score: int
    twosided: bool = False

    @classmethod
    def parse(cls, words: Sequence[str]) -> ResignRule:
        values = _words(RESIGN, words, {"movecount": int, "score": int, "twosided": bool})
        _need(RESIGN, values, ("movecount", "score"))
        return cls(**values)

    def __str__(self) -> str:
        text = f"movecount={self.movecount} score={self.score}"
        return text + (" twosided=true" if self.twosided else "")


@attrs.frozen
class DrawRule:
    movenumber: int
    movecount: int
    score: int

    @classmethod
    def parse(cls, words: Sequence[str]) -> DrawRule:
        values = _words(DRAW, words, {"movenumber": int, "movecount": int, "score": int})
        _need(DRAW, values, ("movenumber", "movecount", "score"))
        return cls(**values)

    def __str__(self) -> str:
        return f"movenumber={self.movenumber} movecount={self.movecount} score={self.score}"


@attrs.frozen
class TinueRule:
    plies: int = 5

    @classmethod
    def parse(cls, words: Sequence[str]) -> TinueRule:
        return cls(**_words("tinue-adjudication", words, {"plies": int}))

    def __str__(self) -> str:
        return f"plies={self.plies}"


def _split(value: Any) -> list[str]:
    """Settings words from a string, a list of words or a JSON object."""
    if isinstance(value, Mapping):
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in value.items()]
    if isinstance(value, str):
        return value.split()
    if isinstance(value, Sequence):
        return [str(w) for w in value]
    raise AdjudicationError(f"adjudication setting {value!r} is not words or an object")


@attrs.frozen
class AdjudicationRules:
    """The adjudication rules of a match (None: rule off)."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None
    tinue: TinueRule | None = None

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], game: str, seats: int) -> AdjudicationRules:
        """From the settings keys `resign`, `draw`, `tinue_adjudication` (words, a list
        of words or an object; `tinue_adjudication` may be "" or true for the default)."""
        resign = settings.get("resign")
        draw = settings.get("draw")
        tinue = settings.get("tinue_adjudication")
        rules = cls(
            resign=ResignRule.parse(_split(resign)) if resign else None,
            draw=DrawRule.parse(_split(draw)) if draw else None,
            tinue=None
            if tinue is None or tinue is False
            else TinueRule.parse([] if tinue is True else _split(tinue)),
        )
        if rules.tinue is not None and not game_class(game).proves_forced_wins:
            raise AdjudicationError(f"--tinue-adjudication is for Tak only, not {game}")
        if (rules.resign or rules.draw) and seats != 2:
            raise AdjudicationError(f"--resign and --draw need two seats, this game has {seats}")
        return rules

    def to_settings(self) -> dict[str, str | None]:
        return {
            "resign": None if self.resign is None else str(self.resign),
            "draw": None if self.draw is None else str(self.draw),
            "tinue_adjudication": None if self.tinue is None else str(self.tinue),
        }

    @property
    def active(self) -> bool:
        return any((self.resign, self.draw, self.tinue))


def score_words(score: Any) -> tuple[str | None, int | None, str | None]:
    """(kind, value, bound) of an engine's `info score` (all None without one)."""
    return (score.kind, score.value, score.bound) if score is not None else (None, None, None)


def centiflats(kind: str | None, value: int | None, bound: str | None) -> float | None:
    """An engine score as centiflats for the mover (infinite when proven), or None."""
    if kind == "cp" and value is not None:
        return float(value)
    if kind == "solved":
        return {"win": math.inf, "loss": -math.inf, "draw": 0.0}.get(bound or "")
    if kind == "mate" and value is not None:
        return math.inf if value > 0 else -math.inf
    return None


@attrs.define
class ScoreRun:
    """One engine's runs of its own moves in a row: scored -CP or worse (`losing`), +CP
    or better (`winning`) by a resign rule, within a draw rule's band (`level`). A move
    without a score ends every run."""

    losing: int = 0
    winning: int = 0
    level: int = 0

    def add(self, value: float | None, resign: ResignRule | None, draw: DrawRule | None) -> None:
        """Count one move scored `value` (centiflats for the mover, None: no score)."""
        if value is None:
            self.losing = self.winning = self.level = 0
            return
        if resign is not None:
            self.losing = self.losing + 1 if value <= -resign.score else 0
            self.winning = self.winning + 1 if value >= resign.score else 0
        if draw is not None:
            self.level = self.level + 1 if abs(value) <= draw.score else 0


@attrs.frozen
class Verdict:
    """An adjudicated end: the outcome (its reason the rule) and a comment for the record."""

    outcome: Outcome
    comment: str
    #: the proving line of a tinue, in PTN
    line: tuple[str, ...] = ()


class Adjudicator:
    """The rules of a match, and what it has logged (a notice once per engine name)."""

    def __init__(
        self, rules: AdjudicationRules, log: Callable[[str, str], None] | None = None
    ) -> None:
        self.rules = rules
        self.log = log
        self.noticed: set[str] = set()

    def __getstate__(self) -> dict[str, Any]:
        """What travels to a cluster worker with the game settings: the rules (the log
        callback stays with the referee process)."""
        return {"rules": self.rules, "log": None, "noticed": set(self.noticed)}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def new_game(self, names: Sequence[str]) -> GameJudge:
        """A judge for one game; `names[seat]` is the engine in that seat."""
        return GameJudge(self, tuple(names))

    def notice_unscored(self, name: str) -> None:
        if name in self.noticed or self.rules.resign is None:
            return
        self.noticed.add(name)
        if self.log is not None:
            self.log(name, "reports no scores: the resign rule will never resign it")


class GameJudge:
    """Follows one game: runs of scores per seat, and a tinue table kept between plies."""

    def __init__(self, adjudicator: Adjudicator, names: tuple[str, ...]) -> None:
        self.adjudicator = adjudicator
        self.rules = adjudicator.rules
        self.names = names
        self.runs = [ScoreRun(), ScoreRun()]
        self.table: dict[Any, Any] = {}

    def after_move(
        self, game: Game[Any], seat: int, score: tuple[str | None, int | None, str | None]
    ) -> Verdict | None:
        """Judge the game after `seat` moved, with its engine's last (kind, value, bound)
        score; None while the game goes on (or when the rules already ended it)."""
        if game.result is not None:
            return None
        value = centiflats(*score)
        if value is None and seat < len(self.names):
            self.adjudicator.notice_unscored(self.names[seat])
        self.runs[seat].add(value, self.rules.resign, self.rules.draw)
        return self._tinue(game) or self._resign(game) or self._draw(game)

    def _resign(self, game: Game[Any]) -> Verdict | None:
        rule = self.rules.resign
        if rule is None:
            return None
        for loser in (0, 1):
            other = 1 - loser
            if self.runs[loser].losing >= rule.movecount and (
                not rule.twosided or self.runs[other].winning >= rule.movecount
            ):
                code = "0-1" if loser == 0 else "1-0"
                who = game.seat_name(loser)
                return Verdict(
                    Outcome((other,), code, RESIGN),
                    f"resign ({rule}): {who}'s engine scored -{rule.score / 100:.2f} or worse"
                    f" for {self.runs[loser].losing} moves",
                )
        return None

    def _draw(self, game: Game[Any]) -> Verdict | None:
        rule = self.rules.draw
        if rule is None or game.ply // 2 < rule.movenumber:
            return None
        if min(run.level for run in self.runs) >= rule.movecount:
            return Verdict(
                Outcome((0, 1), "1/2-1/2", DRAW),
                f"draw ({rule}): both engines within {rule.score / 100:.2f}"
                f" for {rule.movecount} moves",
            )
        return None

    def _tinue(self, game: Game[Any]) -> Verdict | None:
        rule = self.rules.tinue
        if rule is None:
            return None
        line = game.forced_win(rule.plies, self.table)
        if line is None:
            return None
        winner = game.turn
        texts = tuple(m.ptn() for m in line)
        return Verdict(
            Outcome((winner,), ("R-0", "0-R")[winner], TINUE),
            f"tinue ({rule}): {game.seat_name(winner)} forces a road: {' '.join(texts)}",
            texts,
        )
