"""One game between engines: the referee holds the true game, asks each engine for its
move under its clock, checks the answer, and judges with the rules core only.

Terminations (adapters.referee.facts.Termination; `termination:"..."` in the comment
before a record's first move):
  normal            the rules ended the game (road, flats, score, a rules draw ...)
  time forfeit      a move took longer than the clock (plus margin) allowed
  stalled           no answer to `isready`/`teinewgame`, or to a move without time limit
                    within the watchdog timeout
  crashed           the engine exited or closed its output
  illegal move      a well-formed move that is not legal
  malformed output  a `bestmove` that does not parse, or a protocol error
  bot error         a `tei engine` (bot=NAME, bot=module:Class) said that its bot raised
                    or returned something that is not a legal action, and answered
                    with a stand-in move (a late move is judged by the clock and margin)
  adjudicated       the game reached --max-plies (scored as a draw), a draw rule
                    of the rules options ended it (Tak: repetition, rule50), or a rule
                    of --resign, --draw, --tinue-adjudication did (see adjudication.py)
The engine at fault loses (in a team game its team loses); an engine that crashed,
stalled or did not answer `stop` is restarted before its next game.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

import attrs
import trio

from adapters.referee.adjudication import Adjudicator, score_words
from adapters.referee.clock import Clock, go_limits
from adapters.referee.engines import EngineSpec
from adapters.referee.facts import MoveTimes, Termination
from adapters.referee.openings import Opening
from adapters.referee.records import GameRecord, MoveNote, info_comment, labelled_notes
from adapters.referee.schedule import Pairing
from adapters.referee.settings import DEFAULTS
from adapters.stream.announce import Publish, engine_info, game_started, move_played
from rules.game import Game, Outcome
from tei.bot_failure import OVERRAN
from tei.driver import PlayResult
from tei.game_rules import referee_rules
from tei.lines import printable
from tei.seat import EngineSeat, NewGame, SeatFault


@attrs.frozen
class GameSettings:
    """What every game of a match shares (defaults: the match settings')."""

    game: str
    rules: Mapping[str, str]
    max_plies: int | None = DEFAULTS["max_plies"]
    #: seconds an engine gets to answer `stop` after its deadline
    grace: float = DEFAULTS["grace"]
    #: watchdog seconds for isready/new game and for moves without a time limit
    timeout: float = DEFAULTS["timeout"]
    event: str = DEFAULTS["event"]
    site: str = DEFAULTS["site"]
    #: asked after every played move whether to end the game (None: no adjudication)
    adjudicator: Adjudicator | None = None
    #: the match's run id, written in each record (`run:"..."` before the first move) so
    #: that resuming tells the match's records from another match's in the same file
    run: str = ""


@attrs.frozen
class GameResult:
    """A finished game."""

    pairing: Pairing
    outcome: Outcome
    termination: Termination
    #: engine indexes to restart before their next game
    restart: tuple[int, ...]
    record: GameRecord
    plies: int
    detail: str = ""
    #: the engine at fault (None when the rules or an adjudication ended the game)
    culprit: int | None = None
    #: each engine's move times
    timing: tuple[MoveTimes, ...] = ()


def forfeit_outcome(game: Game[Any], seat: int, reason: str) -> Outcome:
    """The outcome when `seat` is at fault: every other seat (the other team) wins."""
    players = game.players
    partners = game.partners(seat)
    winners = tuple(s for s in range(players) if s not in partners)
    code = f"{game.seat_name(seat)} forfeits"
    if players == 2:
        code = "0-1" if seat == 0 else "1-0"
    return Outcome(winners, code, reason)


def draw_outcome(game: Game[Any], reason: str) -> Outcome:
    seats = tuple(range(game.players))
    return Outcome(seats, "1/2-1/2" if game.players == 2 else "draw", reason)


def _score(result: PlayResult) -> tuple[str | None, int | None, str | None]:
    """(kind, value, bound) of the engine's last reported score, all None without one."""
    return score_words(result.info.score if result.info is not None else None)


def _comment(result: PlayResult) -> str:
    return info_comment(result.info, result.elapsed)


@attrs.frozen
class Player:
    """An engine of the match in one seat of a game: what it is and the seat that runs it."""

    spec: EngineSpec
    seat: EngineSeat
    #: the engine's index in the match
    engine: int


@attrs.define
class _Judgement:
    """How a game ended, as it is found out."""

    outcome: Outcome | None = None
    termination: Termination = Termination.NORMAL
    detail: str = ""
    culprit: int | None = None
    restart: set[int] = attrs.field(factory=set)

    def by_rules(self, game: Game[Any], settings: GameSettings, plies: int) -> bool:
        """True when the game is over by its rules or by the referee's (`plies` played
        since the start position, against --max-plies)."""
        self.outcome = game.result
        if self.outcome is not None:
            if self.outcome.reason in referee_rules(settings.game):
                self.termination = Termination.ADJUDICATED
            return True
        if settings.max_plies is not None and plies >= settings.max_plies:
            self.outcome = draw_outcome(game, "max plies")
            self.termination = Termination.ADJUDICATED
            return True
        return False

    def fault(self, game: Game[Any], seat: int, player: Player, fault: SeatFault) -> None:
        why = Termination.of_fault(fault.kind)
        self.forfeit(game, seat, player, why, str(fault.cause), fault.restart)

    def forfeit(
        self,
        game: Game[Any],
        seat: int,
        player: Player,
        why: Termination,
        detail: str,
        restart: bool,
    ) -> None:
        self.termination, self.detail, self.culprit = why, detail, player.engine
        if restart:
            self.restart.add(player.engine)
        self.outcome = forfeit_outcome(game, seat, why.value)


async def play_game(
    pairing: Pairing,
    players: Sequence[Player],
    settings: GameSettings,
    opening: Opening | None,
    start: Game[Any],
    publish: Publish | None = None,
) -> GameResult:
    """Play one game; `players[i]` is the engine in seat i, `start` the opening's position.

    The referee's `game` is the one true position: each answer comes checked from the
    seat (`answer.action` is legal) and is played as it is. `publish` receives the
    game's start, each move and each engine's last report.
    """
    game = start.copy()
    first_ply = game.ply
    clocks = [Clock(player.spec.control) for player in players]
    moves: list[MoveNote] = [
        MoveNote(text, None, seat)
        for text, seat in zip(game.history_text(), _seats_of_history(start), strict=False)
    ]
    date = datetime.datetime.now(datetime.UTC)
    judged = _Judgement()
    timing: dict[int, MoveTimes] = {}
    new = NewGame(settings.game, settings.rules, key=(pairing.index, date))
    names = [player.spec.name for player in players]
    judge = settings.adjudicator.new_game(names) if settings.adjudicator is not None else None
    if publish is not None:
        publish(game_started(pairing.index, pairing.label, game, names, _left(clocks)))

    await _prepare(game, players, new, judged)
    while judged.outcome is None and not judged.by_rules(game, settings, game.ply - first_ply):
        seat = game.turn
        answer = await _ask(game, players[seat], clocks, new, settings, judged)
        if answer is None:
            break
        game.play(answer.action)
        moves.append(MoveNote(game.format_action(answer.action), _comment(answer), seat))
        _clock_in(timing, players[seat].engine, answer)
        if publish is not None:
            _publish_move(publish, pairing.index, game, seat, answer, clocks)
        if judge is not None:  # in a thread: a tinue search must not hold up other games
            verdict = await trio.to_thread.run_sync(judge.after_move, game, seat, _score(answer))
            if verdict is not None:
                judged.outcome, judged.termination = verdict.outcome, Termination.ADJUDICATED
                judged.detail = verdict.comment

    assert judged.outcome is not None
    return GameResult(
        pairing=pairing,
        outcome=judged.outcome,
        termination=judged.termination,
        restart=tuple(sorted(judged.restart)),
        culprit=judged.culprit,
        timing=tuple(t for _, t in sorted(timing.items())),
        record=_record(pairing, players, settings, opening, start, game, moves, date, judged),
        plies=game.ply,
        detail=judged.detail,
    )


async def _prepare(
    game: Game[Any], players: Sequence[Player], new: NewGame, judged: _Judgement
) -> None:
    """Ready every seat for the new game; the first that fails forfeits it."""
    for seat, player in enumerate(players):
        try:
            await player.seat.prepare(new)
        except SeatFault as fault:
            judged.fault(game, seat, player, fault)
            return


async def _ask(
    game: Game[Any],
    player: Player,
    clocks: Sequence[Clock],
    new: NewGame,
    settings: GameSettings,
    judged: _Judgement,
) -> PlayResult | None:
    """The checked answer of the engine to move, punched on its clock; None when it
    forfeits (a seat fault, or an answer later than its clock allowed)."""
    seat = game.turn
    clock = clocks[seat]
    allowed_ms = clock.allowed_ms()
    window = allowed_ms / 1000 if allowed_ms is not None else settings.timeout
    try:
        answer = await player.seat.move(
            game,
            go_limits(clocks, seat),
            new,
            deadline=trio.current_time() + window,
            grace=settings.grace,
            timed=allowed_ms is not None,
        )
    except SeatFault as fault:
        judged.fault(game, seat, player, fault)
        return None
    # what an engine host said of its bot (`info string error: bot ...`), if anything
    said = "" if answer.failure is None else answer.failure.describe()
    if answer.failure is not None and answer.failure.kind != OVERRAN:
        # the host's stand-in for a bot that raised or returned a bad action; an overrun
        # is judged by the clock below, as for any engine
        why = f"engine {player.seat.label!r}: {said}"
        judged.forfeit(game, seat, player, Termination.BOT_ERROR, why, False)
        return None
    if not clock.punch(answer.elapsed * 1000):
        took = f"engine {player.seat.label!r} took {answer.elapsed:.3f} s, allowed {window:.3f} s"
        took += f" ({said})" if said else ""
        judged.forfeit(game, seat, player, Termination.TIME_FORFEIT, took, False)
        return None
    return answer


def _publish_move(
    publish: Publish,
    index: int,
    game: Game[Any],
    seat: int,
    answer: PlayResult,
    clocks: Sequence[Clock],
) -> None:
    """The engine's last report (when it sent one), then the move with both clocks."""
    if answer.info is not None:
        publish(engine_info(index, seat, answer.info))
    publish(move_played(index, game, seat, answer.elapsed * 1000, _left(clocks)))


def _record(
    pairing: Pairing,
    players: Sequence[Player],
    settings: GameSettings,
    opening: Opening | None,
    start: Game[Any],
    game: Game[Any],
    moves: list[MoveNote],
    date: datetime.datetime,
    judged: _Judgement,
) -> GameRecord:
    """The record of a finished game: tags, the moves with their comments, the result."""
    assert judged.outcome is not None
    tags: list[tuple[str, str]] = [
        ("Site", settings.site),
        ("Event", settings.event),
        ("Date", date.strftime("%Y.%m.%d")),
        ("Time", date.strftime("%H:%M:%S")),
        ("Round", str(pairing.index + 1)),
    ]
    tags += [(f"Player{i + 1}", player.spec.name) for i, player in enumerate(players)]
    tags += game.record_tags(game.validate_options(settings.rules))
    clocks_text = [player.spec.control.describe() for player in players]
    tags.append(
        ("Clock", clocks_text[0] if len(set(clocks_text)) == 1 else " / ".join(clocks_text))
    )
    if start.start_position:
        tags.append((game.position_tag, start.start_position))
    tags.append(("Result", judged.outcome.code))
    details = [
        ("round", str(pairing.round)),
        ("pair", str(pairing.group + 1)),
        ("termination", judged.termination.value),
    ]
    if opening is not None and opening.source:
        details.append(("book", opening.source))
    if settings.run:
        details.append(("run", settings.run))
    return GameRecord(
        game=settings.game,
        tags=tuple(tags),
        moves=tuple(labelled_notes(game, moves)),
        result=judged.outcome.code,
        start_position=start.start_position,
        seat_names=tuple(game.seat_name(s) for s in range(game.players)),
        # the detail quotes the engine (its stderr, its output): no control character
        note=f"{judged.termination}: {printable(judged.detail)}" if judged.detail else None,
        details=tuple(details),
    )


def _left(clocks: Sequence[Clock]) -> tuple[float | None, ...]:
    """Time left per seat in ms (None for a seat without a clock)."""
    return tuple(c.left_ms if c.control.base_ms is not None else None for c in clocks)


def _clock_in(timing: dict[int, MoveTimes], engine: int, answer: PlayResult) -> None:
    """Add a move to an engine's times, with the `info time` it reported last (if any)."""
    reported = next((i.time for i in reversed(answer.infos) if i.time is not None), None)
    times = timing.get(engine, MoveTimes(engine))
    timing[engine] = times.add(answer.elapsed * 1000, reported)


def _seats_of_history(game: Game[Any]) -> list[int]:
    """The seat that played each action of a game's history (replayed on a copy)."""
    replay = game.copy()
    seats: list[int] = []
    while replay.ply:
        replay.undo()
        seats.append(replay.turn)
    return seats[::-1]
