"""What the engine host makes of what a bot hands it: its reports (checked before they
become `info` lines) and its failures (described in one line, with the full traceback for
the log). Pure functions: nothing here writes anywhere."""

from __future__ import annotations

import traceback
from typing import Any

import attrs

from bots.base import Info
from rules.game import Game
from tei import protocol as p
from tei.lines import printable, quote

#: the largest `score cp` a report may carry (a larger one is dropped)
MAX_SCORE_CP = 2**31 - 1
_COUNTS = ("depth", "seldepth", "nodes", "nps", "time_ms")
_SOLVED = ("win", "loss", "draw")


def _count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= p.MAX_COUNT


def _word(value: object) -> bool:
    """One protocol word: text without spaces or control characters."""
    return isinstance(value, str) and value != "" and value.isprintable() and " " not in value


def checked_info(info: Info) -> tuple[Info, list[str]]:
    """`info` without the fields that cannot be written as they are (a line break or a
    control character in a pv move or the string, a number that is not a finite integer
    in range), and a note naming each field dropped."""
    dropped: dict[str, Any] = {}
    notes: list[str] = []

    def drop(field: str, why: str) -> None:
        dropped[field] = () if field == "pv" else None
        notes.append(f"{field} {quote(str(getattr(info, field)), 40)} {why}")

    for field in _COUNTS:
        value = getattr(info, field)
        if value is not None and not _count(value):
            drop(field, "is not an integer in 0..2^63-1")
    score = info.score_cp
    if score is not None and not (
        isinstance(score, int)
        and not isinstance(score, bool)
        and -MAX_SCORE_CP <= score <= MAX_SCORE_CP
    ):
        drop("score_cp", f"is not an integer in -{MAX_SCORE_CP}..{MAX_SCORE_CP}")
    if info.solved is not None and info.solved not in _SOLVED:
        drop("solved", "is not win, loss or draw")
    if not (isinstance(info.pv, tuple) and all(_word(move) for move in info.pv)):
        drop("pv", "has a move that is not one word of printable characters")
    string = info.string
    if string is not None and not (isinstance(string, str) and string.isprintable()):
        drop("string", "has a line break or a control character")
    if not dropped:
        return info, []
    return attrs.evolve(info, **dropped), notes


def exception_text(error: BaseException) -> tuple[str, str]:
    """(one line naming the exception's type and message, its full traceback)."""
    summary = traceback.format_exception_only(error)[-1].strip()
    full = "".join(traceback.format_exception(error)).rstrip("\n")
    return printable(summary), full


def bad_action(game: Game[Any], action: object) -> str | None:
    """None when `action` is a legal action of `game`, else why not (quoting the value)."""
    if action is None:
        return "think returned None, not an action"
    try:
        text = game.format_action(action)
        game.parse_action(text)
    except Exception as exc:
        shown = repr(action)
        what = printable(shown if len(shown) <= 80 else f"{shown[:80]}...")
        return f"think returned {what}, not a legal action here ({printable(str(exc))})"
    return None
