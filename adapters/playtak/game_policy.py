"""What the bot does in a game besides moving, decided without I/O.

* Resigning and offering draws by our engine's scores: the referee's `ResignRule` and
  `DrawRule` (`--resign movecount=N score=CP`, `--draw movenumber=N movecount=M
  score=CP`) over a `ScoreRun` of our own moves. Only our engine's scores are known on
  playtak, so the draw band and `movecount` apply to our engine alone, and `twosided` is
  refused. A move without a score ends every run: an engine that reports no scores
  never resigns nor offers a draw. The draw is offered with each of our moves while the
  rule holds (a move ends the standing offers), and withdrawn once it no longer does.
* Answering the opponent: a draw offer is accepted with `--accept-draws`, or when the
  draw rule holds at that moment; an undo request by `--undo` (default: refuse).
* Chat: the greeting and goodbye templates with `{me}` and `{opponent}`.
"""

from __future__ import annotations

import string
from typing import Literal

import attrs

from adapters.playtak.errors import PlaytakError
from adapters.referee.adjudication import (
    AdjudicationError,
    DrawRule,
    ResignRule,
    ScoreRun,
    centiflats,
)

#: a Tell carries at most this many characters (the server's `Tell name (.{1,256})`)
TELL_LIMIT = 256
PLACEHOLDERS = ("me", "opponent")
UNDO_CHOICES = ("refuse", "accept")

Score = tuple[str | None, int | None, str | None]
Action = Literal["resign", "offer draw", "withdraw draw"]


class PolicyError(PlaytakError, ValueError):
    """A bad resign, draw, undo or chat setting (the message names the option)."""


@attrs.frozen
class ChatTemplate:
    """A chat line with `{me}` and `{opponent}` placeholders (`{{` and `}}`: braces)."""

    text: str

    @classmethod
    def parse(cls, text: str, option: str) -> ChatTemplate:
        if not text.strip() or not text.isprintable():
            raise PolicyError(f"{option} {text!r}: give one line of printable text")
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError as exc:
            raise PolicyError(f"{option} {text!r}: {exc}") from None
        for _literal, name, spec, conversion in fields:
            if name is None:
                continue
            wanted = " and ".join(f"{{{p}}}" for p in PLACEHOLDERS)
            if name not in PLACEHOLDERS:
                raise PolicyError(
                    f"{option} {text!r}: unknown placeholder {{{name}}}; use {wanted}"
                )
            if spec or conversion:
                written = "{" + name + (f"!{conversion}" if conversion else "")
                written += (f":{spec}" if spec else "") + "}"
                raise PolicyError(
                    f"{option} {text!r}: {written} has a conversion or format; the"
                    f" placeholders take none: write {{{name}}}"
                )
        return cls(text)

    def fill(self, me: str, opponent: str) -> str:
        """The line with the names filled in, cut to what a Tell carries."""
        return self.text.format(me=me, opponent=opponent)[:TELL_LIMIT]


@attrs.frozen
class ScorePolicy:
    """The resign and draw rules by our engine's scores, and the answers to offers."""

    resign: ResignRule | None = None
    draw: DrawRule | None = None
    accept_draws: bool = False
    accept_undo: bool = False

    @classmethod
    def parse(
        cls,
        resign: str | None = None,
        draw: str | None = None,
        accept_draws: bool = False,
        undo: str = UNDO_CHOICES[0],
    ) -> ScorePolicy:
        """From the `--resign` and `--draw` words and the `--undo` choice."""
        try:
            resign_rule = ResignRule.parse(resign.split()) if resign else None
            draw_rule = DrawRule.parse(draw.split()) if draw else None
        except AdjudicationError as exc:
            raise PolicyError(str(exc)) from None
        if resign_rule is not None and resign_rule.twosided:
            raise PolicyError(
                "--resign: twosided needs the opponent engine's scores, which playtak does not give"
            )
        if undo not in UNDO_CHOICES:
            raise PolicyError(f"--undo {undo!r}: one of {', '.join(UNDO_CHOICES)}")
        return cls(resign_rule, draw_rule, accept_draws, undo == "accept")

    def watch(self) -> ScoreWatch:
        """A watch over the scores of one game."""
        return ScoreWatch(self)


@attrs.define
class ScoreWatch:
    """Our engine's runs of scores in one game, and whether our draw offer stands."""

    policy: ScorePolicy
    run: ScoreRun = attrs.field(factory=ScoreRun)
    offered: bool = False
    scored: bool = False

    def after_our_move(self, score: Score, ply: int) -> Action | None:
        """Count the score of the move we just played (`ply` plies now played): what to
        do about it, or None."""
        value = centiflats(*score)
        self.scored = self.scored or value is not None
        rules = self.policy
        self.run.add(value, rules.resign, rules.draw)
        if rules.resign is not None and self.run.losing >= rules.resign.movecount:
            return "resign"
        holds = self.draw_holds(ply)
        if holds:  # again after every move: a move ends the offers on playtak
            self.offered = True
            return "offer draw"
        if self.offered and not holds:
            self.offered = False
            return "withdraw draw"
        return None

    def draw_holds(self, ply: int) -> bool:
        """The draw rule holds after `ply` plies: N full moves played and our engine
        within the band on its last M moves."""
        rule = self.policy.draw
        return rule is not None and ply // 2 >= rule.movenumber and self.run.level >= rule.movecount

    def takes_draw(self, ply: int) -> bool:
        """Accept the opponent's draw offer now?"""
        return self.policy.accept_draws or self.draw_holds(ply)
