"""`tei match --cluster` with real `dask scheduler` and `dask worker` processes on 127.0.0.1."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from adapters.referee.cluster import ClusterAddress, ClusterError, _Client
from adapters.referee.cluster_worker import VERSION_OVERRIDE
from adapters.referee.config import build_config
from adapters.referee.openings import read_records
from adapters.referee.runner import Match
from adapters.referee.state import FinishedGame, read_state
from adapters.stream.events import Event, GameOver
from tests.support import ROOT
from tests.support.engines.gate import GAME_LINE, set_limit
from tests.support.engines.procs import group_members
from tests.support.referee import ENGINE, refbot, settings
from tests.support.referee.cluster import Cluster

pytestmark = pytest.mark.cluster

pytest.importorskip("distributed")

#: an engine that does not exist on the workers (started with ON_WORKER set) but does here
MISSING_ON_WORKERS = {
    "cmd": [
        "sh",
        "-c",
        f'[ -n "$ON_WORKER" ] && exec /nonexistent/engine; exec {sys.executable}'
        f" -m tei engine --bot random",
    ],
    "name": "elsewhere",
}


@pytest.fixture
def cluster() -> Iterator[Cluster]:
    running = Cluster()
    try:
        running.add_worker()
        running.add_worker()
        running.wait_for_workers(2)
        yield running
    finally:
        running.close()


#: a test process that starts a cluster and then dies as a pytest-timeout kill does:
#: `os._exit`, no finalizer, no atexit
KILLED_TEST = """
import os, sys
sys.path[:0] = sys.argv[1:]
from tests.support.referee.cluster import Cluster
running = Cluster()
running.add_worker()
running.wait_for_workers(1)
print(*(proc.pid for proc in running.procs), flush=True)
sys.stdin.readline()
os._exit(1)
"""


def test_no_cluster_process_outlives_a_test_process_killed_outright() -> None:
    argv = [sys.executable, "-c", KILLED_TEST, str(ROOT)]
    test = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    groups: list[int] = []
    try:
        assert test.stdout is not None and test.stdin is not None
        groups += [int(pid) for pid in test.stdout.readline().split()]
        assert len(groups) == 2, groups  # the scheduler's and the worker's
        assert all(group_members(group) for group in groups)  # running
        test.stdin.write("die\n")
        test.stdin.close()
        assert test.wait(timeout=30) == 1
        deadline = time.monotonic() + 20
        while any(map(group_members, groups)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(group_members, groups)), [group_members(g) for g in groups]
    finally:
        test.kill()
        for group in groups:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)


def check_records(
    out: Path, state: Path, games: int, *, ordered: bool = True
) -> list[dict[str, str]]:
    """Every scheduled game in the records once, in schedule order, and the same games
    in the state file; returns the records' tags."""
    tags = [r.tags for r in read_records(out.read_text())]
    rounds = [t["Round"] for t in tags]
    expected = [str(i) for i in range(1, games + 1)]
    # after a hard stop the records of finished games are written at once (never lost),
    # ahead of earlier games that were still running: each once, but not always in order
    assert (rounds if ordered else sorted(rounds, key=int)) == expected
    saved = read_state(state)
    assert sorted(saved.games) == list(range(games))
    assert sorted(Counter(saved.written)) == list(range(games))
    return tags


def standings_of_records(tags: list[dict[str, str]]) -> dict[str, float]:
    """Points per engine name, read from the records' tags alone."""
    points: dict[str, float] = Counter()
    for t in tags:
        white, black, result = t["Player1"], t["Player2"], t["Result"]
        if result == "1/2-1/2":
            points[white] += 0.5
            points[black] += 0.5
        else:
            points[white if result.endswith("-0") else black] += 1
    return dict(points)


def standings_of_progress(games: Iterable[FinishedGame]) -> dict[str, float]:
    """Points per engine name as the referee counted them (engine 0 random, 1 greedy)."""
    names = ("random", "greedy")
    points: dict[str, float] = Counter()
    for game in games:
        for seat in game.winners:
            points[names[game.seats[seat]]] += 1 / len(game.winners)
    return dict(points)


def test_addresses_are_read_and_refused_by_name() -> None:
    assert ClusterAddress.parse("local") == ClusterAddress(None, 2)
    assert ClusterAddress.parse("local:3") == ClusterAddress(None, 3)
    assert ClusterAddress.parse("10.0.0.5:8786").scheduler == "tcp://10.0.0.5:8786"
    for bad in ("local:0", "local:x", "http://a:1", "tcp://host", "tcp://:8786"):
        with pytest.raises(ClusterError, match="--cluster"):
            ClusterAddress.parse(bad)


async def test_a_killed_worker_loses_no_game(cluster: Cluster, tmp_path: Path) -> None:
    out, state = tmp_path / "games.ptn", tmp_path / "games.ptn.state"
    match_settings = settings(
        [{"bot": "random"}, {"bot": "greedy"}],
        games=40,
        records=str(out),
        cluster=cluster.address,
        each={"st": "0.02"},
    )
    match = Match.open(build_config(match_settings), state_path=state)
    killed: list[int] = []

    def on_event(event: Event) -> None:
        if isinstance(event, GameOver) and len(match.progress.finished) == 8 and not killed:
            killed.append(cluster.workers[0].pid)
            cluster.kill(cluster.workers[0])

    match.publish = on_event
    progress = await match.run(handle_signals=False)
    assert killed, "a worker was killed mid-match"
    assert progress.status == "finished"
    assert len(progress.finished) == 40
    tags = check_records(out, state, 40)
    assert standings_of_records(tags) == standings_of_progress(progress.finished.values())


async def test_sprt_stops_early_and_a_missing_engine_is_a_per_game_fault(
    cluster: Cluster, tmp_path: Path
) -> None:
    match_settings = settings(
        [refbot("good"), refbot("illegal", name="loser")],
        games=60,
        cluster=cluster.address,
        sprt=["elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"],
    )
    progress = await Match.open(build_config(match_settings)).run(handle_signals=False)
    assert progress.status == "sprt H1"
    assert 2 <= len(progress.finished) < 60

    faulty = settings([MISSING_ON_WORKERS, {"bot": "random"}], games=2, cluster=cluster.address)
    progress = await Match.open(build_config(faulty)).run(handle_signals=False)
    assert progress.status == "finished"
    for game in progress.finished.values():
        assert game.termination == "crashed" and game.culprit == 0
        assert "exit code 127" in game.detail  # the shell found no engine there


async def test_workers_of_another_version_are_refused_before_any_game(tmp_path: Path) -> None:
    running = Cluster()
    try:
        running.add_worker(**{VERSION_OVERRIDE: "0.0.0-other"})
        running.wait_for_workers(1)
        out = tmp_path / "games.ptn"
        match_settings = settings(
            [{"bot": "random"}, {"bot": "greedy"}],
            games=2,
            records=str(out),
            cluster=running.address,
        )
        with pytest.raises(ClusterError, match=r"another version.*0\.0\.0-other"):
            await Match.open(build_config(match_settings)).run(handle_signals=False)
        assert not out.exists() or out.read_text() == ""
    finally:
        running.close()


def referee(*args: str) -> list[str]:
    return [sys.executable, "-m", "tei", "match", *args]


def random_against_greedy(out: Path, games: int, cluster: str, *extra: str) -> list[str]:
    """`tei match` of the random bot against the greedy one on 4x4 at 0.05 s a move."""
    engines = ["--engine", "bot=random", "--engine", "bot=greedy", "--each", "st=0.05"]
    record = ["--games", str(games), "--ptnout", str(out)]
    return referee("--size", "4", *engines, *record, "--cluster", cluster, *extra)


def test_jobs_the_match_cancelled_are_skipped_and_ones_the_cluster_cancelled_are_a_loss(
    cluster: Cluster,
) -> None:
    """distributed's wait raises as soon as any future it waits on was cancelled: one this
    match cancelled (a graceful stop) is handed back to be skipped; any other means the
    scheduler is gone, a ClusterError (a clear stop), never a raw CancelledError."""
    from distributed import Client

    client = Client(cluster.address, timeout=30)
    dask = _Client(client, None)
    try:
        futures = [client.submit(time.sleep, 30, pure=False) for _ in range(3)]
        dask.cancel_waiting(futures)  # two worker threads: at least one job waits
        assert dask.cancelled
        skipped = dask.next_done(futures)
        assert skipped.key in dask.cancelled and skipped.status == "cancelled"
        left = [client.submit(time.sleep, 30, pure=False)]
        cluster.kill(cluster.scheduler)
        with pytest.raises(ClusterError, match="lost the Dask scheduler"):
            dask.next_done(left)
    finally:
        dask.close([])


def test_a_killed_client_resumes_on_the_cluster_and_a_lost_scheduler_stops_cleanly(
    cluster: Cluster, tmp_path: Path
) -> None:
    out, state, gate = tmp_path / "games.ptn", tmp_path / "games.ptn.state", tmp_path / "gate"
    # the test engine (against the greedy bot) answers no go while the state file holds as
    # many games as the gate allows: each step below happens with games left, however
    # loaded the machine (no clocks: a move held at the gate is not a time forfeit)
    set_limit(gate, 1)
    held = shlex.join([sys.executable, ENGINE, "--gate", str(gate), str(state), GAME_LINE])
    engines = ["--engine", f"cmd={held}", "name=refbot", "--engine", "bot=greedy"]
    record = ["--games", "30", "--ptnout", str(out), "--size", "4"]
    argv = referee(*engines, *record, "--cluster", cluster.address, "--quiet")
    client = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 90
    while not (state.exists() and read_state(state).written):
        assert client.poll() is None, client.communicate()
        assert time.monotonic() < deadline, "no game was recorded in time"
        time.sleep(0.1)
    client.kill()
    client.communicate(timeout=30)
    before = len(read_state(state).games)
    # held from the first recorded game on (a few more may end before the client has
    # written it): most of the match is left
    assert 1 <= before <= 10

    # the scheduler goes away during the resumed match: a clear stop, nothing lost
    set_limit(gate, before + 2)  # the resumed match plays two games, then waits
    resumed = subprocess.Popen(
        referee("--resume", str(state)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 90
    while len(read_state(state).games) < before + 2:
        assert resumed.poll() is None, resumed.communicate()
        assert time.monotonic() < deadline, "the resumed match played no game"
        time.sleep(0.1)
    cluster.kill(cluster.scheduler)
    _, err = resumed.communicate(timeout=120)
    assert resumed.returncode == 2, err  # a clear stop, not an internal error
    assert "lost the Dask scheduler" in err and "--resume" in err, err
    assert "internal error" not in err

    # and the rest of the match is played here, without a cluster
    set_limit(gate, None)
    done = subprocess.run(
        referee("--resume", str(state), "--cluster", "none", "--quiet"),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    check_records(out, state, 30, ordered=False)


def test_a_local_cluster_end_to_end(tmp_path: Path) -> None:
    out, summary = tmp_path / "games.ptn", tmp_path / "summary.json"
    done = subprocess.run(
        random_against_greedy(out, 6, "local:2", "--json", str(summary)),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr
    check_records(out, Path(f"{out}.state"), 6)
    data = json.loads(summary.read_text())
    assert (data["status"], data["games_done"]) == ("finished", 6)
    tags = [r.tags for r in read_records(out.read_text())]
    points = {s["who"][0]: s["points"] for s in data["standings"]}
    assert points == {**{"random": 0.0, "greedy": 0.0}, **standings_of_records(tags)}


def _listening(pids: Iterable[int]) -> list[str]:
    """The addresses (`ip:port`) the processes `pids` listen on, from /proc (Linux)."""
    inodes: set[str] = set()
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    if link.startswith("socket:["):
                        inodes.add(link[8:-1])
    found = []
    for table, size in (("tcp", 4), ("tcp6", 16)):
        with open(f"/proc/net/{table}") as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if fields[3] != "0A" or fields[9] not in inodes:  # 0A: LISTEN
                    continue
                hexip, hexport = fields[1].split(":")
                raw = bytes.fromhex(hexip)
                # /proc writes each 32-bit word in host (little-endian) order
                ip = b"".join(raw[i : i + 4][::-1] for i in range(0, size, 4))
                family = socket.AF_INET6 if size == 16 else socket.AF_INET
                found.append(f"{socket.inet_ntop(family, ip)}:{int(hexport, 16)}")
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads /proc (Linux)")
def test_a_local_cluster_listens_on_loopback_only() -> None:
    """`--cluster local:N`: the scheduler, the workers, their nannies and dashboards all
    listen on 127.0.0.1 (what docs/cluster.md says), never on another interface."""
    from adapters.referee.cluster import _connect

    client, cluster = _connect(ClusterAddress.parse("local:2"))
    try:
        client.wait_for_workers(2, timeout=60)
        info = client.scheduler_info()
        addresses = [info["address"]]
        for worker, details in info["workers"].items():
            addresses += [worker, details["nanny"]]
        assert all(a.startswith("tcp://127.0.0.1:") for a in addresses), addresses
        pids = {os.getpid(), *client.run(os.getpid).values()}
        listening = _listening(pids)
        assert len(listening) >= len(addresses), listening
        assert all(a.startswith("127.0.0.1:") for a in listening), listening
    finally:
        client.close()
        cluster.close()


class CancelledFuture:
    """A job seen done, then cancelled before its result was fetched."""

    key = "tei-game-x-1"

    def result(self) -> None:
        from distributed.client import FutureCancelledError

        raise FutureCancelledError(self.key, reason="scheduler-connection-lost")


def test_a_job_cancelled_after_it_was_done_is_a_lost_scheduler_unless_ours() -> None:
    """Seen under load: the scheduler went away between a job's end and its result; that
    was a raw 'game failed on the cluster: FutureCancelledError()' without the --resume
    line, and a job this match cancelled itself would have stopped the match."""
    dask = _Client(None, None)
    with pytest.raises(ClusterError, match=r"lost the Dask scheduler.*--resume"):
        dask.result(CancelledFuture())
    dask.cancelled.add(CancelledFuture.key)
    assert dask.result(CancelledFuture()) is None
