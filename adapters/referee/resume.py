"""Resuming a match: the state file checked against the schedule, and the records file
reconciled with the state.

Every game line of the state must fit the schedule (its index, seats, group and the
players named in its record); otherwise resuming is refused, naming the line. In the
records file (from the offset where the match's records begin) a complete record is one
the state knows; or a finished game of this match (its run id in the record) the state
does not know, taken from its record when it fits the schedule (refused otherwise); or
another match's, left alone. No complete record is ever removed; only an unfinished
record at the very end (an interrupted write) is cut, into a side file."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from adapters.referee.adjudication import DRAW, RESIGN, TINUE
from adapters.referee.facts import Termination
from adapters.referee.game_loop import draw_outcome, forfeit_outcome
from adapters.referee.openings import RecordText, read_records
from adapters.referee.records import (
    cut_fragment,
    end_with_blank_line,
    read_details,
    scan_records,
)
from adapters.referee.schedule import Pairing
from adapters.referee.state import FinishedGame, MatchState, StateError
from rules.game import Game, GameError, Outcome

log = logging.getLogger("referee")

#: the terminations by their words
_TERMINATIONS = {t.value: t for t in Termination}


def misfit(
    index: int,
    seats: Sequence[int],
    group: int,
    record: str,
    schedule: Sequence[Pairing],
    names: Sequence[str],
) -> str | None:
    """Why a game does not fit the schedule (None when it does): its index, seats, group,
    or the players its record names (`Player1`, ...) against the engines' names."""
    if not 0 <= index < len(schedule):
        return f"game {index + 1} is not in the schedule of {len(schedule)} games"
    pairing = schedule[index]
    if tuple(seats) != pairing.seats or group != pairing.group:
        return (
            f"game {index + 1} has engines {list(seats)} in group {group}, the schedule"
            f" has {list(pairing.seats)} in group {pairing.group}"
        )
    found = read_records(record)
    tags = found[0].tags if found else {}
    players = [tags.get(f"Player{seat + 1}", "") for seat in range(len(pairing.seats))]
    expected = [names[engine] for engine in pairing.seats]
    if players != expected:
        return f"game {index + 1} is played by {players}, the schedule has {expected}"
    return None


def check_state(state: MatchState, schedule: Sequence[Pairing], names: Sequence[str]) -> None:
    """StateError naming the first game line of `state` that does not fit the schedule."""
    for index, game in sorted(state.games.items()):
        why = misfit(index, game.seats, game.group, game.record, schedule, names)
        if why is not None:
            raise StateError(f"{state.where(index)}: not a game of this match: {why}")


@attrs.frozen
class Reconciled:
    """What the records file says beyond the state file."""

    #: games the state knows whose record is in the file
    found: frozenset[int]
    #: finished games the state does not know, taken from their complete records
    adopted: tuple[FinishedGame, ...]


def reconcile(
    path: str | Path,
    state: MatchState,
    schedule: Sequence[Pairing],
    names: Sequence[str],
    starts: Mapping[int | None, Game[Any]],
) -> Reconciled:
    """Read the match's records file (from `state.records_start`), refuse a complete
    record that cannot be placed (StateError naming FILE:LINE, nothing changed), then
    move an unfinished last record to a side file (logged, naming it)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return Reconciled(frozenset(), ())
    except OSError as exc:
        raise StateError(f"cannot read the records file {str(path)!r}: {exc}") from None
    scan = scan_records(data, state.records_start if state.records_start <= len(data) else 0)
    known = {game.record.strip(): index for index, game in state.games.items()}
    found: set[int] = set()
    adopted: dict[int, FinishedGame] = {}
    for record in scan.records:
        index = known.get(record.text.strip())
        if index is not None:
            found.add(index)
            continue
        parsed = read_records(record.text)[0]
        run = _details(parsed).get("run")
        if run != state.run:
            log.warning(
                "%s:%d: a record of another match (run %r) left in place", path, record.line, run
            )
            continue
        game = _adopt(record.text, parsed, schedule, names, starts, f"{path}:{record.line}")
        if game.index in state.games or game.index in adopted:
            raise StateError(
                f"{path}:{record.line}: a second, different record of game {game.index + 1};"
                " resuming would count that game twice: keep one of them by hand"
            )
        adopted[game.index] = game
    if scan.fragment is not None:
        try:
            side = cut_fragment(path, scan.fragment)
        except OSError as exc:
            raise StateError(
                f"{path}:{scan.fragment_line}: cannot move an unfinished record to a side"
                f" file: {exc.strerror or exc}"
            ) from None
        log.warning(
            "%s:%d: an unfinished record (%d bytes, an interrupted write) moved to %s",
            path,
            scan.fragment_line,
            len(data) - scan.fragment,
            side,
        )
    if scan.records:
        try:
            end_with_blank_line(path)
        except OSError as exc:
            raise StateError(f"cannot write {path}: {exc.strerror or exc}") from None
    for game in adopted.values():
        log.warning(
            "%s: game %d is in the records file but not in the state file: taken from its record",
            path,
            game.index + 1,
        )
    return Reconciled(frozenset(found), tuple(sorted(adopted.values(), key=lambda g: g.index)))


def _details(record: RecordText) -> dict[str, str]:
    """The `key:"value"` facts of the comment before a record's first move."""
    return read_details(record.comments[0]) if record.comments else {}


def _adopt(
    text: str,
    parsed: RecordText,
    schedule: Sequence[Pairing],
    names: Sequence[str],
    starts: Mapping[int | None, Game[Any]],
    where: str,
) -> FinishedGame:
    """The finished game a complete record holds, when it fits the schedule."""

    def refuse(why: str) -> StateError:
        return StateError(
            f"{where}: a complete record the state file does not know, and {why}; it is"
            " left in place: move it out of the file by hand, or resume with the state"
            " file that wrote it"
        )

    try:
        index = int(parsed.tags.get("Round", "")) - 1
    except ValueError:
        raise refuse("it has no Round tag") from None
    pairing = schedule[index] if 0 <= index < len(schedule) else None
    seats = pairing.seats if pairing is not None else ()
    group = pairing.group if pairing is not None else -1
    why = misfit(index, seats, group, text, schedule, names)
    if why is not None or pairing is None:
        raise refuse(f"it does not fit this match's schedule: {why}")
    judged = _judge(parsed, starts[pairing.opening])
    if judged is None:
        raise refuse(f"its result {parsed.tags.get('Result')!r} is not understood")
    outcome, termination, forfeit, plies = judged
    note = next((c for c in parsed.comments if c.startswith(f"{termination}: ")), "")
    detail = note[len(termination) + 2 :]
    reason = outcome.reason
    adjudicated = Termination.ADJUDICATED
    if termination is adjudicated and reason == adjudicated.value:  # read back from the comment
        word = detail.split(" ", 1)[0]
        reason = word if word in (RESIGN, DRAW, TINUE) else "max plies"
    return FinishedGame.of(
        pairing,
        outcome,
        termination,
        plies,
        text,
        reason=reason,
        detail=detail,
        culprit=pairing.seats[forfeit] if forfeit is not None and termination.is_fault else None,
    )


def _judge(
    record: RecordText, start: Game[Any]
) -> tuple[Outcome, Termination, int | None, int] | None:
    """(outcome, termination, forfeiting seat, plies) of a record: replayed from the
    start position, or else read from its result code as the referee writes it."""
    game = start.copy()
    while game.ply:
        game.undo()
    termination = _TERMINATIONS.get(_details(record).get("termination", ""))
    code = record.tags.get("Result", "")
    plies: int
    try:
        game.play_all(list(record.moves))
        plies = game.ply
    except GameError:
        plies = len(record.moves)
    result = game.result
    if result is not None and result.code == code:
        return result, termination if termination else Termination.NORMAL, None, plies
    if termination is None:
        return None
    draw = draw_outcome(game, termination.value)
    if code == draw.code:
        return draw, termination, None, plies
    for seat in range(game.players):
        forfeit = forfeit_outcome(game, seat, termination.value)
        if code == forfeit.code:
            return forfeit, termination, seat, plies
    if game.players == 2 and code in ("R-0", "0-R"):  # a tinue adjudication
        winner = 0 if code == "R-0" else 1
        return Outcome((winner,), code, termination.value), termination, None, plies
    return None
