"""What the referee shows and saves, each a rendering of the match summary
(adapters.referee.summary): the final tables, the machine-readable summary (`--json`) and
the standings events; and on the terminal a line per finished game (a status line on a
terminal)."""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from adapters.referee.facts import Termination
from adapters.referee.progress import MatchProgress
from adapters.referee.stats import format_elo
from adapters.referee.summary import (
    Interval,
    Line,
    MatchSummary,
    PairLine,
    Table,
    summarize,
)
from adapters.stream.events import (
    Event,
    GameOver,
    GameStarted,
    MatchStarted,
    MatchStopping,
    SprtStatus,
    StandingRow,
    Standings,
)
from bots import compiled

# ---- text --------------------------------------------------------------------------------


def standings_table(rows: Sequence[Line], title: str, elo: bool = False) -> list[str]:
    """Rows of a standings table; with `elo`, each row's Elo against the field."""
    width = max([len(title), *(len(r.name) for r in rows)])
    head = (
        f"{'#':>2} {title:<{width}} {'games':>5} {'points':>7} {'score':>6}"
        f" {'wins':>5} {'shared':>6} {'losses':>6}"
    )
    lines = [head + ("  Elo vs field (95%)" if elo else "")]
    for rank, r in enumerate(rows, 1):
        line = (
            f"{rank:>2} {r.name:<{width}} {r.games:>5} {r.points:>7.2f}"
            f" {r.score * 100:>5.1f}% {r.wins:>5} {r.draws:>6} {r.losses:>6}"
        )
        lines.append(line + (f"  {format_elo(r.elo)}" if elo else ""))
    return lines


def pair_line(pair: PairLine) -> str:
    penta = ", ".join(str(c) for c in pair.penta)
    return (
        f"{pair.a} vs {pair.b}: games {pair.games}, W-L-D {pair.wins}-{pair.losses}-{pair.draws},"
        f" score {pair.score * 100:.1f}%, Elo {format_elo(pair.elo_estimate)} (95%),"
        f" LOS {pair.los * 100:.1f}%, draws {pair.draw_ratio * 100:.1f}%,"
        f" Ptnml(0-2) [{penta}]"
    )


def _counts(counts: Mapping[str, int] | Mapping[Termination, int]) -> str:
    return ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))


def summary_text(summary: MatchSummary) -> str:
    """The tables printed at the end of a match."""
    t = summary.table
    lines = [f"Games: {t.done} of {t.total} ({t.status_text})"]
    lines += standings_table(t.standings, "engine", elo=summary.two_seats)
    if summary.team_game:
        lines.append("")
        lines += standings_table(summary.teams, "team")
    if summary.pairs:
        lines.append("")
        lines += [pair_line(p) for p in summary.pairs]
    s = t.sprt
    if s is not None and summary.pairs:
        lines.append(
            f"SPRT elo0={s.elo0:g} elo1={s.elo1:g} alpha={s.alpha:g} beta={s.beta:g}"
            f" ({s.model}): LLR {s.llr:.3f} [{s.lower:.3f}, {s.upper:.3f}]"
            f" -> {s.decision or 'continue'}"
        )
    if summary.terminations:
        lines.append("Terminations: " + _counts(summary.terminations))
    if summary.adjudications:
        lines.append("Adjudications: " + _counts(summary.adjudications))
    for e in summary.timing:
        latency = f", latency {e.latency_ms:.1f} ms" if e.latency_ms is not None else ""
        lines.append(
            f"Time of {e.name}: {e.moves} moves, average {e.average_ms:.1f} ms,"
            f" longest {e.max_ms:.1f} ms{latency}"
        )
    for name, by_kind in summary.faults.items():
        lines.append(f"Faults of {name}: {_counts(by_kind)}")
    lines.append(f"Build (this install and its built-in bots): {compiled.describe()}")
    return "\n".join(lines)


def final_report(progress: MatchProgress) -> str:
    """The tables printed at the end of a match."""
    return summary_text(summarize(progress))


# ---- JSON --------------------------------------------------------------------------------


def _finite(x: float) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, 2)


def _elo_json(interval: Interval | None) -> dict[str, float | None] | None:
    if interval is None:
        return None
    return {"elo": _finite(interval[0]), "low": _finite(interval[1]), "high": _finite(interval[2])}


def _standing_json(r: Line) -> dict[str, Any]:
    return {
        "who": list(r.names),
        "games": r.games,
        "points": r.points,
        "score": round(r.score, 4),
        "wins": r.wins,
        "shared": r.draws,
        "losses": r.losses,
        "adjudicated": dict(r.adjudicated),
    }


def _pair_json(p: PairLine) -> dict[str, Any]:
    return {
        "engines": [p.a, p.b],
        "games": p.games,
        "wins": p.wins,
        "losses": p.losses,
        "draws": p.draws,
        "score": round(p.score, 4),
        "elo": _elo_json(p.elo),
        "elo_pentanomial": _elo_json(p.elo_penta),
        "los": round(p.los, 4),
        "draw_ratio": round(p.draw_ratio, 4),
        "pentanomial": list(p.penta),
    }


def summary_data(summary: MatchSummary) -> dict[str, Any]:
    """The machine-readable summary (`--json`)."""
    t = summary.table
    data: dict[str, Any] = {
        "game": summary.game,
        "rules": dict(summary.rules),
        "engines": [
            {"name": e.name, "command": list(e.command), "clock": e.clock} for e in summary.engines
        ],
        "status": t.status_text,
        "games_total": t.total,
        "games_done": t.done,
        "standings": [_standing_json(r) for r in t.standings],
        "teams": [_standing_json(r) for r in summary.teams],
        "pairs": [_pair_json(p) for p in summary.pairs],
        "restarts": dict(summary.restarts),
        "faults": {
            name: {k.value: n for k, n in by_kind.items()}
            for name, by_kind in summary.faults.items()
        },
        "adjudications": dict(summary.adjudications),
        "timing": {
            e.name: {
                "moves": e.moves,
                "average_ms": e.average_ms,
                "max_ms": e.max_ms,
                "latency_ms": e.latency_ms,
            }
            for e in summary.timing
        },
        "results": [
            {
                "index": g.index,
                "players": list(g.players),
                "result": g.result,
                "winners": list(g.winners),
                "termination": g.termination.value,
                "reason": g.reason,
                "plies": g.plies,
                "detail": g.detail,
                "culprit": g.culprit,
            }
            for g in summary.results
        ],
    }
    s = t.sprt
    if s is not None:
        data["sprt"] = {
            "elo0": s.elo0,
            "elo1": s.elo1,
            "alpha": s.alpha,
            "beta": s.beta,
            "model": s.model,
            "llr": round(s.llr, 4),
            "lower": round(s.lower, 4),
            "upper": round(s.upper, 4),
            "decision": s.decision,
        }
    return data


def summary_json(progress: MatchProgress) -> dict[str, Any]:
    """The machine-readable summary of a match now."""
    return summary_data(summarize(progress))


def write_json(path: str | Path, progress: MatchProgress) -> None:
    Path(path).write_text(json.dumps(summary_json(progress), indent=2) + "\n", encoding="utf-8")


# ---- stream ------------------------------------------------------------------------------


def standing_row(line: Line) -> StandingRow:
    """A standings line as the stream carries it (bounds None when unknown or infinite)."""
    elo, low, high = line.elo if line.elo is not None else (math.inf,) * 3
    return StandingRow(
        line.name,
        line.games,
        line.points,
        line.wins,
        line.draws,
        line.losses,
        _finite(elo),
        _finite(low),
        _finite(high),
        format_elo(line.elo),
    )


def standings_event(t: Table) -> Standings:
    """The standings event of a match's table."""
    s = t.sprt
    sprt = None if s is None else SprtStatus(s.elo0, s.elo1, s.lower, s.upper, s.llr, s.decision)
    rows = tuple(standing_row(r) for r in t.standings)
    return Standings(rows, t.done, t.total, t.status_text, sprt)


# ---- the terminal ------------------------------------------------------------------------


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
                normal = ended.termination == Termination.NORMAL
                why = ended.reason if normal else ended.termination
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
