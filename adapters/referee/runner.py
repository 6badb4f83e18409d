"""The match runner: workers pull games from the schedule, each with its own engine
processes; finished games go to the state file at once and to the record file in
schedule order; statistics and SPRT are updated after every game.

Interruption: the first SIGINT (Ctrl-C) lets running games finish and starts no new one;
a second SIGINT, or SIGTERM, stops at once. Either way every finished game's record is
written before the runner returns, and the state file allows resuming.
"""

from __future__ import annotations

import collections
import logging
import signal
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs
import trio

from adapters.referee.adjudication import Adjudicator
from adapters.referee.config import MatchConfig, seats_per_game
from adapters.referee.engines import MatchError, probe_engines
from adapters.referee.executors import Executor, LocalExecutor
from adapters.referee.facts import Status
from adapters.referee.game_loop import GameResult, GameSettings
from adapters.referee.lock import locked, refuse_unfinished
from adapters.referee.openings import Opening, OpeningError, load_book
from adapters.referee.progress import MatchProgress
from adapters.referee.records import OrderedWriter
from adapters.referee.report import standings_event
from adapters.referee.resume import Reconciled, check_state, reconcile
from adapters.referee.schedule import (
    Pairing,
    ScheduleError,
    make_schedule,
    pending,
)
from adapters.referee.seat_pool import GameJob
from adapters.referee.state import FinishedGame, MatchState, StateWriter, new_run_id
from adapters.referee.summary import sprt_line, table
from adapters.stream.announce import Publish, game_over
from adapters.stream.events import Event, MatchStarted, MatchStopping
from rules.game import Game, GameError
from rules.registry import game_class
from tei.driver import Transcript
from tei.errors import main_error

log = logging.getLogger("referee")


def _notice(transcript: Transcript | None) -> Callable[[str, str], None]:
    """Where the adjudicator's notices go: the referee's logger and the traffic log."""

    def notice(engine: str, text: str) -> None:
        log.info("engine %r %s", engine, text)
        if transcript is not None:
            transcript.note(engine, text)

    return notice


def build_schedule(config: MatchConfig, book_size: int) -> list[Pairing]:
    try:
        return make_schedule(
            len(config.engines),
            seats=seats_per_game(config),
            tournament=config.tournament,
            games=config.games,
            rounds=config.rounds,
            openings=book_size,
            order=config.openings_order,
            seed=config.seed,
            start=config.openings_start,
        )
    except ScheduleError as exc:
        raise MatchError(str(exc)) from None


class Match:
    """A match in progress. `run()` plays it; `progress` holds the results."""

    def __init__(
        self,
        config: MatchConfig,
        *,
        state_path: str | Path | None = None,
        resume: MatchState | None = None,
        publish: Publish | None = None,
        book: Sequence[Opening] = (),
        force: bool = False,
    ) -> None:
        """No I/O: the openings come as `book` (`Match.open` reads them from the config's
        file); files are opened by `run`. `force`: replace the state file of an
        unfinished match."""
        self.config = config
        self.force = force
        #: receives the typed events of the match (see adapters.stream.events): the
        #: terminal, the live page and the JSON file are its subscribers
        self.publish = publish
        self.state_path = state_path
        self.resume = resume
        self.book: list[Opening] = list(book)
        self.starts: dict[int | None, Game[Any]] = {}
        try:
            for index, opening in enumerate(self.book):
                self.starts[index] = opening.start(config.game, dict(config.rules))
            self.starts[None] = game_class(config.game).new(dict(config.rules))
        except (OpeningError, GameError) as exc:
            raise MatchError(str(exc)) from None
        self.schedule = build_schedule(config, len(self.book))
        self.progress = MatchProgress(config, len(self.schedule))
        #: the match's identity in its state file, and where its records begin
        self.run_id = resume.run if resume is not None else new_run_id()
        self.records_start = resume.records_start if resume is not None else 0
        if resume is not None:
            check_state(resume, self.schedule, [e.name for e in config.engines])
            self.progress.finished.update(resume.games)
        self.settings = GameSettings(
            game=config.game,
            rules=dict(config.rules),
            max_plies=config.max_plies,
            grace=config.grace,
            timeout=config.timeout,
            event=config.event,
            site=config.site,
            run=self.run_id,
        )
        self._queue: collections.deque[Pairing] = collections.deque()
        self._stopping = False
        self._cancel: trio.CancelScope | None = None
        #: the first file that could not be written, and why (the match stopped there)
        self.failure: str | None = None
        #: the traffic log's first failed write (the match goes on without it)
        self.log_failure: str | None = None
        self._writer: OrderedWriter | None = None
        self._state: StateWriter | None = None

    @classmethod
    def open(
        cls,
        config: MatchConfig,
        *,
        state_path: str | Path | None = None,
        resume: MatchState | None = None,
        publish: Publish | None = None,
        force: bool = False,
    ) -> Match:
        """A match with its openings read from `config.openings` (cut to
        `config.openings_plies`); MatchError names a bad book or opening."""
        book: list[Opening] = []
        if config.openings:
            try:
                book = load_book(config.openings, config.openings_format)
            except OpeningError as exc:
                raise MatchError(str(exc)) from None
            if config.openings_plies is not None:
                book = [attrs.evolve(o, moves=o.moves[: config.openings_plies]) for o in book]
        return cls(
            config, state_path=state_path, resume=resume, publish=publish, book=book, force=force
        )

    # ---- the match ---------------------------------------------------------------------
    async def run(self, *, handle_signals: bool = True) -> MatchProgress:
        """Play the match, holding its records and state files (adapters.referee.lock);
        a new match does not replace an unfinished match's state file unless `force`."""
        files = [p for p in (self.config.records, self.state_path) if p is not None]
        with locked(files):
            if self.resume is None and self.state_path is not None and not self.force:
                refuse_unfinished(self.state_path)
            return await self._run(handle_signals)

    async def _run(self, handle_signals: bool) -> MatchProgress:
        config = self.config
        noted = set(self.resume.written) if self.resume is not None else set()
        known = self._reconcile()
        adopted = {game.index: game for game in known.adopted}
        self.progress.finished.update(adopted)
        # a record is written when it is in the records file: one the state file holds
        # that the file lost or cut is written again, whole, from the state file
        written = noted if config.records is None else set(known.found) | set(adopted)
        found = written - noted
        if self.resume is None and config.records is not None and Path(config.records).exists():
            self.records_start = Path(config.records).stat().st_size
        self._writer = OrderedWriter(
            config.records, [p.index for p in self.schedule if p.index not in written]
        )
        try:
            for path in (config.records, config.log, config.json):
                if path is not None:
                    with open(path, "a", encoding="utf-8"):
                        pass
            if self.state_path is not None:
                settings = None if self.resume is not None else dict(config.settings)
                self._state = StateWriter(
                    self.state_path, self.run_id, settings, self.records_start
                )
            transcript = Transcript.to_file(config.log, keep=100) if config.log else None
            if config.adjudication.active:
                self.settings = attrs.evolve(
                    self.settings,
                    adjudicator=Adjudicator(config.adjudication, _notice(transcript)),
                )
            if self._state is not None:
                for game in adopted.values():
                    self._state.game(game)
                for index in sorted(found):
                    self._state.written(index)
        except OSError as exc:
            raise MatchError(f"cannot write {exc.filename or 'a file'}: {exc.strerror}") from None
        try:
            for index, game in sorted(self.progress.finished.items()):
                if index not in written:
                    self._write_record(index, game.record)
            self._queue.extend(pending(self.schedule, set(self.progress.finished)))
            if not self._queue:
                self.progress.stop(Status.FINISHED)
                return self.progress
            self._check_sprt()
            if self._stopping:
                return self.progress
            await probe_engines(
                config.engines,
                config.game,
                config.rules,
                transcript=transcript,
                timeout=config.timeout,
            )
            names = tuple(engine.name for engine in config.engines)
            left = self.progress.total - len(self.progress.finished)
            self._emit(MatchStarted(names, config.game, left))
            self._announce_standings()
            try:
                async with trio.open_nursery() as nursery:
                    self._cancel = nursery.cancel_scope
                    if handle_signals:
                        nursery.start_soon(self._watch_signals, nursery.cancel_scope)
                    await self._play_queue(transcript)
                    nursery.cancel_scope.cancel()
            except BaseExceptionGroup as group:
                match_errors, rest = group.split(MatchError)
                if match_errors is None or rest is not None:
                    raise
                raise main_error(match_errors) from None
            if self.progress.status is Status.RUNNING:
                self.progress.stop(Status.FINISHED)
        except BaseException as exc:
            if self.progress.status is Status.RUNNING:
                if isinstance(exc, trio.Cancelled | KeyboardInterrupt):
                    self.progress.stop(Status.INTERRUPTED)
                else:
                    self.progress.stop(Status.ERROR, str(exc))
            raise
        finally:
            with trio.CancelScope(shield=True):
                self._finish()
                if transcript is not None:
                    transcript.close()
                    if transcript.failure is not None:
                        why = transcript.failure.strerror or transcript.failure
                        self.log_failure = f"cannot write the traffic log {config.log}: {why}"
        return self.progress

    async def _play_queue(self, transcript: Transcript | None) -> None:
        """Play the queued games: in this process's workers, or on a cluster."""
        config = self.config
        executor: Executor
        if config.cluster is not None:
            from adapters.referee.cluster import ClusterAddress, ClusterExecutor

            executor = ClusterExecutor(ClusterAddress.parse(config.cluster))
        else:
            workers = min(config.concurrency, len(self._queue))
            executor = LocalExecutor(workers, config.timeout, transcript)
        await executor.run(self)

    def _reconcile(self) -> Reconciled:
        """On resume: the records file checked against the state (adapters.referee.resume)."""
        if self.resume is None or self.config.records is None:
            return Reconciled(frozenset(), ())
        names = [e.name for e in self.config.engines]
        return reconcile(self.config.records, self.resume, self.schedule, names, self.starts)

    def _finish(self) -> None:
        """Write every finished record that is still waiting; close the files (a write
        that fails is told as `failure`, never raised: the state file keeps the games)."""
        if self._writer is not None:
            try:
                drained = self._writer.close(drain=self.failure is None)
            except OSError as exc:
                drained = []
                self._fail(f"cannot write the records file {self.config.records}", exc)
            for index in drained:
                self._note_written(index)
        if self._state is not None:
            status = self.progress.status
            try:
                if status.ended:
                    self._state.end(status)
                self._state.close()
            except OSError as exc:
                self._fail(f"cannot write the state file {self.state_path}", exc)
        if self.progress.status is Status.RUNNING:
            self.progress.stop(Status.STOPPED)
        self._announce_standings()

    async def _watch_signals(self, cancel_scope: trio.CancelScope) -> None:
        with trio.open_signal_receiver(signal.SIGINT, signal.SIGTERM) as signals:
            async for signum in signals:
                self.progress.stop(Status.INTERRUPTED)
                if signum == signal.SIGINT and not self._stopping:
                    self._stopping = True
                    self._emit(MatchStopping("draining", self.progress.status_text))
                else:
                    self._emit(MatchStopping("stopping", self.progress.status_text))
                    cancel_scope.cancel()
                    return

    def stop(self) -> None:
        """Start no new game; running ones finish."""
        self._stopping = True

    def halt(self, status: Status = Status.INTERRUPTED, error: str = "") -> None:
        """Stop at once: start no new game, abandon the running ones (not recorded)."""
        self._stopping = True
        self.progress.stop(status, error)
        if self._cancel is not None:
            self._cancel.cancel()

    @property
    def stopping(self) -> bool:
        return self._stopping

    def take(self) -> GameJob | None:
        """The next game to play (counted as running), or None: none left or stopping."""
        if not self._queue or self._stopping:
            return None
        pairing = self._queue.popleft()
        self.progress.running += 1
        opening = self.book[pairing.opening] if pairing.opening is not None else None
        return GameJob(pairing, self.config.engines, self.settings, opening)

    def dropped(self, job: GameJob) -> None:
        """A game taken that will not be played (its executor stopped before it)."""
        self.progress.running -= 1

    def game_done(self, result: GameResult, record: str | None = None) -> None:
        """Take in a finished game: state, standings, records in schedule order, SPRT.
        A game already taken in (a job played twice on a cluster) is ignored. `record`:
        the record already rendered (rendered here when None)."""
        pairing = result.pairing
        self.progress.running -= 1
        if pairing.index in self.progress.finished:
            return
        for engine in result.restart:
            self.progress.restarts[engine] += 1
        finished = FinishedGame.of(
            pairing,
            result.outcome,
            result.termination,
            result.plies,
            result.record.render() if record is None else record,
            detail=result.detail,
            culprit=result.culprit,
            timing=result.timing,
        )
        if self._state is not None and self.failure is None:
            try:
                self._state.game(finished)
            except OSError as exc:
                self._fail(f"cannot write the state file {self.state_path}", exc)
        self.progress.finished[pairing.index] = finished
        self.progress.last = finished
        self._write_record(pairing.index, finished.record)
        names = [self.config.engines[i].name for i in pairing.seats]
        self._emit(
            game_over(
                pairing.index,
                self.config.game,
                finished.code,
                finished.termination.value,
                finished.reason,
                finished.plies,
                finished.record,
                names,
                pairing.label,
                finished.detail,
            )
        )
        self._check_sprt()
        self._announce_standings()

    def _emit(self, event: Event) -> None:
        """Publish `event` to the match's subscribers, if it has any."""
        if self.publish is not None:
            self.publish(event)

    def _announce_standings(self) -> None:
        if self.publish is not None:
            self.publish(standings_event(table(self.progress)))

    def _write_record(self, index: int, text: str) -> None:
        assert self._writer is not None
        if self.failure is not None:
            return  # stopping: the state file holds the game; resuming writes its record
        try:
            done = self._writer.add(index, text)
        except OSError as exc:
            self._fail(f"cannot write the records file {self.config.records}", exc)
            return
        for written in done:
            self._note_written(written)

    def _note_written(self, index: int) -> None:
        if self._state is not None and self.failure is None:
            try:
                self._state.written(index)
            except OSError as exc:
                self._fail(f"cannot write the state file {self.state_path}", exc)

    def _fail(self, what: str, exc: OSError) -> None:
        """A file the match needs cannot be written: say which and why (`failure`, the
        first one) and stop at once; the games finished before are in the state file."""
        if self.failure is None:
            self.failure = f"{what}: {exc.strerror or exc}"
            log.error("%s", self.failure)
        self.halt(Status.ERROR, self.failure)

    def _check_sprt(self) -> None:
        """Stop taking games once the SPRT (the summary's) has decided."""
        if self._stopping:
            return
        sprt = sprt_line(self.progress)
        if sprt is None or sprt.decision is None:
            return
        self._stopping = True
        self.progress.stop(Status.sprt(sprt.decision))
        self._emit(MatchStopping("sprt", self.progress.status_text))
