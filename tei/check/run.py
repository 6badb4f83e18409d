"""TEI compliance check: a scripted session against an engine, one verdict per check.

    results = trio.run(run_checks, ["tiltak"])         # or check_engine(...) from trio code

Each check sends what a GUI sends and judges what comes back (see docs/check.md). A check
that fails leaves the engine in an unknown state, so the next check starts a fresh engine
process; that way one flaw does not hide the others. Positions and legality come from the
game's rules core (`rules.registry`), so the same checks serve Tak, Trike and Traxit.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import attrs

from tei.bot_failure import BotFailure
from tei.check.checks import CHECKS, FATAL, Check
from tei.check.probe import CheckFailed, Probe, parse, pv_problems
from tei.driver import Engine, EngineError, open_engine
from tei.protocol import Info, Unknown
from tei.transcript import FROM_ENGINE, Transcript, TranscriptEntry

__all__ = [
    "CHECKS",
    "SESSION_CHECKS",
    "Check",
    "CheckResult",
    "check_engine",
    "check_names",
    "run_checks",
]

#: the info keys whose values the codec checks; a skipped one had a malformed value
_INFO_KEYS = frozenset(
    {"depth", "seldepth", "time", "nodes", "nps", "hashfull", "score", "wdl", "multipv"}
)


@attrs.frozen
class CheckResult:
    """One verdict: the check's name, pass/fail, what was seen, and for a failure the
    transcript lines around it."""

    name: str
    passed: bool
    detail: str
    excerpt: tuple[str, ...] = ()
    #: not run because the caller asked so (counts as passed)
    skipped: bool = False

    @property
    def status(self) -> str:
        """`pass`, `fail` or `skip`."""
        return "skip" if self.skipped else "pass" if self.passed else "fail"

    def to_line(self) -> str:
        return f"{self.status.upper()}  {self.name}: {self.detail}"

    def to_json(self) -> dict[str, object]:
        """The result as a JSON-ready mapping (name, status, detail, excerpt)."""
        return {
            "name": self.name,
            "status": self.status,
            "detail": self.detail,
            "excerpt": list(self.excerpt),
        }


#: checks judged on the whole session's output at the end
SESSION_CHECKS = ("info lines parse", "pv moves legal", "only TEI lines on stdout")


def _excerpt(entries: Sequence[TranscriptEntry], lines: int = 14) -> tuple[str, ...]:
    """The last `lines` entries as text (their control characters escaped)."""
    return tuple(e.to_line() for e in list(entries)[-lines:])


#: the pv lines seen, for the session check that plays them out
_Pvs = list[tuple[Any, str, tuple[str, ...]]]


def _session_checks(entries: Sequence[TranscriptEntry], pvs: _Pvs) -> list[CheckResult]:
    infos: list[TranscriptEntry] = []
    bad_infos: list[tuple[TranscriptEntry, str]] = []
    stray: list[TranscriptEntry] = []
    for entry in entries:
        if entry.direction != FROM_ENGINE:
            continue
        message = parse(entry.line)
        if isinstance(message, Info):
            infos.append(entry)
            broken = [w for w in message.skipped if w in _INFO_KEYS]
            if broken:
                bad_infos.append((entry, f"malformed {', '.join(broken)}"))
        elif isinstance(message, Unknown) and entry.line.strip():
            stray.append(entry)
    results = []
    if bad_infos:
        detail = f"{len(bad_infos)} of {len(infos)} info lines malformed, first: {bad_infos[0][1]}"
        results.append(
            CheckResult(SESSION_CHECKS[0], False, detail, _excerpt([e for e, _ in bad_infos], 5))
        )
    else:
        results.append(CheckResult(SESSION_CHECKS[0], True, f"{len(infos)} info lines parsed"))
    wrong = pv_problems(pvs)
    if wrong:
        detail = f"{len(wrong)} of {len(pvs)} pv lines not playable, first: {wrong[0]}"
        results.append(CheckResult(SESSION_CHECKS[1], False, detail, tuple(wrong[:5])))
    else:
        results.append(CheckResult(SESSION_CHECKS[1], True, f"{len(pvs)} pv lines played out"))
    if stray:
        detail = f"{len(stray)} line(s) that are no TEI message, first: {stray[0].line!r}"
        results.append(CheckResult(SESSION_CHECKS[2], False, detail, _excerpt(stray, 5)))
    else:
        results.append(CheckResult(SESSION_CHECKS[2], True, "every line is a TEI message"))
    return results


def bot_failures(entries: Sequence[TranscriptEntry]) -> list[tuple[TranscriptEntry, BotFailure]]:
    """The bot failures an engine host reported in `entries` (each followed by a
    stand-in answer): `info string error: bot failed: ...` or `... bot overran its time`."""
    found = []
    for entry in entries:
        if entry.direction == FROM_ENGINE:
            message = parse(entry.line)
            if isinstance(message, Info):
                failure = BotFailure.from_string(message.string)
                if failure is not None:
                    found.append((entry, failure))
    return found


def _failure_verdict(name: str, entries: Sequence[TranscriptEntry]) -> CheckResult | None:
    """A failed verdict for a check during which the engine reported a bot failure."""
    failures = bot_failures(entries)
    if not failures:
        return None
    entry, failure = failures[0]
    what = "raised or returned a bad action" if failure.kind == "error" else "overran its time"
    more = f" (and {len(failures) - 1} more)" if len(failures) > 1 else ""
    detail = (
        f"the engine reported that its bot {what} and answered with a stand-in move: "
        f"{failure.describe()}{more}"
    )
    at = list(entries).index(entry)
    return CheckResult(name, False, detail, _excerpt(list(entries)[: at + 3]))


class _Run:
    """One run of the check list: the results so far and the next check to run."""

    def __init__(
        self,
        transcript: Transcript,
        report: Callable[[CheckResult], None] | None,
        skip: Collection[str],
    ) -> None:
        self.transcript = transcript
        self.report = report
        self.skip = skip
        self.results: list[CheckResult] = []
        self.index = 0
        self.handshaken = False

    @property
    def done(self) -> bool:
        return self.index >= len(CHECKS)

    def add(self, result: CheckResult) -> None:
        self.results.append(result)
        if self.report is not None:
            self.report(result)

    def excerpt(self, mark: int) -> tuple[str, ...]:
        return _excerpt(self.transcript.since(mark))

    async def checks(self, engine: Engine, probe: Probe) -> None:
        """Run checks on this engine until one leaves it in an unknown state."""
        while not self.done:
            name, check = CHECKS[self.index]
            self.index += 1
            if name in self.skip:
                self.add(CheckResult(name, True, "skipped on request", skipped=True))
                continue
            mark = self.transcript.count
            self.transcript.note(engine.name, f"check: {name}")
            try:
                detail = await check(probe)
            except (CheckFailed, EngineError) as exc:
                probe.dirty = True
                self.add(CheckResult(name, False, str(exc), self.excerpt(mark)))
            except Exception as exc:  # a bug of ours must not hide the other checks
                probe.dirty = True
                detail = f"internal error of the checker: {exc!r}"
                self.add(CheckResult(name, False, detail, self.excerpt(mark)))
            else:
                failed = _failure_verdict(name, self.transcript.since(mark))
                self.add(failed if failed is not None else CheckResult(name, True, detail))
            if name in FATAL and not self.results[-1].passed:
                for later, _ in CHECKS[self.index :]:
                    self.add(CheckResult(later, False, f"not run: {name} failed"))
                self.index = len(CHECKS)
            if probe.dirty:
                return

    def start_failed(self, exc: EngineError, mark: int) -> None:
        """The engine did not start: the handshake (and so every check) failed, or the
        next check fails for the failed restart."""
        if not self.handshaken:
            self.add(CheckResult("handshake", False, str(exc), self.excerpt(mark)))
            for name, _ in CHECKS:
                self.add(CheckResult(name, False, "not run: the handshake failed"))
            self.index = len(CHECKS)
        elif not self.done:
            name = CHECKS[self.index][0]
            self.index += 1
            self.add(CheckResult(name, False, f"engine restart failed: {exc}", self.excerpt(mark)))

    def session(self, entries: Sequence[TranscriptEntry], pvs: _Pvs) -> None:
        """The checks judged on the whole session's output."""
        session = _session_checks(entries, pvs)
        if not self.handshaken:
            session = [CheckResult(r.name, False, "not run: the handshake failed") for r in session]
        for result in session:
            if result.name in self.skip:
                result = CheckResult(result.name, True, "skipped on request", skipped=True)
            self.add(result)


async def check_engine(
    argv: Sequence[str],
    *,
    game: str = "tak",
    rules: Mapping[str, str] | None = None,
    timeout: float = 5.0,
    transcript: Transcript | None = None,
    report: Callable[[CheckResult], None] | None = None,
    skip: Collection[str] = (),
    start_timeout: float | None = None,
) -> list[CheckResult]:
    """Run every check against the engine started by `argv`; results in order.

    `rules` are the game's rules options (size, ...); `timeout` bounds every wait for an
    answer, `start_timeout` (default: `timeout`) the wait for `teiok` after each start of
    the engine; `report` is called with each result as soon as it is known; checks named in
    `skip` are not run (reported as skipped; ValueError for a name that is no check).
    """
    unknown = sorted(set(skip) - set(check_names()))
    if unknown:
        raise ValueError(f"no such check: {', '.join(map(repr, unknown))}")
    transcript = transcript if transcript is not None else Transcript(keep=200_000)
    rules = {k.lower(): v for k, v in (rules or {}).items()}
    run = _Run(transcript, report, skip)
    first_entry = transcript.count
    pvs: _Pvs = []
    while not run.done:
        mark = transcript.count
        try:
            async with open_engine(
                argv,
                transcript=transcript,
                handshake_timeout=timeout if start_timeout is None else start_timeout,
                quit_grace=min(1.0, timeout),
                term_grace=min(1.0, timeout),
            ) as engine:
                if not run.handshaken:
                    run.handshaken = True
                    lines = len(engine.handshake_lines) - 1
                    run.add(CheckResult("handshake", True, f"teiok after {lines} line(s)"))
                probe = Probe(engine, transcript, game.lower(), rules, timeout, pvs=pvs)
                await run.checks(engine, probe)
        except EngineError as exc:
            run.start_failed(exc, mark)
    run.session(transcript.since(first_entry), pvs)
    return run.results


def check_names() -> list[str]:
    """Every check's name, in the order of the report."""
    return ["handshake", *(name for name, _ in CHECKS), *SESSION_CHECKS]


async def run_checks(
    argv: Sequence[str], game: str = "tak", timeout: float = 5.0
) -> list[CheckResult]:
    """`check_engine` with default settings (for `trio.run`)."""
    return await check_engine(argv, game=game, timeout=timeout)
