"""The engine host as a sans-IO state machine.

`HostState` takes what happens (a line from the GUI, a report or a result from the bot's
worker, the passing of time) and answers with effects for the I/O loop to carry out:
`Send` a line, `StartSearch` in a worker, `StopSearch` (set the bot's stop flag), `Exit`.
It never blocks, never reads a clock (times come in as `now`, seconds) and never raises
on input: every bad line becomes an `info string error: ...` line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from bots import base
from bots.base import Bot
from rules.game import Game, GameError
from rules.registry import game_class
from tei import protocol as p
from tei.bot_failure import FAILED, OVERRAN, BotFailure
from tei.errors import OptionValueError
from tei.game_rules import rules_from_tei, v1_komi_option, v1_sizes
from tei.host.declared_options import HostOption
from tei.host.effects import Effect, Exit, Log, Send, StartSearch, StopSearch, cut, send_info
from tei.host.effects import send_error as _error
from tei.host.reports import bad_action, checked_info, exception_text
from tei.host.search import Search, Waiting
from tei.host.setup import HostConfig, HostSetupError, host_setup
from tei.host.timing import STOP_GAP_MS, limits_of, search_deadlines
from tei.lines import quote

__all__ = [
    "AUTHOR",
    "Effect",
    "Exit",
    "HostConfig",
    "HostSetupError",
    "HostState",
    "Log",
    "Send",
    "StartSearch",
    "StopSearch",
]

AUTHOR = "the tei-host authors"
#: half-komi values announced in TEI v1 `size` lines (the ones playtak uses)
V1_HALFKOMIS = tuple(range(9))


class HostState:
    """One TEI session of the engine host (see the module docstring)."""

    def __init__(
        self,
        config: HostConfig,
        *,
        game_factory: Callable[[str], type[Game[Any]]] = game_class,
        bot_factory: Callable[[str, str], Bot] | None = None,
    ) -> None:
        self.config = config
        self._game_class = game_factory
        setup = host_setup(config, game_factory, bot_factory)
        self.bots: dict[str, Bot] = setup.bots
        #: the command line's rules options for config.game, validated
        self.rules: dict[str, str] = setup.rules
        self.options: list[HostOption] = setup.options
        #: TEI name (lower case) -> the rules option it sets
        self.rule_specs = setup.rule_specs
        self.values: dict[str, str] = {o.name.lower(): o.decl.default or "" for o in self.options}
        self.size: int | None = None
        self.game: Game[Any] | None = None
        self._position_key: tuple[Any, ...] | None = None
        self.search: Search | None = None
        #: the `go`s sent while a search ran, oldest first: each gets its one `bestmove`
        #: in turn (the running search's comes first)
        self.waiting: list[Waiting] = []
        #: input has ended: exit as soon as no search is running
        self.exiting = False
        self._next_id = 0

    # ---- queries -------------------------------------------------------------------------
    @property
    def game_name(self) -> str:
        return self.values.get("game", self.config.game)

    @property
    def bot(self) -> Bot:
        return self.bots[self.game_name]

    def next_deadline(self) -> float | None:
        """When `on_time` must next be called (monotonic seconds), if ever."""
        s = self.search
        if s is None:
            return None
        times = [t for t in (None if s.stopped else s.soft, s.hard) if t is not None]
        return min(times) if times else None

    def rules_options(self) -> dict[str, str]:
        """The rules options of the selected game, from the command line and TEI."""
        game = self.game_name
        base = self.rules if game == self.config.game else {}
        return rules_from_tei(self._game_class(game), self.size, self.values, base)

    # ---- events --------------------------------------------------------------------------
    def on_line(self, line: str, now: float) -> list[Effect]:
        """A line from the GUI."""
        try:
            message = p.parse_gui_line(line)
        except p.ProtocolError as exc:
            if line.lower().split(maxsplit=1)[:1] != ["go"]:
                return [_error(str(exc))]
            # a malformed go (`go nodes 1e309`) still gets its one bestmove, in turn
            if self.search is None:
                return [_error(str(exc)), Send("bestmove --")]
            self.waiting.append(Waiting(None, None, self.bot))
            return [_error(f"{exc} (answered with bestmove -- in turn)")]
        match message:
            case p.Unknown(line=""):
                return []
            case p.Unknown(line=text):
                return [_error(f"unknown command {quote(text.split()[0])}")]
            case p.Tei():
                return self._handshake()
            case p.IsReady():
                return [Send(p.ReadyOk().to_line())]
            case p.SetOption(name=name, value=value):
                return self._setoption(name, value)
            case p.TeiNewGame():
                return self._newgame(message)
            case p.Position(position=position, moves=moves):
                return self._position(position, moves)
            case p.Go():
                return self._go_line(message, now)
            case p.Stop():
                return self._stop(now)
            case p.Quit():
                out: list[Effect] = []
                if self.search is not None:
                    out.append(StopSearch(self.search.id))
                    self.search = None
                self.waiting.clear()
                return [*out, Exit()]
        return []  # pragma: no cover - every message type is matched above

    def on_eof(self, now: float = 0.0) -> list[Effect]:
        """stdin closed: exit once the running search is answered (as `echo ... | tei
        engine` expects). A timed search runs to its deadline; any other is stopped."""
        self.exiting = True
        s = self.search
        if s is None:
            return [Exit()]
        if s.answer is None and s.soft is None:
            return self._stop_search(now)
        if s.answer is not None:
            return self._answer(s.answer, now)
        return []

    def on_info(self, search_id: int, info: base.Info, now: float) -> list[Effect]:
        """A progress report of the bot's search."""
        s = self.search
        if s is None or s.id != search_id or s.answer is not None:
            return []
        info, dropped = checked_info(info)
        problems: list[Effect] = [_error(f"bot report: {note}; dropped") for note in dropped]
        if info.pv:
            s.last_pv = info.pv[0]
        out: list[Effect] = self._past_limit(s, info, now)
        elapsed = max(0, round((now - s.started) * 1000))
        score: p.Score | None = None
        if info.score_cp is not None:
            score = p.Score("cp", info.score_cp)
        elif info.solved is not None:
            score = p.Score("solved", None, info.solved)
        numbers = any(v is not None for v in (info.depth, info.nodes, info.score_cp, info.solved))
        time_ms = info.time_ms if info.time_ms is not None else elapsed
        nps = info.nps
        if nps is None and info.nodes is not None and time_ms > 0:
            nps = info.nodes * 1000 // time_ms
        line = p.Info(
            depth=info.depth,
            seldepth=info.seldepth,
            score=score,
            nodes=info.nodes,
            nps=nps,
            time=time_ms if numbers or info.pv else None,
            pv=info.pv,
            string=info.string,
        ).to_line()
        return [*problems, Send(line), *out] if line != "info" else [*problems, *out]

    def _past_limit(self, s: Search, info: base.Info, now: float) -> list[Effect]:
        """A report showing the `go depth`/`go nodes` limit reached: the bot should answer
        now; stop it, and answer for it if it still has not after `limit_grace`."""
        if s.stopped or s.held:
            return []
        reached = (s.depth is not None and info.depth is not None and info.depth >= s.depth) or (
            s.nodes is not None and info.nodes is not None and info.nodes >= s.nodes
        )
        if not reached:
            return []
        s.stopped = True
        deadline = now + self.config.limit_grace
        s.hard = deadline if s.hard is None else min(s.hard, deadline)
        return [StopSearch(s.id)]

    def on_result(
        self, search_id: int, action: Any, error: BaseException | None, now: float
    ) -> list[Effect]:
        """The bot's think returned `action` (or raised `error`)."""
        s = self.search
        if s is None or s.id != search_id or s.answer is not None:
            return []
        if error is not None:
            summary, trace = exception_text(error)
            return self._failed(BotFailure(FAILED, cut(summary)), trace, now)
        why = bad_action(s.root, action)
        if why is not None:
            return self._failed(BotFailure(FAILED, cut(why)), why, now)
        text = s.root.format_action(action)
        if s.held and not s.stopped:  # go infinite: bestmove only after stop
            s.answer = text
            return []
        return self._answer(text, now)

    def on_time(self, now: float) -> list[Effect]:
        """Time passed: stop a search at its soft deadline, answer for it at the hard one."""
        s = self.search
        if s is None:
            return []
        out: list[Effect] = []
        if not s.stopped and s.soft is not None and now >= s.soft:
            s.stopped = True
            out.append(StopSearch(s.id))
            # a depth/nodes search's cap is now a `stop`; woken late, the bot still gets its gap
            answer_by = now + (self.config.stop_grace if s.hard is None else STOP_GAP_MS / 1000)
            s.hard = answer_by if s.hard is None else max(s.hard, answer_by)
        if s.hard is not None and now >= s.hard:
            late = f"no answer {round((now - s.started) * 1000)} ms after go"
            if s.stopped:
                late += ", nor in time after the stop flag was set"
            out += self._failed(BotFailure(OVERRAN, late), late, now)
        return out

    # ---- commands ------------------------------------------------------------------------
    def _handshake(self) -> list[Effect]:
        out: list[Effect] = [
            Send(p.Id("name", f"{self.config.name} {self.bot.name}").to_line()),
            Send(p.Id("author", AUTHOR).to_line()),
        ]
        if self.config.version:
            out.append(Send(p.Id("version", self.config.version).to_line()))
        for option in self.options:
            decl = option.decl
            if decl.type != "button":
                decl = attrs.evolve(decl, default=self.values[option.name.lower()])
            out.append(Send(decl.to_line()))
        v1 = self._v1_game()
        if self.config.tei_v1 and v1 is not None:
            out.append(Send(p.SizeDecl(v1_sizes(v1), V1_HALFKOMIS).to_line()))
        return [*out, Send(p.TeiOk().to_line())]

    def _v1_game(self) -> type[Game[Any]] | None:
        """The registered game served that TEI v1 speaks of (Tak), if any."""
        for game in self.bots:
            try:
                cls = game_class(game)
            except (GameError, ImportError):
                continue
            if v1_komi_option(cls) is not None:
                return cls
        return None

    def _find_option(self, name: str) -> HostOption | None:
        return next((o for o in self.options if o.name.lower() == name.strip().lower()), None)

    def _setoption(self, name: str, value: str | None) -> list[Effect]:
        try:
            self.set_option(name, value)
        except OptionValueError as exc:
            return [_error(str(exc))]
        return []

    def set_option(self, name: str, value: str | None) -> None:
        """Set an option as `setoption` does; OptionValueError says why it cannot be."""
        option = self._find_option(name)
        if option is None:
            raise OptionValueError(name, "is unknown", f"unknown option {quote(name)}")
        checked = option.check(value)
        key = option.name.lower()
        self.values[key] = checked
        if key == "game":
            self.game = None
            self._position_key = None
        elif key not in self.rule_specs:
            for bot in self.bots.values():
                if any(o.name.lower() == key for o in bot.options):
                    try:
                        bot.set_option(option.name, checked)
                    except Exception as exc:
                        why = f"is rejected by the bot: {exc}"
                        raise OptionValueError(option.name, why) from None

    def _v1_komi(self) -> HostOption | None:
        """The option `teinewgame ... halfkomi K` sets (TEI v1)."""
        v1 = self._v1_game()
        if v1 is None:
            return None
        name = v1_komi_option(v1)
        return self._find_option(name) if name is not None else None

    def _newgame(self, message: p.TeiNewGame) -> list[Effect]:
        if message.size is not None:
            self.size = message.size
        if message.halfkomi is not None:
            komi = self._v1_komi()
            if komi is None:
                return [_error("teinewgame halfkomi: no game served has komi")]
            try:
                self.values[komi.name.lower()] = komi.check(str(message.halfkomi))
            except OptionValueError as exc:
                return [_error(f"teinewgame: {exc}")]
        self.game = None
        self._position_key = None
        try:
            self.bot.new_game()
        except Exception as exc:
            return [_error(f"bot failed to start a new game: {exc}")]
        try:
            self._game_class(self.game_name).new(self.rules_options())
        except Exception as exc:
            return [_error(f"teinewgame: {exc}")]
        return []

    def _position(self, position: str | None, moves: tuple[str, ...]) -> list[Effect]:
        options = self.rules_options()
        key = (self.game_name, tuple(sorted(options.items())), position)
        old = self._position_key
        if (
            self.game is not None
            and old is not None
            and old[:3] == key
            and moves[: len(old[3])] == old[3]
        ):
            game, todo = self.game, moves[len(old[3]) :]
        else:
            self.game = None
            self._position_key = None
            try:
                cls = self._game_class(self.game_name)
                if position is None:
                    game = cls.new(options)
                else:
                    # the position string itself fixes the board and the seats
                    for spec in cls.option_specs():
                        if spec.in_position:
                            options.pop(spec.name, None)
                    game = cls.from_position_string(position, options)
            except Exception as exc:
                return [_error(f"position: {exc}")]
            todo = moves
        done = len(moves) - len(todo)
        for index, move in enumerate(todo, start=done + 1):
            try:
                game.play_text(move)
            except Exception as exc:
                self.game = None
                self._position_key = None
                return [_error(f"position: move {index} {quote(move, 24)}: {exc}")]
        self.game = game
        self._position_key = (*key, moves)
        return []

    def _go_line(self, go: p.Go, now: float) -> list[Effect]:
        """A `go` from the GUI: searched at once when no search runs, else it waits its
        turn with its position. Only a `go` after a `stop` is searched then (GUIs send
        `stop`, `position`, `go` in one breath); one while the search before it runs
        unstopped is refused with an error line and answered `bestmove --` in turn."""
        if self.search is None:
            return self._go(go, now, self.game, self.bot)
        last = next((w for w in reversed(self.waiting) if w.go is not None), None)
        if not (self.search.stopped if last is None else last.stopped):
            self.waiting.append(Waiting(None, None, self.bot))
            return [_error("go while a search is running; send stop first (bestmove -- in turn)")]
        game = self.game.copy() if self.game is not None else None
        self.waiting.append(Waiting(go, game, self.bot))
        return []

    def _go(
        self, go: p.Go, now: float, game: Game[Any] | None, bot: Bot, stopped: bool = False
    ) -> list[Effect]:
        """Start a search of `game` by `bot` (or answer at once when there is nothing to
        search); `stopped`: a `stop` came for it already."""
        out: list[Effect] = []
        if go.skipped:
            skipped = quote(" ".join(go.skipped))
            out.append(send_info(f"ignored go words: {skipped}"))
        go, clamped = go.clamped()
        out += [send_info(f"go: {note}") for note in clamped]
        if game is None:
            return [*out, _error("go without a valid position"), Send("bestmove --")]
        try:
            result = game.result
        except Exception as exc:
            return [*out, _error(f"go: {exc}"), Send("bestmove --")]
        if result is not None:
            return [*out, _error(f"go: the game is over ({result.code})"), Send("bestmove --")]
        seat = game.turn
        limits = limits_of(go, seat)
        soft, hard = search_deadlines(limits, seat, self.config.overrun_grace_ms)
        held = limits.infinite or (soft is None and limits.depth is None and limits.nodes is None)
        if soft is None and not held and self.config.limit_cap is not None:
            soft = self.config.limit_cap
        if held and not limits.infinite:
            limits = attrs.evolve(limits, infinite=True)
        self._next_id += 1
        self.search = Search(
            id=self._next_id,
            root=game.copy(),
            started=now,
            soft=None if soft is None else now + soft,
            hard=None if hard is None else now + hard,
            held=held,
            bot_name=bot.name,
            depth=limits.depth,
            nodes=limits.nodes,
        )
        out.append(StartSearch(self._next_id, bot, game.copy(), limits))
        if stopped or (self.exiting and self.search.soft is None):
            out += self._stop_search(now)
        return out

    def _stop(self, now: float) -> list[Effect]:
        """`stop`: for the running search and every `go` waiting its turn."""
        self.waiting = [attrs.evolve(w, stopped=True) for w in self.waiting]
        return self._stop_search(now)

    def _stop_search(self, now: float) -> list[Effect]:
        s = self.search
        if s is None:
            return []
        if s.answer is not None:
            return self._answer(s.answer, now)
        out: list[Effect] = []
        if not s.stopped:
            s.stopped = True
            out.append(StopSearch(s.id))
        deadline = now + self.config.stop_grace
        s.hard = deadline if s.hard is None else min(s.hard, deadline)
        return out

    # ---- answers -------------------------------------------------------------------------
    def _answer(self, text: str | None, now: float) -> list[Effect]:
        s = self.search
        self.search = None
        out: list[Effect] = []
        if s is not None and not s.stopped:
            out.append(StopSearch(s.id))
        out.append(Send(p.BestMove(text).to_line()))
        while self.search is None and self.waiting:
            w = self.waiting.pop(0)
            if w.go is None:
                out.append(Send("bestmove --"))
            else:
                out += self._go(w.go, now, w.game, w.bot, w.stopped)
        if self.exiting and self.search is None:
            out.append(Exit())
        return out

    def _failed(self, failure: BotFailure, log: str, now: float) -> list[Effect]:
        """The bot failed (`failure`, `log` the traceback or the bad value): say so on the
        log and to the GUI, then exit with status 1 (`strict`) or answer for it."""
        s = self.search
        assert s is not None
        try:
            where = f" on {quote(s.root.position_string(), 200)}"
        except Exception:
            where = ""
        head = f"bot {s.bot_name!r} failed{where}"
        out: list[Effect] = [
            Log(f"{head}:\n{log}" if "\n" in log else f"{head}: {log}"),
            send_info(failure.to_string()),
        ]
        if self.config.strict:
            self.search = None
            self.waiting.clear()
            return [*out, StopSearch(s.id), Exit(1)]
        return [*out, *self._fallback(now)]

    def _fallback(self, now: float) -> list[Effect]:
        """Answer for a bot that failed or overran: its last pv move if legal, else the
        first legal action. During `go infinite` the answer still waits for `stop`."""
        s = self.search
        assert s is not None
        text = s.stand_in()
        if s.held and not s.stopped and text is not None:
            s.answer = text
            return []
        return self._answer(text, now)
