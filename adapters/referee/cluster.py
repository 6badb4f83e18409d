"""Playing a match's games on a Dask cluster (`tei match --cluster ADDRESS`).

The referee process is the Dask client and stays the single writer: it submits each
scheduled game as a self-contained job (`cluster_worker.GameJob`), at most as many at
once as the cluster has worker threads, and hands every result to the match as it
arrives (records in schedule order, state, standings, SPRT), exactly as local workers
do. A stop (SPRT decision, `--games` reached, the first Ctrl-C) submits nothing more
and cancels jobs no worker has started; running games finish and are recorded. A
worker that dies mid-game loses nothing: Dask plays its job again elsewhere, and each
scheduled game is recorded once.

Dask's client API is synchronous here; it runs in worker threads of trio.
"""

from __future__ import annotations

import importlib
import itertools
import os
import time
import uuid
from typing import TYPE_CHECKING, Any

import attrs
import trio

from adapters.referee.cluster_worker import GameJob, play_job, project_version
from adapters.referee.engines import MatchError

if TYPE_CHECKING:
    from adapters.referee.runner import Match

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


def _check_versions(client: Any, wait: float = 60.0) -> None:
    """ClusterError unless every worker runs this version of the project."""
    client.wait_for_workers(1, timeout=wait)
    ours = project_version()
    theirs = client.run(project_version)
    wrong = {worker: v for worker, v in theirs.items() if v != ours}
    if wrong:
        listed = ", ".join(f"{w} has {v}" for w, v in sorted(wrong.items()))
        raise ClusterError(f"workers run another version of tei-host than {ours}: {listed}")


def _next_done(client: Any, futures: list[Any]) -> Any:
    """The first finished future (blocking); ClusterError when the scheduler is gone."""
    wait = _distributed().wait
    lost_since: float | None = None
    while True:
        try:
            done, _ = wait(futures, timeout=0.5, return_when="FIRST_COMPLETED")
        except TimeoutError:  # distributed's wait raises when nothing finished in time
            done = set()
        if done:
            return next(iter(done))
        if client.status == "running":
            lost_since = None
            continue
        lost_since = lost_since or time.monotonic()
        if time.monotonic() - lost_since > LOST_AFTER or client.status in ("closed", "closing"):
            raise ClusterError(
                f"lost the Dask scheduler ({client.status}); finished games are saved:"
                " continue with --resume"
            )


def _cancel_waiting(client: Any, futures: list[Any]) -> None:
    """Cancel the jobs no worker has started."""
    running = set(itertools.chain.from_iterable(client.processing().values()))
    waiting = [f for f in futures if f.key not in running and not f.done()]
    if waiting:
        client.cancel(waiting)


def _close(client: Any, cluster: Any, futures: list[Any]) -> None:
    try:
        if futures:
            client.cancel(futures)
        client.close(timeout=5)
    except Exception:
        pass
    if cluster is not None:
        cluster.close(timeout=10)


async def play_on_cluster(match: Match, address: ClusterAddress) -> None:
    """Play the match's queued games on the cluster at `address`."""
    client, cluster = await trio.to_thread.run_sync(_connect, address)
    futures: dict[str, tuple[Any, Any]] = {}
    run = uuid.uuid4().hex[:8]
    try:
        await trio.to_thread.run_sync(_check_versions, client)
        cancelled = False
        while True:
            capacity = max(1, sum(client.nthreads().values()))
            while match.has_work() and len(futures) < capacity:
                pairing = match.next_pairing()
                job = GameJob(
                    pairing,
                    match.config.engines,
                    match.settings,
                    match.book[pairing.opening] if pairing.opening is not None else None,
                    match=f"{os.getpid()}-{run}",
                )
                future = client.submit(
                    play_job, job, key=f"tei-game-{run}-{pairing.index}", pure=False
                )
                futures[future.key] = (future, pairing)
            if not futures:
                return
            if match.stopping and not cancelled:
                cancelled = True
                await trio.to_thread.run_sync(
                    _cancel_waiting, client, [f for f, _ in futures.values()]
                )
            match.progress.running = len(futures)
            future = await trio.to_thread.run_sync(
                _next_done, client, [f for f, _ in futures.values()], abandon_on_cancel=True
            )
            _, pairing = futures.pop(future.key)
            if future.status == "cancelled":
                continue
            try:
                result = await trio.to_thread.run_sync(future.result)
            except Exception as exc:
                raise ClusterError(f"game {pairing.label} failed on the cluster: {exc!r}") from exc
            match.progress.running = len(futures)
            match.game_done(result)
    finally:
        pending = [f for f, _ in futures.values()]
        match.progress.running = 0
        with trio.CancelScope(shield=True):
            await trio.to_thread.run_sync(_close, client, cluster, pending)
