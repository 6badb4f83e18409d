"""TraxitGame: the Game interface over immutable Traxit states."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

from rules.game import Game, GameError, IllegalAction, Options, Outcome, PositionError
from rules.traxit.actions import Action
from rules.traxit.notation import format_position, parse_position
from rules.traxit.options import OPTION_SPECS, check_options, layout_from_options
from rules.traxit.render import render
from rules.traxit.state import (
    END,
    PLACE,
    Layout,
    State,
    actor,
    apply,
    apply_unchecked,
    legal,
    start_state,
)
from rules.traxit.svg import traxit_svg


def outcome(layout: Layout, st: State) -> Outcome | None:
    """Winners by total points (teams: summed), `R 250 - G 175` style code."""
    if st.phase != END:
        return None
    scores = st.scores
    n = layout.players
    if layout.teams:
        totals = [scores[0] + scores[2], scores[1] + scores[3]]
        best = max(totals)
        winners = tuple(s for s in range(n) if totals[s % 2] == best)
        names = [layout.owners[0] + layout.owners[2], layout.owners[1] + layout.owners[3]]
        code = " - ".join(f"{name} {t}" for name, t in zip(names, totals, strict=True))
    else:
        best = max(scores)
        winners = tuple(s for s in range(n) if scores[s] == best)
        code = " - ".join(f"{layout.owners[s]} {scores[s]}" for s in range(n))
    return Outcome(winners, code, "score", tuple(float(s) for s in scores))


class TraxitGame(Game[Action]):
    """Traxit for 2-4 players: setup placements, tile choices, moves, TRAXIT relocations."""

    name = "traxit"
    record_format: ClassVar[str] = "turns"
    option_table = OPTION_SPECS

    @classmethod
    def validate_options(cls, options: Mapping[str, Any] | None) -> dict[str, str]:
        """As `Game.validate_options`; `teams` implies players=4."""
        return check_options(options)

    def __init__(self, layout: Layout, state: State, start_position: str | None = None) -> None:
        self.layout = layout
        self._states: list[State] = [state]
        self._history: list[Action] = []
        self.start_position = start_position

    # ---- construction -------------------------------------------------------------
    @classmethod
    def new(cls, options: Options | None = None) -> Self:
        layout, paths = layout_from_options(options)
        return cls(layout, start_state(layout, paths))

    @classmethod
    def from_position_string(cls, text: str, options: Options | None = None) -> Self:
        opts = check_options(options)
        layout, state = parse_position(text, opts)
        if "players" in opts and int(opts["players"]) != layout.players:
            raise PositionError(
                f"TraxitPS {text!r}: {layout.players} seats, but option players={opts['players']}"
            )
        return cls(layout, state, format_position(layout, state))

    def copy(self) -> Self:
        twin = type(self)(self.layout, self._states[0], self.start_position)
        twin._states = list(self._states)
        twin._history = list(self._history)
        return twin

    # ---- state -------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The current immutable position (bots search on it directly)."""
        return self._states[-1]

    @property
    def players(self) -> int:
        return self.layout.players

    @property
    def turn(self) -> int:
        return actor(self.layout, self._states[-1])

    @property
    def result(self) -> Outcome | None:
        return outcome(self.layout, self._states[-1])

    @property
    def history(self) -> Sequence[Action]:
        return self._history

    def position_string(self) -> str:
        return format_position(self.layout, self._states[-1])

    def hash_key(self) -> int:
        return hash(self._states[-1])

    def seat_name(self, seat: int) -> str:
        return self.layout.owners[seat]

    def partners(self, seat: int) -> tuple[int, ...]:
        if self.layout.teams and self.players == 4:
            return tuple(s for s in range(4) if s % 2 == seat % 2)
        return (seat,)

    def turn_labels(self) -> list[tuple[str, str]]:
        """`1.1 R` (set.round and owner; `R` in setup) per action, and after the action
        that ends a set the running totals (`set 1: R 75 G 100`, teams' sums too)."""
        replay = self.copy()
        while replay.ply:
            replay.undo()
        out = []
        for action in self._history:
            before = replay.state
            owner = replay.seat_name(before.mover)
            label = owner if before.phase == PLACE else f"{before.set_no}.{before.round_no} {owner}"
            replay.play(action)
            after = ""
            now = replay.state
            if now.set_no != before.set_no or (now.phase == END and before.phase != END):
                names = [replay.seat_name(s) for s in range(replay.players)]
                totals = " ".join(f"{n} {v}" for n, v in zip(names, now.scores, strict=True))
                after = f"set {before.set_no}: {totals}"
                if self.layout.teams:
                    a, b = now.scores[0] + now.scores[2], now.scores[1] + now.scores[3]
                    after += f"; teams {names[0]}+{names[2]} {a} {names[1]}+{names[3]} {b}"
            out.append((label, after))
        return out

    def render(self) -> str:
        return render(self.layout, self._states[-1])

    def render_svg(self, last: bool = True) -> str:
        result = self.result
        note = result.code if result is not None else ""
        action = self._history[-1] if last and self._history else None
        return traxit_svg(self.layout, self._states[-1], action, note)

    # ---- actions -----------------------------------------------------------------------
    def legal(self) -> list[Action]:
        return legal(self.layout, self._states[-1])

    def play(self, action: Action) -> None:
        if not isinstance(action, Action):
            raise IllegalAction(f"{action!r} is not a Traxit action")
        self._states.append(apply(self.layout, self._states[-1], action))
        self._history.append(action)

    def undo(self) -> Action:
        if not self._history:
            raise GameError("nothing to undo: at the start position")
        self._states.pop()
        return self._history.pop()

    def parse_action(self, text: str) -> Action:
        action = Action.parse(text)
        apply(self.layout, self._states[-1], action)  # raises IllegalAction with the reason
        return action

    def format_action(self, action: Action) -> str:
        return str(action)

    # ---- perft -------------------------------------------------------------------------
    def perft(self, depth: int) -> int:
        """Leaf count, walking immutable states (no play/undo bookkeeping)."""
        return _perft(self.layout, self._states[-1], depth)


def _perft(layout: Layout, st: State, depth: int) -> int:
    if depth <= 0:
        return 1
    if st.phase == END:
        return 0
    actions = legal(layout, st)
    if depth == 1:
        return len(actions)
    return sum(_perft(layout, apply_unchecked(layout, st, a), depth - 1) for a in actions)
