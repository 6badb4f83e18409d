"""Playing a match's games on a Dask cluster (`tei match --cluster ADDRESS`).

The referee process is the Dask client and stays the single writer: it submits each
scheduled game as a self-contained job (`seat_pool.GameJob`), at most two per
worker thread at once (one running, one waiting), and hands every result to the match as it
arrives (records in schedule order, state, standings, SPRT), exactly as local workers
do. A stop (SPRT decision, `--games` reached, the first Ctrl-C) submits nothing more
and cancels jobs no worker has started; running games finish and are recorded. A
worker that dies mid-game loses nothing: Dask plays its job again elsewhere, and each
scheduled game is recorded once.

`ClusterExecutor` is one of the match's two executors (`adapters.referee.executors`). Dask's
client API is synchronous here; it runs in worker threads of trio.
"""

from __future__ import annotations

import contextlib
import importlib
import itertools
import os
import time
import uuid
from concurrent.futures import CancelledError
from typing import TYPE_CHECKING, Any

import attrs
import trio

from adapters.referee.cluster_worker import play_job, project_version
from adapters.referee.engines import MatchError
from adapters.referee.seat_pool import GameJob

if TYPE_CHECKING:
    from adapters.referee.executors import GameQueue

#: seconds without a scheduler before the match stops
LOST_AFTER = 15.0


class ClusterError(MatchError):
    """The cluster cannot play (not reachable, other versions, gone mid-match)."""


@attrs.frozen
class ClusterAddress:
    """`local`, `local:N` (a LocalCluster of N worker processes) or a scheduler address."""

    scheduler: str | None = None
    workers: int = 2

    @classmethod
    def parse(cls, text: str) -> ClusterAddress:
        text = text.strip()
        if text == "local" or text.startswith("local:"):
            count = text.partition(":")[2] or "2"
            if not count.isdigit() or int(count) < 1:
                raise ClusterError(f"--cluster {text!r}: use local or local:N with N >= 1")
            return cls(None, int(count))
        if "://" not in text:
            text = f"tcp://{text}"
        scheme, _, rest = text.partition("://")
        host, sep, port = rest.rpartition(":")
        if scheme not in ("tcp", "tls") or not sep or not host or not port.isdigit():
            raise ClusterError(
                f"--cluster {text!r}: give tcp://HOST:PORT (e.g. tcp://10.0.0.5:8786) or local:N"
            )
        return cls(text)

    def describe(self) -> str:
        return self.scheduler or f"local:{self.workers}"


def _distributed() -> Any:
    """The `distributed` module (imported only when a match runs on a cluster)."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask distributed: pip install 'tei-host[cluster]'"
        ) from None


def _connect(address: ClusterAddress) -> tuple[Any, Any]:
    """(client, local cluster or None); ClusterError when the scheduler cannot be reached."""
    dask = _distributed()
    cluster = None
    try:
        if address.scheduler is None:
            cluster = dask.LocalCluster(
                n_workers=address.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            client = dask.Client(cluster)
        else:
            client = dask.Client(address.scheduler, timeout=20)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise ClusterError(f"cannot reach the Dask scheduler {address.describe()}: {exc}") from None
    return client, cluster


def _lost(exc: BaseException) -> ClusterError:
    return ClusterError(
        f"lost the Dask scheduler ({exc or type(exc).__name__}); finished games are saved:"
        " continue with --resume (on this or another cluster, or --cluster none)"
    )


class _Client:
    """The blocking Dask calls of a match (each run in a thread); a lost connection to
    the scheduler comes out as ClusterError."""

    def __init__(self, client: Any, cluster: Any) -> None:
        self.client = client
        self.cluster = cluster
        #: the keys of the jobs this match cancelled itself (a graceful stop)
        self.cancelled: set[str] = set()

    def check_versions(self, wait: float = 60.0) -> None:
        """ClusterError unless every worker runs this version of the project."""
        try:
            self.client.wait_for_workers(1, timeout=wait)
            theirs = self.client.run(project_version)
        except (OSError, TimeoutError) as exc:
            raise _lost(exc) from None
        ours = project_version()
        wrong = {worker: v for worker, v in theirs.items() if v != ours}
        if wrong:
            listed = ", ".join(f"{w} has {v}" for w, v in sorted(wrong.items()))
            raise ClusterError(f"workers run another version of tei-host than {ours}: {listed}")

    def capacity(self) -> int:
        """Games the cluster plays at once: its worker threads (at least 1)."""
        try:
            threads: dict[str, int] = self.client.nthreads()
            return max(1, sum(threads.values()))
        except (OSError, TimeoutError) as exc:
            raise _lost(exc) from None

    def submit(self, job: GameJob, key: str) -> Any:
        try:
            return self.client.submit(play_job, job, key=key, pure=False)
        except (OSError, TimeoutError) as exc:
            raise _lost(exc) from None

    def next_done(self, futures: list[Any]) -> Any:
        """The first finished future (blocking); ClusterError when the scheduler is gone."""
        wait = _distributed().wait
        lost_since: float | None = None
        while True:
            try:
                done, _ = wait(futures, timeout=0.5, return_when="FIRST_COMPLETED")
            except TimeoutError:  # distributed's wait raises when nothing finished in time
                done = set()
            except CancelledError as exc:  # raised when any of them was cancelled
                return self._cancelled_one(futures, exc)
            if done:
                return next(iter(done))
            status = self.client.status
            if status == "running":
                lost_since = None
                continue
            lost_since = lost_since or time.monotonic()
            if time.monotonic() - lost_since > LOST_AFTER or status in ("closed", "closing"):
                raise _lost(RuntimeError(f"client {status}"))

    def _cancelled_one(self, futures: list[Any], exc: CancelledError) -> Any:
        """A job this match cancelled itself, to be skipped; ClusterError when the
        cluster cancelled one (its connection to the scheduler was lost)."""
        cancelled = [f for f in futures if f.cancelled()]
        if cancelled and all(f.key in self.cancelled for f in cancelled):
            return cancelled[0]
        raise _lost(RuntimeError("the cluster cancelled games of this match")) from None

    def result(self, future: Any) -> Any:
        """The result of a finished job; None for one this match cancelled itself (it
        can be cancelled after it was seen done); ClusterError when the scheduler is gone
        (the cluster cancelled it: distributed's FutureCancelledError)."""
        try:
            return future.result()
        except CancelledError:
            if future.key in self.cancelled:
                return None
            raise _lost(RuntimeError("the cluster cancelled a game of this match")) from None
        except (OSError, TimeoutError) as exc:
            raise _lost(exc) from None

    def cancel_waiting(self, futures: list[Any]) -> None:
        """Cancel the jobs no worker has started."""
        try:
            running = set(itertools.chain.from_iterable(self.client.processing().values()))
            waiting = [f for f in futures if f.key not in running and not f.done()]
            if waiting:
                self.cancelled.update(f.key for f in waiting)
                self.client.cancel(waiting)
        except (OSError, TimeoutError) as exc:
            raise _lost(exc) from None

    def close(self, futures: list[Any]) -> None:
        """Cancel what is left and disconnect (errors of a broken connection ignored)."""
        with contextlib.suppress(Exception):
            if futures:
                self.client.cancel(futures)
        with contextlib.suppress(Exception):
            self.client.close(timeout=5)
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close(timeout=10)


class ClusterExecutor:
    """The `Executor` of a match on the Dask cluster at `address`: each game taken is
    one job (`play_job` on a worker), at most two waiting per worker thread."""

    def __init__(self, address: ClusterAddress) -> None:
        self.address = address

    async def run(self, games: GameQueue) -> None:
        dask = _Client(*await trio.to_thread.run_sync(_connect, self.address))
        futures: dict[str, tuple[Any, GameJob]] = {}
        run = uuid.uuid4().hex[:8]
        try:
            await trio.to_thread.run_sync(dask.check_versions)
            cancelled = False
            while True:
                # one game waiting per worker thread besides the running ones: no worker
                # idles while a result travels back and the next job travels out
                capacity = 2 * await trio.to_thread.run_sync(dask.capacity)
                while len(futures) < capacity and (job := games.take()) is not None:
                    job = attrs.evolve(job, match=f"{os.getpid()}-{run}")
                    key = f"tei-game-{run}-{job.pairing.index}"
                    future = await trio.to_thread.run_sync(dask.submit, job, key)
                    futures[future.key] = (future, job)
                if not futures:
                    return
                if games.stopping and not cancelled:
                    cancelled = True
                    waiting = [f for f, _ in futures.values()]
                    await trio.to_thread.run_sync(dask.cancel_waiting, waiting)
                future = await trio.to_thread.run_sync(
                    dask.next_done, [f for f, _ in futures.values()], abandon_on_cancel=True
                )
                _, job = futures.pop(future.key)
                if future.status == "cancelled":
                    games.dropped(job)
                    continue
                try:
                    result = await trio.to_thread.run_sync(dask.result, future)
                except ClusterError:
                    games.dropped(job)
                    raise
                except Exception as exc:
                    games.dropped(job)
                    label = job.pairing.label
                    raise ClusterError(f"game {label} failed on the cluster: {exc!r}") from exc
                if result is None:  # cancelled by this match after it was seen done
                    games.dropped(job)
                    continue
                games.game_done(result)
        finally:
            pending = [f for f, _ in futures.values()]
            for _, job in futures.values():
                games.dropped(job)
            with trio.CancelScope(shield=True):
                await trio.to_thread.run_sync(dask.close, pending)
