"""The compliance checker: our engine host passes everything; each broken engine fails the
check aimed at its flaw (and the checker does not stop at the first failure)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import trio

from tei.check import CHECKS, SESSION_CHECKS, CheckResult, check_engine
from tei.lines import printable
from tests.support.engines.procs import fake, fake_processes, tei

pytestmark = pytest.mark.process

ALL = ["handshake", *(name for name, _ in CHECKS), *SESSION_CHECKS]
HOST = [sys.executable, "-m", "tei", "engine"]
#: for engines that answer at once: only a broken one ever waits this long
ANSWER = 5.0
#: a fake engine that must fail by not answering is waited for this long; one that must
#: pass answers well within it even on a busy machine (the fakes answer at once)
SHORT = 2.0
#: starting a Python process can take seconds on a loaded machine
START = 20.0


def verdicts(results: list[CheckResult]) -> dict[str, bool]:
    return {r.name: r.passed for r in results}


@pytest.mark.parametrize("game", ["tak", "trike", "traxit"])
async def test_our_engine_host_passes_every_check(game: str) -> None:
    results = await check_engine([*HOST, "--game", game], game=game, timeout=5)
    failed = ["\n".join([r.to_line(), *r.excerpt]) for r in results if not r.passed]
    assert failed == []
    assert [r.name for r in results] == ALL


async def test_a_traxit_host_passes_for_a_traxit_variant() -> None:
    rules = {"players": "4", "teams": "true", "shortgame": "true"}
    results = await check_engine([*HOST, "--game", "traxit"], game="traxit", rules=rules, timeout=5)
    assert [r.to_line() for r in results if not r.passed] == []


KOMI = ("--options", "HalfKomi combo 0 0 4")

#: (fake engine arguments, game, the check that must fail, a check that must still pass)
BROKEN: list[tuple[tuple[str, ...], str, str, str | None]] = [
    (("--mode", "exit-at-start"), "tak", "handshake", None),
    (("--mode", "no-teiok"), "tak", "handshake", None),
    (("--mode", "no-name"), "tak", "id name", "id author"),
    (("--mode", "no-author"), "tak", "id author", "id name"),
    (("--mode", "bad-option"), "tak", "option declarations", "isready"),
    ((), "trike", "game declared", "isready"),
    (("--mode", "mute"), "tak", "isready", "id name"),
    (("--options", "Hash spin 16 1 64", "--crash-on", "setoption"), "tak", "setoption", "go depth"),
    (("--crash-on", "teinewgame"), "tak", "new game", "isready"),
    (("--crash-on", "go wtime"), "tak", "go wtime btime winc binc", "go movetime"),
    (("--mode", "slow", "--delay", "1.5"), "tak", "go movetime", "isready"),
    (("--mode", "strict"), "tak", "go depth", "go wtime btime winc binc"),
    (("--mode", "strict"), "tak", "bare go + stop", "go infinite + stop"),
    (("--crash-on", "go nodes"), "tak", "go nodes", "go depth"),
    (("--mode", "ignore-stop"), "tak", "go infinite + stop", "go depth"),
    (("--mode", "two-bestmoves"), "tak", "go infinite + stop", "isready"),
    (("--mode", "no-read-while-searching"), "tak", "isready during search", "go depth"),
    (("--mode", "bestmove-on-stop"), "tak", "stop when idle", "go infinite + stop"),
    (("--mode", "illegal"), "tak", "position string with moves", "isready"),
    (("--mode", "illegal"), "tak", "second seat to act", "isready"),
    (("--mode", "illegal"), "tak", "reply to the first move", "isready"),
    ((*KOMI, "--crash-on", "setoption name HalfKomi value 4"), "tak", "komi", "setoption"),
    (("--mode", "ignore-quit"), "tak", "quit", "go depth"),
    (("--mode", "ignore-quit"), "tak", "quit during search", "go depth"),
    (("--mode", "garbage"), "tak", "info lines parse", "go depth"),
    (("--mode", "garbage"), "tak", "only TEI lines on stdout", "go depth"),
    (("--mode", "bad-pv"), "tak", "pv moves legal", "info lines parse"),
    (("--mode", "crash"), "tak", "go wtime btime winc binc", "isready"),
    (("--mode", "bestmove-on-isready"), "tak", "isready during search", "go depth"),
    (("--mode", "close-stdout"), "tak", "go wtime btime winc binc", "isready"),
]


async def test_each_check_can_fail() -> None:
    """All broken engines are checked at once (their waits overlap)."""
    found: dict[int, dict[str, CheckResult]] = {}

    async def run(index: int, args: tuple[str, ...], game: str) -> None:
        # an engine that must fail its start is not given the long start timeout
        start = SHORT if BROKEN[index][2] == "handshake" else START
        results = await check_engine(
            fake("good", *args), game=game, timeout=SHORT, start_timeout=start
        )
        found[index] = {r.name: r for r in results}

    limit = trio.CapacityLimiter(8)

    async def limited(index: int, args: tuple[str, ...], game: str) -> None:
        async with limit:
            await run(index, args, game)

    # the engines that fail by making the checker wait go first
    waits = {"slow", "no-read-while-searching", "ignore-quit", "ignore-stop", "no-teiok", "mute"}
    order = sorted(range(len(BROKEN)), key=lambda i: not waits & set(BROKEN[i][0]))
    async with trio.open_nursery() as nursery:
        for index in order:
            args, game, _, _ = BROKEN[index]
            nursery.start_soon(limited, index, args, game)
    problems = []
    for index, (args, _, failing, passing) in enumerate(BROKEN):
        results = found[index]
        if results[failing].passed:
            problems.append(f"{args}: {failing!r} passed")
        if passing is not None and not results[passing].passed:
            problems.append(f"{args}: {passing!r} failed: {results[passing].detail}")
    assert problems == []
    assert {failing for _, _, failing, _ in BROKEN} == set(ALL)
    assert fake_processes() == []


async def test_after_a_failed_handshake_nothing_else_passes() -> None:
    results = await check_engine(fake("exit-at-start"), timeout=SHORT)
    assert [r.name for r in results] == ALL
    assert not results[0].passed
    assert all(not r.passed and r.detail.startswith("not run") for r in results[1:])


async def test_a_bestmove_before_stop_is_named() -> None:
    results = await check_engine(fake("bestmove-on-isready"), timeout=ANSWER, start_timeout=START)
    during = {r.name: r for r in results}["isready during search"]
    assert not during.passed
    assert "'bestmove " in during.detail and "before stop" in during.detail


async def test_an_engine_that_closed_its_output_is_not_called_terminated() -> None:
    results = await check_engine(fake("close-stdout"), timeout=ANSWER, start_timeout=START)
    clock = {r.name: r for r in results}["go wtime btime winc binc"]
    assert "closed its output" in clock.detail and "still runs" in clock.detail
    assert "exit code None" not in clock.detail


def test_excerpts_escape_control_bytes() -> None:
    assert printable("info string \x1b[2J\x07ok\u200b") == ("info string \\x1b[2J\\x07ok\\u200b")


async def test_failures_carry_a_transcript_excerpt() -> None:
    results = await check_engine(fake("strict"), timeout=ANSWER, start_timeout=START)
    depth = verdicts(results)
    assert depth["go depth"] is False
    failure = next(r for r in results if r.name == "go depth")
    assert any("> go depth 2" in line for line in failure.excerpt)
    assert "terminated" in failure.detail


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return tei("check", *args)


def test_cli_exit_status_and_lines(tmp_path: Path) -> None:
    log = tmp_path / "traffic.log"
    good = run_cli(
        "--timeout", "5", "--start-timeout", "20", "--transcript", str(log), "--", *fake("good")
    )
    assert good.returncode == 0, good.stdout
    assert good.stdout.count("PASS") == len(ALL)
    assert "> tei" in log.read_text()
    bad = run_cli("-v", "--timeout", "5", "--start-timeout", "20", "--", *fake("no-author"))
    assert bad.returncode == 1
    assert "FAIL  id author" in bad.stdout
    assert " > tei" in bad.stderr and " < teiok" in bad.stderr  # -v: live traffic


def test_cli_without_engine_is_a_usage_error() -> None:
    result = run_cli()
    assert result.returncode == 2
    assert "engine command" in result.stderr


async def test_skipped_checks_are_not_run_and_do_not_fail() -> None:
    results = await check_engine(
        fake("strict"), timeout=ANSWER, start_timeout=START, skip=["go depth", "bare go + stop"]
    )
    skipped = [r.name for r in results if r.skipped]
    assert skipped == ["go depth", "bare go + stop"]
    assert all(r.passed for r in results)


async def test_unknown_check_names_are_refused() -> None:
    with pytest.raises(ValueError, match="no such check"):
        await check_engine(fake(), skip=["go sideways"])


def test_cli_skip_and_its_usage_error() -> None:
    ok = run_cli(
        "--timeout",
        "5",
        "--start-timeout",
        "20",
        "--skip",
        "go depth",
        "--skip",
        "bare go + stop",
        "--",
        *fake("strict"),
    )
    assert ok.returncode == 0, ok.stdout
    assert "SKIP  go depth" in ok.stdout
    bad = run_cli("--skip", "go sideways", "--", *fake())
    assert bad.returncode == 2
    assert "no such check 'go sideways'" in bad.stderr


def test_json_report_of_a_passing_and_a_failing_engine() -> None:
    good = run_cli("--json", "--skip", "go depth", "--start-timeout", "20", "--", *fake("good"))
    assert good.returncode == 0, good.stdout
    report = json.loads(good.stdout)
    assert report["engine"] == fake("good") and report["game"] == "tak"
    assert report["passed"] is True
    assert [c["name"] for c in report["checks"]] == ALL
    assert report["counts"] == {"pass": len(ALL) - 1, "fail": 0, "skip": 1}
    assert next(c for c in report["checks"] if c["name"] == "go depth")["status"] == "skip"
    bad = run_cli("--json", "--start-timeout", "20", "--size", "6", "--", *fake("strict"))
    assert bad.returncode == 1
    report = json.loads(bad.stdout)
    assert report["passed"] is False and report["rules"] == {"size": "6"}
    depth = next(c for c in report["checks"] if c["name"] == "go depth")
    assert depth["status"] == "fail" and "terminated" in depth["detail"]
    assert any("> go depth 2" in line for line in depth["excerpt"])
    assert report["counts"]["fail"] == sum(c["status"] == "fail" for c in report["checks"])


def test_cli_unwritable_transcript_is_a_usage_error() -> None:
    result = run_cli("--transcript", "/nonexistent-dir/traffic.log", "--", *fake())
    assert result.returncode == 2
    assert "cannot write /nonexistent-dir/traffic.log" in result.stderr


def test_cli_game_options_are_validated_as_everywhere() -> None:
    """--teams means 4 players (no GameError of ours blamed on the engine); options of
    another game are a usage error before any engine starts."""
    kept = {"handshake", "game declared", "new game", "position string with moves"}
    skip = [arg for name in ALL if name not in kept for arg in ("--skip", name)]
    done = run_cli("--json", "--game", "traxit", "--teams", *skip, "--", *HOST, "--game", "traxit")
    report = json.loads(done.stdout)
    assert report["rules"] == {"teams": "true", "players": "4"}
    assert report["passed"] is True, report
    refused = run_cli("--game", "trike", "--komi", "2", "--", *HOST)
    assert refused.returncode == 2 and refused.stdout == ""
    assert "tei check: komi is a Tak rule; trike has none (drop --komi)" in refused.stderr
