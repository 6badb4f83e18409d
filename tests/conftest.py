"""The whole suite: the process guard that keeps the markers honest.

A test may start a process (a subprocess, a fork, a posix_spawn, a shell) only if it is marked
`process`, `browser` or `cluster` (pyproject.toml registers them). Any other test that tries is
stopped at the attempt and failed, even if it caught the error: so
`pytest -m "not process and not browser and not cluster"` runs only tests that start nothing,
and a test that starts a process without its marker is caught in every run.

The run imports the game cores as the `tei` command does: never a stale compiled module in
place of an edited source (rules.build.guard).

Workers (`-n auto` in pyproject.toml): four when the run may select process tests (they mostly
wait on engines and sockets), one per core up to four when the `-m` expression leaves them all
out (the pure tests only compute, and every worker collects the whole suite first: on two cores
two workers finish the pure run sooner than four). PYTEST_XDIST_AUTO_NUM_WORKERS overrides both.
"""

from __future__ import annotations

import _posixsubprocess
import os
import signal
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from _pytest.mark.expression import Expression

from rules import build

# A run started in the background of a non-interactive shell (`pytest ... &` in a script)
# inherits an ignored SIGINT, and so would every process it starts: the Ctrl-C tests would
# interrupt nothing. The suite's processes start with the default Ctrl-C instead (the
# xdist workers, started after this, inherit it too).
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: the markers that allow a test to start processes
PROCESS_MARKERS = ("process", "browser", "cluster")
#: the workers of a run that may select process tests
PROCESS_WORKERS = 4

#: (module, attribute) of every way a process starts: subprocess.Popen (and so trio's
#: run_process/open_process) goes through its own fork_exec or os.posix_spawn,
#: multiprocessing through _posixsubprocess.fork_exec or os.fork
STARTERS: tuple[tuple[Any, str], ...] = (
    (subprocess, "_fork_exec"),
    (_posixsubprocess, "fork_exec"),
    (os, "fork"),
    (os, "forkpty"),
    (os, "posix_spawn"),
    (os, "posix_spawnp"),
    (os, "system"),
)


class UnmarkedProcess(RuntimeError):
    """A test without a process marker tried to start a process."""


def allows_processes(item: pytest.Item) -> bool:
    """Whether the test carries one of the markers that allow processes."""
    return any(item.get_closest_marker(name) is not None for name in PROCESS_MARKERS)


@pytest.fixture(autouse=True)
def process_guard(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """Refuse, and then fail the test for, any process a test without a marker starts."""
    if allows_processes(request.node):
        yield
        return
    attempts: list[str] = []

    def refusing(name: str) -> Callable[..., Any]:
        def refuse(*args: object, **kwargs: object) -> Any:
            attempts.append(name)
            raise UnmarkedProcess(
                f"{request.node.nodeid} started a process ({name}) without a "
                f"{' / '.join(PROCESS_MARKERS)} marker"
            )

        return refuse

    for module, name in STARTERS:
        if hasattr(module, name):
            monkeypatch.setattr(module, name, refusing(f"{module.__name__}.{name}"))
    yield
    if attempts:
        pytest.fail(
            f"started a process without a {' / '.join(PROCESS_MARKERS)} marker: "
            + ", ".join(attempts),
            pytrace=False,
        )


def pytest_configure(config: pytest.Config) -> None:
    build.guard()


def selects_process_tests(markexpr: str) -> bool:
    """Whether the `-m` expression keeps some test marked with a process marker."""
    if not markexpr:
        return True
    try:
        expression = Expression.compile(markexpr)
    except SyntaxError:
        return True  # pytest itself names the bad expression
    return any(expression.evaluate(_only(marker)) for marker in PROCESS_MARKERS)


def _only(marker: str) -> Callable[..., bool]:
    """The `-m` matcher of a test that carries just `marker`."""
    return lambda name, /, **kwargs: name == marker


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: see the module docstring (None: xdist reads the environment variable)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    if selects_process_tests(config.option.markexpr):
        return PROCESS_WORKERS
    return min(len(os.sched_getaffinity(0)), PROCESS_WORKERS)
