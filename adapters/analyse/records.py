"""Game records to analyse, read without I/O: every game of a file (PTN for Tak, the
referee's records for Trike and Traxit), where each action is written, and its positions.

A record that cannot be replayed is a `RecordError` naming its game number and line; the
other games are read all the same. The text of the file is never changed here: the
writer (`adapters.analyse.writer`) inserts marks and comments at the offsets found.
"""

from __future__ import annotations

import contextlib
from typing import Any

import attrs

from adapters.referee.openings import RecordText, move_spans, read_records
from rules.game import Game, GameError, Options
from rules.registry import game_class
from rules.tak.ptn import PtnGame


class AnalyseError(ValueError):
    """An analysis that cannot be done as asked (the message names the input)."""


class RecordError(AnalyseError):
    """A record that cannot be analysed: its game number, the line and why."""

    def __init__(self, number: int, line: int, why: str) -> None:
        super().__init__(f"game {number} (line {line}): {why}")
        self.number = number
        self.line = line
        self.why = why


@attrs.frozen
class GameText:
    """One game of the file: its number (from 1), first line, tags, rules options, start
    position, actions (canonical texts) and the offsets of each action's word in the file
    (with its move number and marks)."""

    number: int
    line: int
    tags: dict[str, str]
    rules: dict[str, str]
    start: str | None
    actions: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    #: the result the record gives (its result token or `Result` tag), if any
    result: str | None = None

    def player(self, seat: int) -> str:
        """The player's name from its `Player1`, `Player2`, ... tag (else `Player N`)."""
        wanted = f"player{seat + 1}"
        for key, value in self.tags.items():
            if key.lower() == wanted and value:
                return value
        return f"Player {seat + 1}"


def _line_offsets(text: str) -> list[int]:
    """The offset where each line begins (index 0 = line 1), and the text's end."""
    offsets = [0]
    for line in text.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


def line_of(offsets: list[int], offset: int) -> int:
    """The 1-based line holding `offset`."""
    low, high = 0, len(offsets) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if offsets[middle] <= offset:
            low = middle
        else:
            high = middle - 1
    return low + 1


def _tag(tags: dict[str, str], *names: str) -> str | None:
    for key, value in tags.items():
        if key.lower() in names and value:
            return value
    return None


def record_rules(game: str, tags: dict[str, str], rules: Options) -> dict[str, str]:
    """The rules options of a record: `rules` (from the command line), then the tags that
    set them (Tak: the PTN reader's Size, Komi, Flats, Caps; the others: a tag named like
    a rules option, e.g. `Size`, `Players`)."""
    out = {str(key): str(value) for key, value in rules.items()}
    if game == "tak":
        out.update(PtnGame(tags=dict(tags)).options())
        return out
    for spec in game_class(game).option_specs():
        value = _tag(tags, spec.name.lower())
        if value is not None:
            out[spec.name] = value
    return out


def start_game(game: str, rules: dict[str, str], start: str | None) -> Game[Any]:
    """A game at its start: the standard one or the record's start position."""
    cls = game_class(game)
    return cls.from_position_string(start, rules) if start else cls.new(rules)


def _game_text(
    game: str, rules: Options, text: str, offsets: list[int], number: int, record: RecordText
) -> GameText:
    body_start = offsets[min(record.body_line, len(offsets)) - 1]
    body_end = offsets[min(record.end_line, len(offsets)) - 1]
    try:
        wanted = record_rules(game, record.tags, rules)
        start = _tag(record.tags, "tps", "position")
        state = start_game(game, wanted, start)
    except GameError as exc:
        raise RecordError(number, record.line, str(exc)) from None
    actions, spans = [], []
    for begin, end, word in move_spans(text[body_start:body_end]):
        where = (body_start + begin, body_start + end)
        try:
            actions.append(state.format_action(state.play_text(word)))
        except GameError as exc:
            line = line_of(offsets, where[0])
            raise RecordError(number, line, f"ply {len(actions) + 1} ({word}): {exc}") from None
        spans.append(where)
    if not actions:
        raise RecordError(number, record.line, "no moves")
    result = _tag(record.tags, "result")
    if game == "tak":  # the PTN reader knows the result token too
        with contextlib.suppress(GameError):
            result = PtnGame.parse(text[offsets[record.line - 1] : body_end]).result or result
    return GameText(
        number, record.line, dict(record.tags), wanted, start, tuple(actions), tuple(spans), result
    )


def read_games(text: str, game: str, rules: Options | None = None) -> list[GameText | RecordError]:
    """Every game of a record file, in file order: a `GameText`, or the `RecordError` of a
    record that cannot be replayed."""
    offsets = _line_offsets(text)
    out: list[GameText | RecordError] = []
    for number, record in enumerate(read_records(text), 1):
        try:
            out.append(_game_text(game, rules or {}, text, offsets, number, record))
        except RecordError as exc:
            out.append(exc)
    return out


def positions(game: str, record: GameText) -> list[Game[Any]]:
    """The positions of a game: before each action, and the last one (copies)."""
    state = start_game(game, record.rules, record.start)
    out = [state.copy()]
    for action in record.actions:
        state.play_text(action)
        out.append(state.copy())
    return out
