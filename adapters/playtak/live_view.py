"""The playtak bot's games as live-view events (`tei playtak --live`).

A plain subscriber of the bridge's state: the bridge hands it every output of `feed`,
and it publishes the live view's ones (`ShowGame`, `ShowMove`, `ShowEnd`) as the
referee's typed events (see adapters.stream.events): a game start (or a rebuilt game),
each move, a game's end with its record, and a standings line of the bot's results in
this run.
"""

from __future__ import annotations

from collections.abc import Callable

from adapters.playtak import bridge_events as ev
from adapters.playtak.live_game import BLACK_WINS, WHITE_WINS, LiveGame, ptn_record
from adapters.referee.report import standing_row
from adapters.referee.stats import GameScore
from adapters.referee.summary import player_line
from adapters.stream.announce import engine_info, game_over, game_started, move_played
from adapters.stream.events import Event, Standings
from tei.protocol import Info


class BridgeWatch:
    """Publishes the bridge's games; `name` is the bot's account once logged in."""

    def __init__(self, publish: Callable[[Event], None], site: str, games: int | None) -> None:
        self.publish = publish
        self.site = site
        self.games = games
        self.name = ""
        #: (our seat, result) of every game finished in this run
        self.results: list[tuple[int, str]] = []

    def __call__(self, output: ev.Output) -> None:
        """Publish what an output of the bridge's state shows (the others are not ours)."""
        match output:
            case ev.ShowGame():
                self.started(output.live, output.name)
            case ev.ShowMove():
                self.moved(output.live, output.seat, output.info)
            case ev.ShowEnd():
                self.finished(output.live, output.result)
            case _:
                pass

    def started(self, live: LiveGame, name: str = "") -> None:
        """A game starts (or is rebuilt: a replay after a reconnect) for the bot `name`."""
        self.name = name or self.name
        start = live.start
        players = (start.white, start.black)
        clocks = (float(live.clocks[0]), float(live.clocks[1]))
        title = (
            f"game {start.game_id} on {self.site}: {start.white} (white) vs"
            f" {start.black} (black), {start.size}x{start.size}; we play {start.color}"
        )
        label = str(start.game_id)
        self.publish(game_started(start.game_id, label, live.game, players, clocks, title))
        if not self.results:
            self._standings()

    def moved(
        self, live: LiveGame, seat: int, info: Info | None = None, elapsed_ms: float = 0.0
    ) -> None:
        """After a move of `seat` (with our engine's last info when it was ours)."""
        game_id = live.start.game_id
        if info is not None:
            self.publish(engine_info(game_id, seat, info))
        clocks = (float(live.clocks[0]), float(live.clocks[1]))
        self.publish(move_played(game_id, live.game, seat, elapsed_ms, clocks))

    def finished(self, live: LiveGame, result: str) -> None:
        start = live.start
        termination = "normal" if result != "*" else "unfinished"
        reason = live.game.result.reason if live.game.result is not None else result
        self.publish(
            game_over(
                start.game_id,
                "tak",
                result,
                termination,
                reason,
                live.game.ply,
                ptn_record(live, result, self.site),
                (start.white, start.black),
                str(start.game_id),
            )
        )
        self.results.append((live.seat, result))
        self._standings()

    def _standings(self) -> None:
        """The bot's line of this run's results, as the referee renders its standings."""
        scores = [s for s in (_score(seat, r) for seat, r in self.results) if s is not None]
        line = player_line(self.name or "bot", scores, len(self.results) - len(scores))
        done = len(self.results)
        total = self.games if self.games is not None else done
        self.publish(Standings((standing_row(line),), done, total, "playing"))


def _score(seat: int, result: str) -> GameScore | None:
    """A server result of the bot (engine 0) in `seat` (0 white); None when unfinished."""
    if result in WHITE_WINS:
        winners: tuple[int, ...] = (0,)
    elif result in BLACK_WINS:
        winners = (1,)
    elif result == "1/2-1/2":
        winners = (0, 1)
    else:
        return None
    return GameScore((0, 1) if seat == 0 else (1, 0), winners)
