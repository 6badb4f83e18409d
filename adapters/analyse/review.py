"""One game reviewed from the engine's evals of its positions (no I/O): a verdict and a
note per move, and the per-player summary (`--json` and the terminal line)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from adapters.analyse import threats
from adapters.analyse.judge import MARKS, Eval, Thresholds, Verdict, comment, judge
from adapters.analyse.records import GameText
from adapters.analyse.writer import Note
from rules.game import Game
from rules.tak.game import TakGame

#: the note of a move whose position was not analysed
NOT_ANALYSED = Eval(unanalysed="not analysed")


def wanted(states: Sequence[Game[Any]]) -> list[int]:
    """The positions (by ply) an engine must evaluate: those where the game goes on."""
    return [ply for ply, state in enumerate(states) if state.result is None]


@attrs.frozen
class Review:
    """A game reviewed: the note written after each move and the summary."""

    notes: tuple[Note, ...]
    verdicts: tuple[Verdict, ...]
    summary: dict[str, Any]


def _claim(before: Eval) -> int | None:
    score = before.score
    if score is not None and score.kind == "solved" and score.bound == "win":
        return score.value
    return None


def review(
    record: GameText,
    states: Sequence[Game[Any]],
    evals: Mapping[int, Eval],
    thresholds: Thresholds,
) -> Review:
    """Judge every move of `record` (`states`: its positions, `evals` by ply)."""
    notes, verdicts = [], []
    for ply, action in enumerate(record.actions):
        before, after_state = states[ply], states[ply + 1]
        mover, players = before.turn, before.players
        found = evals.get(ply, NOT_ANALYSED)
        outcome = after_state.result
        after: Eval | Any = outcome if outcome is not None else evals.get(ply + 1, NOT_ANALYSED)
        told: list[str] = []
        if isinstance(before, TakGame) and isinstance(after_state, TakGame):
            told = threats.notes(before, after_state, _claim(found))
        severe = any(note.startswith(("missed", "walked", "did not")) for note in told)
        verdict = judge(
            found,
            after,
            mover=mover,
            turn_after=after_state.turn,
            players=players,
            played=action,
            thresholds=thresholds,
            notes=told,
            severe=severe,
        )
        verdicts.append(verdict)
        text = comment(found, after, after_state.turn, players, verdict)
        notes.append(Note(verdict.mark, text))
    return Review(tuple(notes), tuple(verdicts), summarise(record, states, verdicts))


def summarise(
    record: GameText, states: Sequence[Game[Any]], verdicts: Sequence[Verdict]
) -> dict[str, Any]:
    """Per player: moves, moves judged, average loss (engine units), marks; and the
    moves that turned the result."""
    players = states[0].players
    seats: list[dict[str, Any]] = [
        {
            "seat": seat + 1,
            "name": record.player(seat),
            "moves": 0,
            "judged": 0,
            "average_loss": None,
            "marks": dict.fromkeys(MARKS, 0),
        }
        for seat in range(players)
    ]
    totals = [0] * players
    turns = []
    for ply, verdict in enumerate(verdicts):
        seat = states[ply].turn
        entry = seats[seat]
        entry["moves"] += 1
        if verdict.loss is not None:
            entry["judged"] += 1
            totals[seat] += verdict.loss
        if verdict.mark:
            entry["marks"][verdict.mark] += 1
        if verdict.turned:
            turns.append(
                {
                    "ply": ply + 1,
                    "move": record.actions[ply],
                    "player": entry["name"],
                    "notes": list(verdict.notes),
                }
            )
    for seat, entry in enumerate(seats):
        if entry["judged"]:
            entry["average_loss"] = round(totals[seat] / entry["judged"] / 100, 3)
    final = states[-1].result
    return {
        "game": record.number,
        "line": record.line,
        "plies": len(record.actions),
        "result": record.result or (final.code if final is not None else None),
        "unanalysed": sum(1 for v in verdicts if v.loss is None),
        "players": seats,
        "turns": turns,
    }


def summary_line(summary: Mapping[str, Any]) -> str:
    """`game 3 (line 40): 41 plies, 1-0; Alice loss 0.32 ?! 2 ? 1 ?? 0; Bob ...`"""
    parts = [f"game {summary['game']} (line {summary['line']}): {summary['plies']} plies"]
    if summary["result"]:
        parts[0] += f", {summary['result']}"
    for player in summary["players"]:
        loss = player["average_loss"]
        marks = " ".join(f"{mark} {count}" for mark, count in player["marks"].items())
        shown = "-" if loss is None else f"{loss:.2f}"
        parts.append(f"{player['name']} loss {shown} {marks}")
    if summary["unanalysed"]:
        parts.append(f"{summary['unanalysed']} moves unjudged")
    return "; ".join(parts)
