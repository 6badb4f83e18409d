"""What the referee shows and saves: a line per finished game (a status line on a
terminal), the final standings table, and the machine-readable summary (`--json`)."""

from __future__ import annotations

import itertools
import json
import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from adapters.referee.config import seats_per_game, team_game
from adapters.referee.game_loop import ADJUDICATED
from adapters.referee.runner import MatchProgress
from adapters.referee.stats import (
    FIELD,
    PairStats,
    Standing,
    format_elo,
    pair_stats,
    standings,
    team_standings,
)
from adapters.stream.events import (
    Event,
    GameOver,
    GameStarted,
    MatchStarted,
    MatchStopping,
    Standings,
)
from bots import compiled


def _names(progress: MatchProgress, who: tuple[int, ...]) -> str:
    return "+".join(progress.config.engines[i].name for i in who)


def pairs(progress: MatchProgress) -> list[PairStats]:
    """Head-to-head numbers of every pair of engines that met."""
    scores = progress.scores()
    out = []
    for a, b in itertools.combinations(range(len(progress.config.engines)), 2):
        stats = pair_stats(scores, a, b)
        if stats.games:
            out.append(stats)
    return out


def standings_table(
    rows: list[Standing], progress: MatchProgress, title: str, elo: bool = False
) -> list[str]:
    """Rows of a standings table; with `elo`, each row's Elo against the field (two-seat
    games only), by the same method as a pair's line (`PairStats.elo_estimate`)."""
    width = max([len(title), *(len(_names(progress, r.who)) for r in rows)])
    head = (
        f"{'#':>2} {title:<{width}} {'games':>5} {'points':>7} {'score':>6}"
        f" {'wins':>5} {'shared':>6} {'losses':>6}"
    )
    lines = [head + ("  Elo vs field (95%)" if elo else "")]
    for rank, r in enumerate(rows, 1):
        line = (
            f"{rank:>2} {_names(progress, r.who):<{width}} {r.games:>5} {r.points:>7.2f}"
            f" {r.score * 100:>5.1f}% {r.wins:>5} {r.draws:>6} {r.losses:>6}"
        )
        if elo:
            field = pair_stats(progress.scores(), r.who[0], FIELD)
            line += f"  {format_elo(field.elo_estimate())}"
        lines.append(line)
    return lines


def pair_line(progress: MatchProgress, stats: PairStats) -> str:
    a, b = _names(progress, (stats.a,)), _names(progress, (stats.b,))
    elo = stats.elo_estimate()
    penta = ", ".join(str(c) for c in stats.penta)
    return (
        f"{a} vs {b}: games {stats.games}, W-L-D {stats.wins}-{stats.losses}-{stats.draws},"
        f" score {stats.score * 100:.1f}%, Elo {format_elo(elo)} (95%),"
        f" LOS {stats.los * 100:.1f}%, draws {stats.draw_ratio * 100:.1f}%,"
        f" Ptnml(0-2) [{penta}]"
    )


def final_report(progress: MatchProgress) -> str:
    """The tables printed at the end of a match."""
    config = progress.config
    done = len(progress.finished)
    lines = [f"Games: {done} of {progress.total} ({progress.status})"]
    two_seats = seats_per_game(config) == 2
    lines += standings_table(
        standings(progress.scores(), len(config.engines)), progress, "engine", elo=two_seats
    )
    if team_game(config):
        lines.append("")
        lines += standings_table(team_standings(progress.scores()), progress, "team")
    pair_stats_list = pairs(progress)
    if pair_stats_list:
        lines.append("")
        lines += [pair_line(progress, s) for s in pair_stats_list]
    sprt = config.sprt
    if sprt is not None and pair_stats_list:
        first = pair_stats(progress.scores(), 0, 1)
        counts = sprt.counts(first)
        lines.append(
            f"SPRT elo0={sprt.elo0:g} elo1={sprt.elo1:g} alpha={sprt.alpha:g} beta={sprt.beta:g}"
            f" ({sprt.model}): LLR {sprt.llr(counts):.3f} [{sprt.lower:.3f}, {sprt.upper:.3f}]"
            f" -> {sprt.decide(counts) or 'continue'}"
        )
    terminations: dict[str, int] = {}
    for game in progress.finished.values():
        terminations[game.termination] = terminations.get(game.termination, 0) + 1
    if terminations:
        lines.append(
            "Terminations: " + ", ".join(f"{k} {v}" for k, v in sorted(terminations.items()))
        )
    counted = adjudications(progress)
    if counted:
        lines.append("Adjudications: " + ", ".join(f"{k} {v}" for k, v in sorted(counted.items())))
    for name, t in timings(progress).items():
        latency = f", latency {t['latency_ms']:.1f} ms" if t["latency_ms"] is not None else ""
        lines.append(
            f"Time of {name}: {t['moves']} moves, average {t['average_ms']:.1f} ms,"
            f" longest {t['max_ms']:.1f} ms{latency}"
        )
    for name, by_kind in faults(progress).items():
        listed = ", ".join(f"{k} {v}" for k, v in sorted(by_kind.items()))
        lines.append(f"Faults of {name}: {listed}")
    lines.append(f"Build (this install and its built-in bots): {compiled.describe()}")
    return "\n".join(lines)


def timings(progress: MatchProgress) -> dict[str, dict[str, Any]]:
    """Per engine name: moves, average and longest move time as the referee measured it,
    and the average latency (measured minus reported `info time`) when it reported times."""
    sums: dict[int, list[float]] = {}
    for game in progress.finished.values():
        for engine, moves, total, longest, reported, latency in game.timing:
            s = sums.setdefault(engine, [0, 0.0, 0.0, 0, 0.0])
            s[0] += moves
            s[1] += total
            s[2] = max(s[2], longest)
            s[3] += reported
            s[4] += latency
    out: dict[str, dict[str, Any]] = {}
    for engine, s in sorted(sums.items()):
        if s[0]:
            out[progress.config.engines[engine].name] = {
                "moves": int(s[0]),
                "average_ms": round(s[1] / s[0], 3),
                "max_ms": round(s[2], 3),
                "latency_ms": round(s[4] / s[3], 3) if s[3] else None,
            }
    return out


def adjudications(progress: MatchProgress, engine: int | None = None) -> dict[str, int]:
    """Adjudicated games per rule (`max plies`, `repetition`, `rule50`, `resign`, `draw`,
    `tinue`), of one engine when `engine` is given."""
    out: dict[str, int] = {}
    for game in progress.finished.values():
        if game.termination == ADJUDICATED and (engine is None or engine in game.seats):
            out[game.reason] = out.get(game.reason, 0) + 1
    return out


def faults(progress: MatchProgress) -> dict[str, dict[str, int]]:
    """Per engine name: how many games it lost by each fault."""
    out: dict[str, dict[str, int]] = {}
    for game in progress.finished.values():
        if game.culprit is not None:
            name = progress.config.engines[game.culprit].name
            counts = out.setdefault(name, {})
            counts[game.termination] = counts.get(game.termination, 0) + 1
    return out


def _elo_json(interval: tuple[float, float, float] | None) -> dict[str, float | None] | None:
    if interval is None:
        return None

    def clean(x: float) -> float | None:
        return None if math.isinf(x) or math.isnan(x) else round(x, 2)

    return {"elo": clean(interval[0]), "low": clean(interval[1]), "high": clean(interval[2])}


def summary_json(progress: MatchProgress) -> dict[str, Any]:
    """The machine-readable summary."""
    config = progress.config
    scores = progress.scores()

    def standing(r: Standing) -> dict[str, Any]:
        return {
            "who": [config.engines[i].name for i in r.who],
            "games": r.games,
            "points": r.points,
            "score": round(r.score, 4),
            "wins": r.wins,
            "shared": r.draws,
            "losses": r.losses,
            "adjudicated": adjudications(progress, r.who[0]) if len(r.who) == 1 else {},
        }

    data: dict[str, Any] = {
        "game": config.game,
        "rules": dict(config.rules),
        "engines": [
            {"name": e.name, "command": list(e.argv), "clock": e.control.describe()}
            for e in config.engines
        ],
        "status": progress.status,
        "games_total": progress.total,
        "games_done": len(progress.finished),
        "standings": [standing(r) for r in standings(scores, len(config.engines))],
        "teams": [standing(r) for r in team_standings(scores)],
        "pairs": [
            {
                "engines": [config.engines[s.a].name, config.engines[s.b].name],
                "games": s.games,
                "wins": s.wins,
                "losses": s.losses,
                "draws": s.draws,
                "score": round(s.score, 4),
                "elo": _elo_json(s.elo()),
                "elo_pentanomial": _elo_json(s.elo_penta()),
                "los": round(s.los, 4),
                "draw_ratio": round(s.draw_ratio, 4),
                "pentanomial": list(s.penta),
            }
            for s in pairs(progress)
        ],
        "restarts": {config.engines[i].name: n for i, n in progress.restarts.items()},
        "faults": faults(progress),
        "adjudications": adjudications(progress),
        "timing": timings(progress),
        "results": [
            {
                "index": g.index,
                "players": [config.engines[i].name for i in g.seats],
                "result": g.code,
                "winners": list(g.winners),
                "termination": g.termination,
                "reason": g.reason,
                "plies": g.plies,
                "detail": g.detail,
                "culprit": None if g.culprit is None else config.engines[g.culprit].name,
            }
            for _, g in sorted(progress.finished.items())
        ],
    }
    if config.sprt is not None:
        first = pair_stats(scores, 0, 1)
        counts = config.sprt.counts(first)
        data["sprt"] = {
            "elo0": config.sprt.elo0,
            "elo1": config.sprt.elo1,
            "alpha": config.sprt.alpha,
            "beta": config.sprt.beta,
            "model": config.sprt.model,
            "llr": round(config.sprt.llr(counts), 4),
            "lower": round(config.sprt.lower, 4),
            "upper": round(config.sprt.upper, 4),
            "decision": config.sprt.decide(counts),
        }
    return data


def write_json(path: str | Path, progress: MatchProgress) -> None:
    Path(path).write_text(json.dumps(summary_json(progress), indent=2) + "\n", encoding="utf-8")


def _duration(seconds: float) -> str:
    """`0:42`, `12:03`, `1:02:03`."""
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def table_short(table: Standings) -> str:
    """`A 2.5/4  B 1.5/4` from a standings event."""
    return "  ".join(f"{r.name} {r.points:g}/{r.games}" for r in table.rows)


def progress_text(table: Standings, elapsed: float, done_here: int, running: int) -> str:
    """`3/10 done, running 2, 0:42 elapsed, ~1:38 left, LLR 0.52 [-2.94, 2.94]`.

    The time left extrapolates the games finished in this run (`done_here`), so a resumed
    match is not credited with the games of an earlier run."""
    left = table.total - table.done
    parts = [f"{table.done}/{table.total} done", f"running {running}"]
    parts.append(f"{_duration(elapsed)} elapsed")
    if done_here > 0 and left > 0:
        parts.append(f"~{_duration(elapsed / done_here * left)} left")
    if table.sprt is not None:
        s = table.sprt
        parts.append(f"LLR {s.llr:.2f} [{s.lower:.2f}, {s.upper:.2f}]")
    return ", ".join(parts)


#: what the terminal says when a match stops taking games (`MatchStopping.how`)
STOPPING = {
    "draining": "Interrupted: finishing the running games (Ctrl-C again to stop now)",
    "stopping": "Stopping now; unfinished games are not recorded",
    "sprt": "SPRT decided ({status}): finishing the running games",
}


class ConsoleReporter:
    """Prints progress: one line per finished game, and a progress line (games done, time
    elapsed and left, LLR) refreshed in place on a terminal or added to each game's line
    elsewhere. Everything comes as events of the match (`on_event`, a bus subscriber).
    """

    def __init__(
        self, stream: TextIO, *, quiet: bool = False, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.stream = stream
        self.quiet = quiet
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.clock = clock
        self._status_shown = False
        self._began = clock()
        self._first_done: int | None = None
        self._running: set[int] = set()
        self._ended: GameOver | None = None
        self._table: Standings | None = None

    def _print(self, text: str) -> None:
        if self._status_shown:
            self.stream.write("\r\x1b[K")
            self._status_shown = False
        self.stream.write(text + "\n")
        self.stream.flush()

    def _progress(self) -> str:
        table = self._table
        if table is None:
            return ""
        first = table.done if self._first_done is None else self._first_done
        elapsed = self.clock() - self._began
        return progress_text(table, elapsed, table.done - first, len(self._running))

    def _status(self) -> None:
        if not self.tty or self._table is None:
            return
        self.stream.write(f"\r\x1b[K[{self._progress()}] | {table_short(self._table)}")
        self.stream.flush()
        self._status_shown = True

    def on_event(self, event: Event) -> None:
        """Follow the match's events (subscribe this to the event bus): the one way in."""
        if isinstance(event, MatchStarted):
            if not self.quiet:
                names = " vs ".join(event.players)
                self._print(f"Match: {names}, {event.game_name}, {event.to_play} games to play")
            self._began = self.clock()
        elif isinstance(event, MatchStopping):
            self._print(STOPPING[event.how].format(status=event.status))
        elif isinstance(event, GameStarted):
            self._running.add(event.game)
            self._status()
        elif isinstance(event, GameOver):
            self._running.discard(event.game)
            self._ended = event
        elif isinstance(event, Standings):
            if self._first_done is None:
                self._first_done = event.done
            self._table = event
            ended, self._ended = self._ended, None
            if ended is not None and not self.quiet:
                why = ended.reason if ended.termination == "normal" else ended.termination
                line = (
                    f"[{event.done}/{event.total}] game {ended.game + 1}: "
                    f"{' vs '.join(ended.players)}: {ended.result} ({why}, {ended.plies} plies)"
                    f" | {table_short(event)}"
                )
                self._print(line if self.tty else f"{line} | {self._progress()}")
            self._status()

    def close(self) -> None:
        if self._status_shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._status_shown = False
