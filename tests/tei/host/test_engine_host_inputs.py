"""Hostile input to `tei engine`: absurd times, huge lines, floods. The host answers each
with a clear line and goes on serving."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tei import protocol as p
from tei.lines import MAX_LINE
from tei.protocol import MAX_TIME_MS
from tests.support.engine_pipe import EnginePipe

pytestmark = pytest.mark.process


@pytest.fixture
def engine() -> Iterator[EnginePipe]:
    pipe = EnginePipe("--bot", "random")
    pipe.handshake()
    yield pipe
    pipe.close()


def test_clamping_cuts_negative_and_huge_times_and_counts_and_says_so() -> None:
    go = p.Go(wtime=-5, btime=200_000_000_000_000, movetime=10**29, winc=0, depth=3, nodes=0)
    clamped, notes = go.clamped()
    assert clamped == p.Go(
        wtime=0, btime=MAX_TIME_MS, movetime=MAX_TIME_MS, winc=0, depth=3, nodes=1
    )
    assert notes == [
        "wtime -5 clamped to 0",
        "btime 200000000000000 clamped to 2147483647",
        "nodes 0 clamped to 1",
        "movetime 100000000000000000000000... (30 digits) clamped to 2147483647",
    ]
    assert p.Go(wtime=1000, btime=MAX_TIME_MS, depth=1).clamped() == (
        p.Go(wtime=1000, btime=MAX_TIME_MS, depth=1),
        [],
    )


@pytest.mark.parametrize(
    "go",
    [
        "go wtime 200000000000000 btime 1",
        "go movetime 99999999999999999999999999999",
        "go wtime 99999999999999999999999999999 btime 99999999999999999999999999999 winc 9 binc 9",
    ],
)
def test_huge_times_are_clamped_and_the_search_still_answers_stop(
    engine: EnginePipe, go: str
) -> None:
    engine.send("teinewgame 5", "position startpos", go)
    lines = engine.ping()
    engine.send("stop")
    if not any(line.startswith("bestmove") for line in lines):
        # the random bot answers at once: before or after the readyok, whichever the host
        # had read first (under load, the answer can come first)
        lines += engine.expect("bestmove")
    assert any("clamped to 2147483647" in line for line in engine.seen), engine.seen
    answers = [line for line in lines if line.startswith("bestmove")]
    assert len(answers) == 1 and answers[0] != "bestmove --", lines
    later = engine.ping()  # still serving, and that go was answered once
    assert not any(line.startswith("bestmove") for line in later), later
    assert engine.proc.poll() is None


def test_negative_times_are_clamped_to_zero_and_answered_at_once(engine: EnginePipe) -> None:
    engine.send("teinewgame 5", "position startpos", "go wtime -5000 btime -1 winc -3")
    lines = engine.expect("bestmove")
    assert any("wtime -5000 clamped to 0" in line for line in lines), lines
    assert lines[-1] != "bestmove --"
    engine.ping()


def test_a_60_mb_line_gets_a_short_error_and_isready_is_answered_right_after(
    engine: EnginePipe,
) -> None:
    huge = "position startpos moves " + "a1 " * 20_000_000  # 60 MB
    started = time.monotonic()
    engine.send(huge, "isready")
    lines = engine.expect("readyok")
    elapsed = time.monotonic() - started
    errors = [line for line in lines if line.startswith("info string error:")]
    assert len(errors) == 1, lines
    assert f"line longer than {MAX_LINE} bytes ignored: 'position startpos moves a1" in errors[0]
    assert len(errors[0]) < 200
    # a quadratic reader needs about 24 s here; a linear one about a second
    assert elapsed < 15.0, f"60 MB line took {elapsed:.1f} s"
    engine.send("position startpos moves a1", "go depth 1")
    assert engine.expect("bestmove")[-1] != "bestmove --"


def test_an_unknown_command_is_quoted_by_its_start_only(engine: EnginePipe) -> None:
    engine.send("x" * 60_000, "setoption name " + "y" * 60_000 + " value 1", "isready")
    lines = engine.expect("readyok")
    errors = [line for line in lines if line.startswith("info string error:")]
    assert len(errors) == 2, lines
    assert "unknown command 'xxxx" in errors[0]
    assert "(60000 characters)" in errors[0]
    assert "unknown option 'yyyy" in errors[1]
    assert all(len(line) < 300 for line in errors), [len(line) for line in errors]


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def test_a_flood_that_nobody_reads_holds_the_reader_back() -> None:
    """40 MB of `isready` while nobody reads the answers: the host's output pipe fills, and
    with a bounded input queue the host stops reading instead of queueing millions of
    lines."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "tei", "engine", "--bot", "random"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    wrote = threading.Event()

    def flood() -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write(b"isready\n" * 5_000_000)
            proc.stdin.flush()
            wrote.set()
        except (BrokenPipeError, ValueError, OSError):
            pass

    writer = threading.Thread(target=flood, daemon=True)
    writer.start()
    try:
        # an unbounded host swallows the whole flood; a bounded one holds the writer back
        assert not wrote.wait(5.0), "the host read 40 MB that it could not answer"
        rss = _rss_kb(proc.pid)
        assert rss < 150_000, f"host RSS {rss} kB while flooded"
    finally:
        proc.kill()
        proc.wait()
        proc.stdout.close()
        writer.join(5.0)
        proc.stdin.close()
