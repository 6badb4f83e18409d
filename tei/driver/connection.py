"""The engine connection, sans-IO: lines from the engine in, typed events out, and the
messages to send for each thing a caller wants.

    conn = EngineConnection("tiltak")
    send(conn.handshake())                 # "tei"
    for line in engine_lines:
        event = conn.receive(line)         # Handshaken, Ready, SearchInfo, SearchEnded, ...
    for message in conn.new_game_messages("tak", {"size": "6"}):
        send(message); conn.sent(message)

States: `handshake` until `teiok`; then `idle`, `searching` (a `go` is unanswered) or
`stopping` (`stop` was sent for it). A `bestmove` while no search runs is a `Violation`.
Every message written to the engine goes through `sent()`, so the state follows raw
lines as well as typed messages. The connection also keeps the new-game generation and
one `ToldGame` (the game's TEI settings, the caller's key) of the last `teinewgame`, set when that
message is sent: `needs_new_game` is one comparison with it (see docs/driver.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from rules.game import Game, GameError, IllegalAction
from tei.driver.engine_options import (
    OptionRefused,
    declared_games,
    declared_refusal,
    find_option,
    initial_value,
    normalize_value,
    plan_new_game,
    tei_settings,
)
from tei.driver.errors import IllegalMove, MalformedMove
from tei.driver.limits import Limits
from tei.game_rules import TeiSettings
from tei.protocol import (
    BestMove,
    EngineMessage,
    Go,
    GuiMessage,
    Id,
    Info,
    OptionDecl,
    Position,
    ProtocolError,
    ReadyOk,
    SetOption,
    SizeDecl,
    Stop,
    TeiNewGame,
    TeiOk,
    parse_engine_line,
    parse_gui_line,
)

HANDSHAKE = "handshake"
IDLE = "idle"
SEARCHING = "searching"
STOPPING = "stopping"


@attrs.frozen
class Event:
    """One line from the engine: the line, its message (None: it did not parse), and a
    note worth logging (skipped `info` fields, a malformed line)."""

    line: str
    message: EngineMessage | None
    note: str | None = attrs.field(default=None, kw_only=True)


@attrs.frozen
class Handshaken(Event):
    """`teiok`: the handshake is over."""


@attrs.frozen
class Ready(Event):
    """`readyok`."""


@attrs.frozen
class SearchInfo(Event):
    """An `info` line; `current` is False when it belongs to an abandoned search."""

    current: bool = True


@attrs.frozen
class SearchEnded(Event):
    """A `bestmove` ending a search; `current` is False when it ends an abandoned one.
    `bestmove` is None (and `why` says why) when the line did not parse."""

    bestmove: BestMove | None = None
    current: bool = True
    why: str = ""


@attrs.frozen
class Violation(Event):
    """A line that breaks the protocol in this state, e.g. a `bestmove` while no search
    runs; `why` says what is wrong."""

    why: str = ""


@attrs.frozen
class Other(Event):
    """Anything else: `id`, `option`, `size` (recorded by the connection), unknown lines."""


def build_go(limits: Limits, seat: int, players: int) -> tuple[Go, list[str]]:
    """The `go` for these limits, as the engine needs it, and what had to be clamped.

    Every field is clamped (`GoLimits.clamped`: times to 0..MAX_TIME_MS, `depth`,
    `nodes` and `movestogo` to 1..MAX_COUNT); with more than two seats the acting seat's
    clock goes in both wtime and btime (and its increment in winc and binc). Fields the
    caller did not set are not sent; a Limits with no field at all becomes
    `go infinite` (a bare `go` crashes some engines).
    """
    clamped, notes = limits.clamped()
    go = Go(**clamped.limit_values())
    if players > 2 and (go.wtime, go.btime, go.winc, go.binc) != (None, None, None, None):
        own, inc = go.clock(seat)
        go = attrs.evolve(go, wtime=own, btime=own, winc=inc or 0, binc=inc or 0)
    if go == Go():
        return Go(infinite=True), notes
    return go, notes


def is_open_ended(go: Go) -> bool:
    """True when only `stop` ends this search."""
    bounded = (go.wtime, go.btime, go.movetime, go.depth, go.nodes)
    return go.infinite or all(v is None for v in bounded)


def check_bestmove(engine: str, game: Game[Any], line: str) -> tuple[Any, str]:
    """The action of a `bestmove` line in `game` and its text, parsed and checked for
    legality once; MalformedMove or IllegalMove (naming `engine` and quoting the line)."""
    try:
        best = parse_engine_line(line)
    except ProtocolError:
        best = None
    if not isinstance(best, BestMove):
        raise MalformedMove(engine, line, "no move on the bestmove line")
    if best.move is None:
        raise IllegalMove(engine, line, "no move given but the game is not over")
    try:
        action = game.parse_action(best.move)
    except IllegalAction as exc:
        raise IllegalMove(engine, line, str(exc)) from None
    except GameError as exc:
        raise MalformedMove(engine, line, str(exc)) from None
    if action not in game.legal():
        raise IllegalMove(engine, line, "not among the legal actions")
    return action, best.move


@attrs.frozen
class ToldGame:
    """What tells one new game from the next: the game's `TeiSettings` (what the engine
    is told of its rules) and the caller's key (a game number, an id; None: the same game
    until the rules change, as python-chess's `game` argument)."""

    settings: TeiSettings
    key: object = None


class EngineConnection:
    """The protocol state of one engine, fed line by line (no I/O)."""

    def __init__(self, name: str = "engine") -> None:
        self.name = name
        self.id_name: str | None = None
        self.id_author: str | None = None
        self.id_version: str | None = None
        #: declared options by declared name
        self.options: dict[str, OptionDecl] = {}
        #: TEI v1 `size ... halfkomi ...` declaration, if the engine sent one
        self.sizes: SizeDecl | None = None
        #: every line up to `teiok`, and the problems noticed (once per skipped info word)
        self.handshake_lines: list[str] = []
        self.problems: list[str] = []
        #: how many `teinewgame` were sent
        self.generation = 0
        self._handshaken = False
        self._skipped_words: set[str] = set()
        self._values: dict[str, str | None] = {}
        self._searches = 0
        self._stop_sent = False
        #: the new game the engine was last told (set when its `teinewgame` is sent)
        self.told: ToldGame | None = None
        self._planned: ToldGame | None = None

    # ---- state -------------------------------------------------------------------------
    @property
    def state(self) -> str:
        """`handshake`, `idle`, `searching` or `stopping`."""
        if not self._handshaken:
            return HANDSHAKE
        if self._searches == 0:
            return IDLE
        return STOPPING if self._stop_sent else SEARCHING

    @property
    def searching(self) -> bool:
        """True while a `go` has not been answered with `bestmove`."""
        return self._searches > 0

    @property
    def games(self) -> frozenset[str]:
        """Games the engine plays: the values of its `Game` combo, else {"tak"}."""
        return declared_games(self.options)

    # ---- lines in ----------------------------------------------------------------------
    def receive(self, line: str) -> Event:
        """The event of one line from the engine (state and declarations updated)."""
        if not self._handshaken:
            self.handshake_lines.append(line)
        try:
            message: EngineMessage | None = parse_engine_line(line)
        except ProtocolError as exc:
            self.problems.append(f"{exc}")
            if line.split()[:1] == ["bestmove"]:
                return self._bestmove(line, None, str(exc))
            return Other(line, None, note=str(exc))
        if isinstance(message, Info):
            note = self._skipped(line, message.skipped) if message.skipped else None
            return SearchInfo(line, message, self._searches == 1, note=note)
        if isinstance(message, BestMove):
            return self._bestmove(line, message, "")
        if isinstance(message, ReadyOk):
            return Ready(line, message)
        if isinstance(message, TeiOk) and not self._handshaken:
            self._handshaken = True
            return Handshaken(line, message)
        if isinstance(message, Id):
            self._id(message)
        elif isinstance(message, OptionDecl):
            self._declare(message)
        elif isinstance(message, SizeDecl):
            self._declare_sizes(message)
        return Other(line, message)

    def _bestmove(self, line: str, best: BestMove | None, why: str) -> Event:
        if self._searches == 0:
            return Violation(line, best, why="bestmove while no search runs")
        self._searches -= 1
        if self._searches == 0:
            self._stop_sent = False
        return SearchEnded(line, best, best, self._searches == 0, why)

    def _skipped(self, line: str, skipped: tuple[str, ...]) -> str | None:
        """Unknown or malformed info fields are skipped; each new word is noted once."""
        words = [w for w in skipped if not w.lstrip("-").isdigit()]
        new = [w for w in dict.fromkeys(words) if w not in self._skipped_words]
        if not new:
            return None
        self._skipped_words.update(new)
        text = f"info: skipped {', '.join(map(repr, new))} in {line!r}"
        self.problems.append(text)
        return text

    def _id(self, message: Id) -> None:
        key = message.key.lower()
        if key == "name":
            self.id_name = message.value
        elif key == "author":
            self.id_author = message.value
        elif key == "version":
            self.id_version = message.value

    def _declare(self, decl: OptionDecl) -> None:
        if decl.name not in self.options:
            self._values[decl.name] = initial_value(decl)
        self.options[decl.name] = decl

    def _declare_sizes(self, decl: SizeDecl) -> None:
        if self.sizes is None:
            self.sizes = decl
        else:
            self.sizes = SizeDecl(
                tuple(sorted({*self.sizes.sizes, *decl.sizes})),
                tuple(sorted({*self.sizes.halfkomis, *decl.halfkomis})),
            )

    # ---- lines out ---------------------------------------------------------------------
    def handshake(self) -> str:
        return "tei"

    def sent(self, message: GuiMessage | str) -> None:
        """Record a message (or raw line) written to the engine."""
        if isinstance(message, str):
            words = message.split()
            if not words or words[0] not in ("go", "stop", "setoption", "teinewgame"):
                return
            try:
                message = parse_gui_line(message)
            except ProtocolError:
                return
        if isinstance(message, Go):
            self._searches += 1
            self._stop_sent = False
        elif isinstance(message, Stop):
            self._stop_sent = self._searches > 0
        elif isinstance(message, SetOption):
            decl = find_option(self.options, message.name)
            if decl is not None and message.value is not None:
                self._values[decl.name] = message.value
        elif isinstance(message, TeiNewGame):
            self.generation += 1
            self.told, self._planned = self._planned, None

    # ---- options -----------------------------------------------------------------------
    def option(self, name: str) -> OptionDecl | None:
        """The declared option called `name` (case-insensitive), or None."""
        return find_option(self.options, name)

    def value(self, name: str) -> str | None:
        """The value an option has now (declared default or last value sent); KeyError for
        an undeclared option."""
        decl = find_option(self.options, name)
        if decl is None:
            raise KeyError(name)
        return self._values.get(decl.name)

    def option_refusal(self, name: str, value: str) -> str | None:
        """Why `name=value` cannot be set (undeclared, or a value its declaration does not
        allow), or None when it can."""
        decl = find_option(self.options, name)
        if decl is None:
            known = ", ".join(self.options) or "none"
            return f"option {name!r}: not declared by the engine (declared: {known})"
        try:
            normalize_value(decl, value)
        except OptionRefused as exc:
            return str(exc)
        return None

    def setoption_messages(self, values: Mapping[str, str]) -> list[SetOption]:
        """`setoption` for each value that differs from the current one; OptionRefused
        (before anything is planned) for an undeclared option or a value not allowed."""
        plan: list[SetOption] = []
        for name, value in values.items():
            decl = find_option(self.options, name)
            if decl is None:
                raise OptionRefused(name, "not declared by the engine")
            text = normalize_value(decl, value)
            if text is not None and self._values.get(decl.name) == text:
                continue
            plan.append(SetOption(decl.name, text))
        return plan

    # ---- games -------------------------------------------------------------------------
    def refusal(self, game: str, rules: Mapping[str, str]) -> str | None:
        """Why this engine cannot play `game` under `rules`, or None when it can."""
        return declared_refusal(game, rules, self.options, self.sizes)

    def settings_for(
        self, game: Game[Any] | str, rules: Mapping[str, str] | None = None
    ) -> TeiSettings:
        """What the engine is told of a new game of `game` (a `Game` or a game's name):
        under `rules` (rules options) if given, else under those last told for the same
        game, else under the board size of a `Game` (a caller that gave no rules at all).
        OptionRefused for an unknown game or a bad rules option."""
        name = game if isinstance(game, str) else game.name
        if rules is not None:
            return tei_settings(name, rules)
        told = self.told
        if told is not None and told.settings.game == name.strip().lower():
            return told.settings
        if isinstance(game, str):
            return tei_settings(name, {})
        return TeiSettings.of_game(game)

    def new_game_messages(self, told: TeiSettings, game_key: object = None) -> list[GuiMessage]:
        """`Game` (always, if declared), changed rules options, `teinewgame`; OptionRefused
        before anything is planned when the engine cannot play these rules. `game_key`
        (a game number, an id) tells this game from the next one of the same rules."""
        plan = plan_new_game(told, self.options, self.sizes)
        settings = dict(plan.settings)
        messages: list[GuiMessage] = []
        game_decl = find_option(self.options, "Game")
        if game_decl is not None:
            # always selected, even when it seems unchanged: the game is the one thing a
            # multi-game engine must never guess
            messages.append(SetOption(game_decl.name, settings.pop(game_decl.name)))
        messages += self.setoption_messages(settings)
        messages.append(plan.teinewgame)
        # not told until the `teinewgame` is sent: a failed send leaves no false belief
        self.told, self._planned = None, ToldGame(told, game_key)
        return messages

    def needs_new_game(
        self,
        game: Game[Any] | str,
        rules: Mapping[str, str] | None = None,
        game_key: object = None,
    ) -> bool:
        """True when `game` (a `Game` or a game's name) under `rules` (None: see
        `settings_for`) with the caller's `game_key` needs a `teinewgame`: it is not the
        new game the engine was last told (also for rules that cannot be told: the new
        game refuses them)."""
        try:
            told = self.settings_for(game, rules)
        except OptionRefused:
            return True
        return not self.was_told(told, game_key)

    def was_told(self, told: TeiSettings, game_key: object = None) -> bool:
        """Whether the last `teinewgame` sent was for these settings and this key."""
        return ToldGame(told, game_key) == self.told

    # ---- searches ----------------------------------------------------------------------
    def search_messages(self, game: Game[Any], limits: Limits) -> tuple[Position, Go, list[str]]:
        """`position` and `go` for a search of `game`, and notes on clamped limits."""
        go, notes = build_go(limits, game.turn, game.players)
        return Position(game.start_position, tuple(game.history_text())), go, notes

    def stop_message(self) -> Stop | None:
        """`stop` when a search runs that was not told to stop yet."""
        return Stop() if self.state == SEARCHING else None

    def check_bestmove(self, game: Game[Any], line: str) -> tuple[Any, str]:
        """The checked action of a `bestmove` line (see `check_bestmove`)."""
        return check_bestmove(self.name, game, line)
