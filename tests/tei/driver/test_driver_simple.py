"""SimpleEngine: the driver behind blocking calls, against real engine processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules.tak.game import TakGame
from tei.driver import (
    EngineOptionError,
    EngineTerminated,
    EngineTimeout,
    Limits,
    SimpleEngine,
    Transcript,
)
from tei.transcript import TO_ENGINE
from tests.support import ROOT
from tests.support.engines.procs import alive, fake, fake_processes, wait_dead
from tests.support.engines.toy_game import PlaceGame

pytestmark = pytest.mark.process

BOT = [sys.executable, "-m", "tei", "engine", "--bot", "search"]
#: the fake engine with a MultiPV option (its last info: a line per empty square)
MULTIPV = fake("good", "--options", "MultiPV spin 1 1 4")


@pytest.fixture(autouse=True)
def _no_engine_left() -> Iterator[None]:
    yield
    assert fake_processes() == []


def test_play_and_analyse_a_built_in_bot() -> None:
    game = TakGame.new({"size": "6"})
    with SimpleEngine.popen(BOT) as engine:
        assert engine.id["name"]
        result = engine.play(game, Limits(depth=1))
        game.play(result.action)
        info = engine.analyse(game, Limits(depth=2))
        assert info is not None and info.score is not None and info.pv
        game.play_text(info.pv[0])  # a legal move of the position after the first
        pid = engine.engine.pid
    assert not alive(pid)


def test_errors_come_in_the_callers_thread() -> None:
    with SimpleEngine.popen(fake("crash")) as engine, pytest.raises(EngineTerminated):
        engine.play(PlaceGame(5), Limits(movetime=100))


def test_a_start_that_fails_raises_from_popen() -> None:
    with pytest.raises(EngineTerminated):
        SimpleEngine.popen(fake("exit-at-start"))


def test_timeout_of_one_call() -> None:
    with SimpleEngine.popen(fake("silent")) as engine:
        with pytest.raises(EngineTimeout):
            engine.play(PlaceGame(5), Limits(movetime=100), timeout=0.3, grace=0.2)
        with pytest.raises(EngineTimeout):
            engine.analyse(PlaceGame(5), Limits(movetime=100), timeout=0.3)


def test_usable_from_several_threads_and_not_only_the_main_one() -> None:
    answers: list[str] = []
    errors: list[BaseException] = []

    def script() -> None:
        try:
            with SimpleEngine.popen(fake("good", "--delay", "0.05")) as engine:

                def ask() -> None:
                    answers.append(engine.play(PlaceGame(5), Limits(movetime=100)).text)

                workers = [threading.Thread(target=ask) for _ in range(3)]
                for worker in workers:
                    worker.start()
                for worker in workers:
                    worker.join()
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=script)
    thread.start()
    thread.join(30)
    assert errors == []
    assert answers == ["a1", "a1", "a1"]


def test_no_process_left_when_the_script_raises() -> None:
    with pytest.raises(ZeroDivisionError), SimpleEngine.popen(fake("good")) as engine:
        pid = engine.engine.pid
        assert alive(pid)
        _ = 1 / 0
    assert not alive(pid)
    with pytest.raises(RuntimeError, match="closed"):
        engine.ping()


def test_multipv_lines_best_first() -> None:
    with SimpleEngine.popen(MULTIPV) as engine:
        infos = engine.analyse(PlaceGame(5), Limits(depth=2), multipv=3)
        assert [i.multipv for i in infos] == [1, 2, 3]
        assert [i.pv[0] for i in infos] == ["a1", "b1", "c1"]
        assert {i.depth for i in infos} == {2}
        single = engine.analyse(PlaceGame(5), Limits(depth=2))
        assert single is not None and single.multipv == 1


def test_multipv_needs_the_engine_option() -> None:
    with SimpleEngine.popen(fake("good")) as engine, pytest.raises(EngineOptionError):
        engine.analyse(PlaceGame(5), Limits(depth=2), multipv=2)


def test_analyse_needs_bounded_limits() -> None:
    with SimpleEngine.popen(fake("good")) as engine, pytest.raises(ValueError, match="bounded"):
        engine.analyse(PlaceGame(5), Limits(infinite=True))


def test_analysis_streams_and_stops() -> None:
    with SimpleEngine.popen(fake("good")) as engine:
        with engine.analysis(PlaceGame(5)) as analysis:
            for info in analysis:
                assert info.depth == 1
                break
        assert analysis.bestmove == "a1"
        assert engine.play(PlaceGame(5), Limits(movetime=50)).text == "a1"  # usable after


def test_analysis_ends_at_its_timeout() -> None:
    with SimpleEngine.popen(fake("good")) as engine:
        analysis = engine.analysis(PlaceGame(5), timeout=0.3)
        assert [i.depth for i in analysis] == [1]  # then nothing until the stop
        assert analysis.bestmove == "a1"
        assert engine.ping() >= 0


def test_analyse_tells_the_engine_the_new_game_first() -> None:
    transcript = Transcript()
    with SimpleEngine.popen(fake("good"), transcript=transcript) as engine:
        engine.analyse(TakGame.new({"size": "6"}), Limits(depth=1))
    sent = [e.line for e in transcript if e.direction == TO_ENGINE]
    assert sent.index("teinewgame 6") < sent.index("go depth 1")


def test_an_interrupted_call_leaves_the_engine_usable() -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("a Ctrl-C reaches the main thread only")
    if signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        pytest.skip("SIGINT is not Python's KeyboardInterrupt here")
    with SimpleEngine.popen(fake("until-stop")) as engine:
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            engine.play(PlaceGame(5), Limits(infinite=True), timeout=30)
        assert engine.ping() >= 0  # not "in use by another task"
        assert engine.play(PlaceGame(5), Limits(movetime=50), timeout=5).text == "a1"


def test_another_call_ends_an_analysis_left_open() -> None:
    with SimpleEngine.popen(fake("good")) as engine:
        analysis = engine.analysis(PlaceGame(5))
        assert next(analysis).depth == 1
        assert engine.play(PlaceGame(5), Limits(movetime=50)).text == "a1"
        assert list(analysis) == [] and analysis.bestmove == "a1"


def test_no_process_left_by_a_script_that_never_closes(tmp_path: Path) -> None:
    script = tmp_path / "script.py"
    script.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.support.engines.procs import fake\n"
        "from tei.driver import SimpleEngine\n"
        "engine = SimpleEngine.popen(fake('good'))\n"
        "print(engine.engine.pid, flush=True)\n"
        "raise SystemExit('the script fails before closing')\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=30)
    assert done.returncode == 1 and "fails before closing" in done.stderr
    wait_dead(int(done.stdout), 5.0)
