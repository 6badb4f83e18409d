"""One game between engines: the referee holds the true game, asks each engine for its
move under its clock, checks the answer, and judges with the rules core only.

Terminations (the PTN `Termination` tag):
  normal            the rules ended the game (road, flats, score, a rules draw ...)
  time forfeit      a move took longer than the clock (plus margin) allowed
  stalled           no answer to `isready`/`teinewgame`, or to a move without time limit
                    within the watchdog timeout
  crashed           the engine exited or closed its output
  illegal move      a well-formed move that is not legal
  malformed output  a `bestmove` that does not parse, or a protocol error
  adjudicated       the game reached --max-plies (scored as a draw), or a draw rule
                    of the rules options ended it (Tak: repetition, rule50)
The engine at fault loses (in a team game its team loses); an engine that crashed,
stalled or did not answer `stop` is restarted before its next game.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import trio

from adapters.referee.clock import Clock, go_limits
from adapters.referee.engines import EngineSlot
from adapters.referee.openings import Opening
from adapters.referee.records import GameRecord, MoveNote, score_comment, traxit_notes
from adapters.referee.schedule import Pairing
from rules.game import Game, IllegalAction, NotationError, Outcome
from tei.driver import (
    EngineError,
    EngineProtocolError,
    EngineStalled,
    EngineTerminated,
    EngineTimeout,
    IllegalMove,
    MalformedMove,
    PlayResult,
)
from tei.driver_options import DEFAULT_SIZES

NORMAL = "normal"
TIME_FORFEIT = "time forfeit"
STALLED = "stalled"
CRASHED = "crashed"
ILLEGAL = "illegal move"
MALFORMED = "malformed output"
ADJUDICATED = "adjudicated"
TERMINATIONS = (NORMAL, TIME_FORFEIT, STALLED, CRASHED, ILLEGAL, MALFORMED, ADJUDICATED)


#: rules options only the referee applies (draw rules); they are not sent to engines
REFEREE_RULES = ("repetition", "rule50")


def engine_rules(rules: Mapping[str, str]) -> dict[str, str]:
    """The rules options engines are told about (all but the referee's draw rules)."""
    return {k: v for k, v in rules.items() if k not in REFEREE_RULES}


@attrs.frozen
class GameSettings:
    """What every game of a match shares."""

    game: str
    rules: Mapping[str, str]
    max_plies: int | None = 1000
    #: seconds an engine gets to answer `stop` after its deadline
    grace: float = 1.0
    #: watchdog seconds for isready/new game and for moves without a time limit
    timeout: float = 60.0
    event: str = "tei match"
    site: str = "local"


@attrs.frozen
class GameResult:
    """A finished game."""

    pairing: Pairing
    outcome: Outcome
    termination: str
    #: engine indexes to restart before their next game
    restart: tuple[int, ...]
    record: GameRecord
    plies: int
    detail: str = ""
    #: the engine at fault (None when the rules or an adjudication ended the game)
    culprit: int | None = None
    #: per engine: (engine, moves, total ms, max ms, moves with a reported time, latency ms)
    timing: tuple[tuple[int, int, float, float, int, float], ...] = ()


def _tag_size(game: str, rules: Mapping[str, str]) -> str | None:
    if "size" in rules:
        return rules["size"]
    size = DEFAULT_SIZES.get(game)
    return None if size is None else str(size)


def _komi(rules: Mapping[str, str]) -> str:
    half = int(rules.get("halfkomi", "0") or 0)
    return str(half // 2) if half % 2 == 0 else f"{half / 2:.1f}"


def forfeit_outcome(game: Game[Any], seat: int, reason: str, teams: bool) -> Outcome:
    """The outcome when `seat` is at fault: every other seat (the other team) wins."""
    players = game.players
    if teams and players == 4:
        winners: tuple[int, ...] = tuple(s for s in range(4) if s % 2 != seat % 2)
    else:
        winners = tuple(s for s in range(players) if s != seat)
    code = f"{game.seat_name(seat)} forfeits"
    if players == 2:
        code = "0-1" if seat == 0 else "1-0"
    return Outcome(winners, code, reason)


def draw_outcome(game: Game[Any], reason: str) -> Outcome:
    seats = tuple(range(game.players))
    return Outcome(seats, "1/2-1/2" if game.players == 2 else "draw", reason)


def _comment(result: PlayResult) -> str:
    info = result.info
    score = info.score if info is not None else None
    return score_comment(
        score.kind if score else None,
        score.value if score else None,
        score.bound if score else None,
        info.depth if info is not None else None,
        result.elapsed,
    )


async def play_game(
    pairing: Pairing,
    slots: Sequence[EngineSlot],
    settings: GameSettings,
    opening: Opening | None,
    start: Game[Any],
) -> GameResult:
    """Play one game; `slots[i]` is the engine in seat i, `start` the opening's position."""
    game = start.copy()
    first_ply = game.ply
    teams = str(settings.rules.get("teams", "")).lower() in ("true", "1", "yes", "on")
    clocks = [Clock(slot.spec.control) for slot in slots]
    moves: list[MoveNote] = [
        MoveNote(text, None, seat)
        for text, seat in zip(game.history_text(), _seats_of_history(start), strict=False)
    ]
    date = datetime.datetime.now(datetime.UTC)
    outcome: Outcome | None = None
    termination = NORMAL
    restart: set[int] = set()
    detail = ""
    culprit: int | None = None
    timing: dict[int, list[float]] = {}

    def fault(seat: int, why: str, exc: BaseException, restart_it: bool) -> Outcome:
        nonlocal termination, detail, culprit
        termination, detail, culprit = why, str(exc), pairing.seats[seat]
        if restart_it:
            restart.add(pairing.seats[seat])
        return forfeit_outcome(game, seat, why, teams)

    for seat, slot in enumerate(slots):
        try:
            engine = await slot.open()
            await engine.new_game(
                settings.game, engine_rules(settings.rules), timeout=settings.timeout
            )
        except EngineStalled as exc:
            outcome = fault(seat, STALLED, exc, True)
        except (EngineTerminated, OSError) as exc:
            outcome = fault(seat, CRASHED, exc, True)
        except EngineError as exc:
            outcome = fault(seat, MALFORMED, exc, True)
        if outcome is not None:
            break

    while outcome is None:
        outcome = game.result
        if outcome is not None:
            if outcome.reason in REFEREE_RULES:
                termination = ADJUDICATED
            break
        if settings.max_plies is not None and game.ply - first_ply >= settings.max_plies:
            outcome, termination = draw_outcome(game, "max plies"), ADJUDICATED
            break
        seat = game.turn
        slot, clock = slots[seat], clocks[seat]
        allowed_ms = clock.allowed_ms()
        timed = allowed_ms is not None
        window = allowed_ms / 1000 if allowed_ms is not None else settings.timeout
        try:
            engine = await slot.open()
            answer = await engine.play(
                game,
                go_limits(clocks, seat),
                deadline=trio.current_time() + window,
                grace=settings.grace,
            )
        except EngineTimeout as exc:
            outcome = fault(seat, TIME_FORFEIT if timed else STALLED, exc, True)
            break
        except EngineStalled as exc:
            outcome = fault(seat, STALLED, exc, True)
            break
        except (EngineTerminated, OSError) as exc:
            outcome = fault(seat, CRASHED, exc, True)
            break
        except IllegalMove as exc:
            outcome = fault(seat, ILLEGAL, exc, False)
            break
        except (MalformedMove, EngineProtocolError) as exc:
            outcome = fault(seat, MALFORMED, exc, False)
            break
        except EngineError as exc:
            outcome = fault(seat, CRASHED, exc, True)
            break
        if not clock.punch(answer.elapsed * 1000):
            outcome = fault(
                seat,
                TIME_FORFEIT,
                RuntimeError(
                    f"engine {slot.label!r} took {answer.elapsed:.3f} s, allowed {window:.3f} s"
                ),
                False,
            )
            break
        try:
            action = game.parse_action(answer.text)
            game.play(action)
        except IllegalAction as exc:
            outcome = fault(seat, ILLEGAL, exc, False)
            break
        except NotationError as exc:
            outcome = fault(seat, MALFORMED, exc, False)
            break
        moves.append(MoveNote(game.format_action(action), _comment(answer), seat))
        _clock_in(timing, pairing.seats[seat], answer)

    names = [slot.spec.name for slot in slots]
    tags: list[tuple[str, str]] = [
        ("Site", settings.site),
        ("Event", settings.event),
        ("Date", date.strftime("%Y.%m.%d")),
        ("Time", date.strftime("%H:%M:%S")),
        ("Round", pairing.label),
    ]
    tags += [(f"Player{i + 1}", name) for i, name in enumerate(names)]
    size = _tag_size(settings.game, settings.rules)
    if size is not None:
        tags.append(("Size", size))
    if settings.game == "tak":
        tags.append(("Komi", _komi(settings.rules)))
    clocks_text = [slot.spec.control.describe() for slot in slots]
    tags.append(
        ("Clock", clocks_text[0] if len(set(clocks_text)) == 1 else " / ".join(clocks_text))
    )
    if start.start_position:
        tags.append(("TPS" if settings.game == "tak" else "Position", start.start_position))
    if opening is not None and opening.source:
        tags.append(("Book", opening.source))
    tags += [("Result", outcome.code), ("Termination", termination)]
    record = GameRecord(
        game=settings.game,
        tags=tuple(tags),
        moves=tuple(traxit_notes(game, moves)),
        result=outcome.code,
        start_position=start.start_position,
        seat_names=tuple(game.seat_name(s) for s in range(game.players)),
        note=f"{termination}: {detail}" if detail else None,
    )
    return GameResult(
        pairing=pairing,
        outcome=outcome,
        termination=termination,
        restart=tuple(sorted(restart)),
        culprit=culprit,
        timing=tuple(
            (e, int(t[0]), t[1], t[2], int(t[3]), t[4]) for e, t in sorted(timing.items())
        ),
        record=record,
        plies=game.ply,
        detail=detail,
    )


def _clock_in(timing: dict[int, list[float]], engine: int, answer: PlayResult) -> None:
    """Add a move to an engine's timing: count, total, max, and the latency (measured
    time minus the `info time` the engine reported) when it reported one."""
    ms = answer.elapsed * 1000
    t = timing.setdefault(engine, [0, 0.0, 0.0, 0, 0.0])
    t[0] += 1
    t[1] += ms
    t[2] = max(t[2], ms)
    reported = next((i.time for i in reversed(answer.infos) if i.time is not None), None)
    if reported is not None:
        t[3] += 1
        t[4] += ms - reported


def _seats_of_history(game: Game[Any]) -> list[int]:
    """The seat that played each action of a game's history (replayed on a copy)."""
    replay = game.copy()
    seats: list[int] = []
    while replay.ply:
        replay.undo()
        seats.append(replay.turn)
    return seats[::-1]
