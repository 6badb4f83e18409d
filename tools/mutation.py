"""Mutation testing of the pure modules with cosmic-ray (docs/mutation.md).

    nice -n 10 python tools/mutation.py run [MODULE ...]   # mutate, test, report
    python tools/mutation.py report [MODULE ...]            # rates and survivors so far
    python tools/mutation.py list                           # the modules and their tests

Each module gets its own cosmic-ray session in .mutation/ and runs only its related test
files (TESTS below), one test process at a time; `run` resumes an unfinished session, and
`run --fresh` starts it again. Mutants judged equivalent (no behaviour can tell them from
the original) are listed with the reason in tools/mutation_equivalent.txt and count for
neither side. Needs the pure-Python build (TEI_HOST_PURE=1): a compiled module would run
instead of its mutated source.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".mutation"
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.txt"

_REFEREE = "adapters/referee/"
_REFEREE_MUTANTS = "tests/adapters/referee/test_mutants_referee.py"
_RULES_MUTANTS = "tests/rules/test_mutants_rules.py"
_PLAYTAK = "tests/adapters/playtak/"
_PLAYTAK_MUTANTS = _PLAYTAK + "test_mutants_playtak.py"
_TAK = "tests/rules/tak/"
_HOST_TESTS = ("tests/tei/host/test_engine_host_state.py",)
_PROTOCOL_TESTS = (
    "tests/tei/test_protocol.py",
    "tests/tei/test_protocol_props.py",
    "tests/tei/test_mutants_protocol.py",
)
_TAK_CORE = (
    "tests/rules/tak/test_tak_game.py",
    "tests/rules/tak/test_tak_move.py",
    "tests/rules/tak/test_tak_position.py",
    "tests/rules/tak/test_mutants_tak.py",
)

#: module -> the test files that exercise it (kept small: each mutant runs them all)
TESTS: dict[str, tuple[str, ...]] = {
    "tei/host/state.py": (*_HOST_TESTS, "tests/tei/host/test_mutants_host_state.py"),
    "tei/protocol.py": _PROTOCOL_TESTS,
    "tei/protocol_messages.py": (*_PROTOCOL_TESTS, "tests/tei/driver/test_driver_connection.py"),
    _REFEREE + "schedule.py": ("tests/adapters/referee/test_referee_pure.py", _REFEREE_MUTANTS),
    _REFEREE + "clock.py": ("tests/adapters/referee/test_referee_pure.py", _REFEREE_MUTANTS),
    _REFEREE + "sprt.py": ("tests/adapters/referee/test_referee_stats.py", _REFEREE_MUTANTS),
    _REFEREE + "stats.py": ("tests/adapters/referee/test_referee_stats.py", _REFEREE_MUTANTS),
    _REFEREE + "records.py": ("tests/adapters/referee/test_referee_records.py", _REFEREE_MUTANTS),
    _REFEREE + "resume.py": ("tests/adapters/referee/test_referee_resume.py", _REFEREE_MUTANTS),
    _REFEREE + "adjudication.py": (
        "tests/adapters/referee/test_referee_adjudication.py",
        _REFEREE_MUTANTS,
    ),
    "adapters/playtak/bridge_state.py": (
        "tests/adapters/playtak/test_playtak_bridge_state.py",
        "tests/adapters/playtak/test_mutants_bridge_state.py",
        "tests/adapters/playtak/test_playtak_live_phase.py",
        "tests/adapters/playtak/test_playtak_hostile.py",
    ),
    "adapters/playtak/bridge_thinking.py": (
        "tests/adapters/playtak/test_playtak_bridge_state.py",
        "tests/adapters/playtak/test_mutants_bridge_state.py",
        "tests/adapters/playtak/test_playtak_live_phase.py",
    ),
    "adapters/playtak/live_game.py": (
        "tests/adapters/playtak/test_playtak_live_phase.py",
        "tests/adapters/playtak/test_playtak_bridge_state.py",
        "tests/adapters/playtak/test_mutants_bridge_state.py",
    ),
    "adapters/playtak/bridge_events.py": (
        "tests/adapters/playtak/test_playtak_bridge_parts.py",
        "tests/adapters/playtak/test_playtak_bridge_state.py",
        "tests/adapters/playtak/test_mutants_bridge_state.py",
        "tests/adapters/playtak/test_playtak_live_phase.py",
    ),
    "adapters/playtak/live_phase.py": (
        "tests/adapters/playtak/test_playtak_live_phase.py",
        "tests/adapters/playtak/test_playtak_bridge_state.py",
        "tests/adapters/playtak/test_mutants_bridge_state.py",
    ),
    "adapters/playtak/game_policy.py": (
        _PLAYTAK + "test_playtak_chat_template.py",
        _PLAYTAK + "test_playtak_seek_filter.py",
        _PLAYTAK + "test_playtak_bridge_state.py",
        _PLAYTAK_MUTANTS,
    ),
    "adapters/playtak/repeats.py": (
        _PLAYTAK + "test_playtak_bridge_parts.py",
        _PLAYTAK + "test_playtak_bridge_state.py",
        _PLAYTAK_MUTANTS,
    ),
    "adapters/playtak/seek_filter.py": (_PLAYTAK + "test_playtak_seek_filter.py", _PLAYTAK_MUTANTS),
    "rules/game.py": (
        "tests/tei/test_option_specs.py",
        "tests/tei/test_skeleton.py",
        "tests/tei/test_tei_rules_once.py",
        _TAK + "test_tak_perft.py",
        _RULES_MUTANTS,
    ),
    "rules/tak/move.py": (
        "tests/rules/tak/test_tak_move.py",
        "tests/rules/tak/test_tak_game.py",
        "tests/rules/tak/test_mutants_tak.py",
    ),
    "rules/tak/board.py": _TAK_CORE,
    "rules/tak/ptn.py": ("tests/rules/tak/test_tak_ptn.py", "tests/rules/tak/test_mutants_tak.py"),
    "rules/tak/position.py": (
        "tests/rules/tak/test_tak_position.py",
        "tests/rules/tak/test_tak_game.py",
        "tests/rules/tak/test_mutants_tak.py",
    ),
    "rules/tak/movegen.py": (*_TAK_CORE, _TAK + "test_tak_perft.py"),
    "rules/tak/roads.py": (_TAK + "test_tak_game.py", _TAK + "test_mutants_tak.py"),
    "rules/tak/game.py": (
        _TAK + "test_tak_game.py",
        _TAK + "test_tak_position.py",
        _TAK + "test_tak_perft.py",
        _TAK + "test_mutants_tak.py",
    ),
    "rules/tak/tables.py": _TAK_CORE,
    "rules/tak/tinue.py": (_TAK + "test_tak_tinue.py", _TAK + "test_mutants_tak.py"),
    "rules/trike/game.py": ("tests/rules/trike/test_trike_rules.py", _RULES_MUTANTS),
    "rules/trike/position.py": ("tests/rules/trike/test_trike_rules.py", _RULES_MUTANTS),
    "rules/trike/geometry.py": ("tests/rules/trike/test_trike_rules.py", _RULES_MUTANTS),
    "rules/traxit/board.py": ("tests/rules/traxit/test_traxit_rules.py", _RULES_MUTANTS),
    "rules/traxit/state.py": ("tests/rules/traxit/test_traxit_rules.py", _RULES_MUTANTS),
    "rules/traxit/game.py": ("tests/rules/traxit/test_traxit_rules.py", _RULES_MUTANTS),
    "rules/traxit/actions.py": ("tests/rules/traxit/test_traxit_rules.py", _RULES_MUTANTS),
    "rules/traxit/notation.py": ("tests/rules/traxit/test_traxit_rules.py", _RULES_MUTANTS),
    "rules/traxit/tiles.py": ("tests/rules/traxit/test_traxit_rules.py", _RULES_MUTANTS),
}

# The mutations made: the bugs a slip of the hand makes (an off-by-one, a flipped test, the
# neighbouring operator), not every operator for every other, which would be ten times
# as many runs for few more findings.
_KEEP = (
    "ReplaceBinaryOperator_(Add_Sub|Sub_Add|Mul_Add|Div_Mul|FloorDiv_Mul|Mod_FloorDiv"
    "|BitAnd_BitOr|BitOr_BitAnd|BitXor_BitOr|LShift_RShift|RShift_LShift|Pow_Mul)",
    "ReplaceComparisonOperator_(Lt_LtE|LtE_Lt|Gt_GtE|GtE_Gt|Eq_NotEq|NotEq_Eq|Is_IsNot|IsNot_Is)",
    "ReplaceUnaryOperator_(Delete_Not|USub_UAdd)",
    "AddNot",
    "ReplaceAndWithOr",
    "ReplaceOrWithAnd",
    "ReplaceTrueWithFalse",
    "ReplaceFalseWithTrue",
    "ReplaceBreakWithContinue",
    "ReplaceContinueWithBreak",
    "NumberReplacer",
    "ZeroIterationForLoop",
    "ExceptionReplacer",
)
_EXCLUDE = "core/(?!(" + "|".join(_KEEP) + ")$)"


def _config(module: str, timeout: float) -> str:
    tests = " ".join(TESTS[module])
    command = f"{sys.executable} -m pytest -x -q -n 0 -p no:cacheprovider -o addopts= {tests}"
    return "\n".join(
        [
            "[cosmic-ray]",
            f'module-path = "{module}"',
            f"timeout = {timeout}",
            "excluded-modules = []",
            f'test-command = "{command}"',
            "[cosmic-ray.distributor]",
            'name = "local"',
            "[cosmic-ray.filters.operators-filter]",
            f"exclude-operators = [{json.dumps(_EXCLUDE)}]",
            "",
        ]
    )


def _paths(module: str) -> tuple[Path, Path]:
    stem = module.replace("/", "_").removesuffix(".py")
    return WORK / f"{stem}.toml", WORK / f"{stem}.sqlite"


def _compiled(module: str) -> list[Path]:
    source = ROOT / module
    return sorted(source.parent.glob(source.stem + ".*.so"))


def _program(name: str) -> Path:
    program = Path(sys.executable).parent / name
    if not program.exists():
        sys.exit(f"{program} not found: pip install cosmic-ray (in the environment running this)")
    return program


def _tool(*args: str, capture: bool = False) -> str:
    command = [str(_program(args[0])), *args[1:]]
    done = subprocess.run(command, cwd=ROOT, check=True, capture_output=capture, text=True)
    return done.stdout or ""


def _run_survivors_again(session: Path) -> None:
    """Make the session's survivors pending again (to try them on new tests)."""
    with sqlite3.connect(session) as db:
        db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'")


def run(module: str, fresh: bool, timeout: float, sample: int | None, again: bool) -> None:
    if _compiled(module):
        sys.exit(f"{module}: a compiled build of it is installed; reinstall with TEI_HOST_PURE=1")
    WORK.mkdir(exist_ok=True)
    config, session = _paths(module)
    config.write_text(_config(module, timeout))
    if fresh or not session.exists():
        session.unlink(missing_ok=True)
        _tool("cosmic-ray", "init", str(config), str(session))
        _tool("cr-filter-operators", str(session), str(config))
        _skip_annotations(module, session)
    if sample is not None:
        _sample(module, session, sample)
    if again:
        _run_survivors_again(session)
    source = ROOT / module
    backup = WORK / (config.stem + ".orig")
    if backup.exists():  # a run that was killed left its mutant in place
        source.write_bytes(backup.read_bytes())
    else:
        backup.write_bytes(source.read_bytes())
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    proc = subprocess.Popen(
        [str(_program("cosmic-ray")), "exec", str(config), str(session)], cwd=ROOT
    )
    try:
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.terminate()
            proc.wait()
        source.write_bytes(backup.read_bytes())
        backup.unlink()


def _annotations(module: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The spans of the module's type annotations (never evaluated: postponed)."""
    spans = []
    for node in ast.walk(ast.parse((ROOT / module).read_text())):
        notes: list[ast.expr | None] = []
        if isinstance(node, ast.arg | ast.AnnAssign):
            notes.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            notes.append(node.returns)
        for note in notes:
            if note is not None and note.end_lineno is not None:
                end = (note.end_lineno, note.end_col_offset or 0)
                spans.append(((note.lineno, note.col_offset), end))
    return spans


def _skip(session: Path, skipped: Callable[[Any], bool], why: str) -> None:
    """Mark the pending mutants `skipped` picks as skipped (they count for neither side)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in list(db.pending_work_items):
            if skipped(item):
                result = WorkResult(output=why, worker_outcome=WorkerOutcome.SKIPPED)
                db.set_result(item.job_id, result)


def _skip_annotations(module: str, session: Path) -> None:
    """Skip the mutants inside annotations (never evaluated: postponed annotations)."""
    spans = _annotations(module)

    def inside(item: Any) -> bool:
        start = tuple(item.mutations[0].start_pos)
        return any(a <= start < b for a, b in spans)

    _skip(session, inside, "in an annotation")


_OUT_OF_SAMPLE = "not in the sample"


def _place(item: dict[str, Any]) -> tuple[Any, ...]:
    """A mutant's place in the source (its job id is a fresh random uuid in each session)."""
    m = item["mutations"][0]
    return (m["operator_name"], tuple(m["start_pos"]), tuple(m["end_pos"]), m["occurrence"])


def _sample(module: str, session: Path, size: int) -> None:
    """Leave the first `size` mutants of the module's order run or pending.

    The order is the mutants' places shuffled with the module's path as the seed: the same
    for every session of the same source, and a larger sample holds a smaller one, so
    raising N makes pending only the mutants it adds (the others keep their results).
    """
    population = [
        item
        for item, result in _results(module)
        if result is None
        or result["worker_outcome"] == "normal"
        or result["output"] == _OUT_OF_SAMPLE
    ]
    order = sorted(population, key=_place)
    random.Random(module).shuffle(order)
    keep = {item["job_id"] for item in order[:size]}
    with sqlite3.connect(session) as db:  # a larger sample: its new mutants pending again
        db.executemany(
            "DELETE FROM work_results WHERE job_id = ? AND output = ?",
            [(job, _OUT_OF_SAMPLE) for job in keep],
        )
    _skip(session, lambda item: item.job_id not in keep, _OUT_OF_SAMPLE)


def _equivalent() -> dict[tuple[str, str, int, str], str]:
    """(module, operator, column, source line) -> why that mutant changes nothing."""
    table = {}
    for raw in EQUIVALENT.read_text().splitlines():
        if not raw.strip() or raw.startswith("#"):
            continue
        module, operator, column, line, reason = raw.split("\t")
        table[module, operator, int(column), line.strip()] = reason
    return table


def _results(module: str) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    _config_path, session = _paths(module)
    if not session.exists():
        return []
    dump = _tool("cosmic-ray", "dump", str(session), capture=True)
    return [tuple(json.loads(line)) for line in dump.splitlines()]  # type: ignore[misc]


def report(modules: list[str], show: bool) -> int:
    equivalent = _equivalent()
    alive = 0
    print(f"{'module':40} {'run':>5} {'killed':>6} {'equiv':>5} {'left':>5} {'rate':>6} pending")
    for module in modules:
        lines = (ROOT / module).read_text().splitlines()
        notes = _annotations(module)
        run_ = killed = equiv = pending = 0
        survivors = []
        for item, result in _results(module):
            if result is None:
                pending += 1
                continue
            if result["worker_outcome"] != "normal":
                continue  # filtered out, or no mutation possible
            mutation = item["mutations"][0]
            operator = mutation["operator_name"].removeprefix("core/")
            row, column = mutation["start_pos"]
            if any(a <= (row, column) < b for a, b in notes):
                continue  # run before annotations were skipped
            run_ += 1
            key = (module, operator, column, lines[row - 1].strip())
            if result["test_outcome"] != "survived":
                killed += 1
            elif key in equivalent:
                equiv += 1
            else:
                survivors.append((row, operator, result["diff"]))
        judged = run_ - equiv
        rate = f"{100 * killed / judged:5.1f}%" if judged else "    -"
        print(f"{module:40} {run_:5} {killed:6} {equiv:5} {len(survivors):5} {rate} {pending}")
        alive += len(survivors)
        if show:
            for row, operator, diff in sorted(survivors):
                print(f"  {module}:{row} {operator}")
                print("    " + "\n    ".join(d for d in diff.splitlines()[2:] if d))
    return 1 if alive else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("run", "report", "list"))
    parser.add_argument("modules", nargs="*", metavar="MODULE", help="default: all of them")
    parser.add_argument("--fresh", action="store_true", help="run: start the sessions again")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per test run")
    parser.add_argument(
        "--sample", type=int, metavar="N", help="run: at most N mutants a module, at random"
    )
    parser.add_argument(
        "--survivors", action="store_true", help="run: try the survivors again (new tests)"
    )
    parser.add_argument("--quiet", action="store_true", help="report: rates only")
    args = parser.parse_intermixed_args(argv)
    modules = args.modules or list(TESTS)
    unknown = [m for m in modules if m not in TESTS]
    if unknown:
        parser.error(f"no tests are listed for {', '.join(unknown)} (see TESTS in {__file__})")
    if args.command == "list":
        for module in modules:
            print(f"{module}: {' '.join(TESTS[module])}")
        return 0
    if args.command == "run":
        for module in modules:
            run(module, args.fresh, args.timeout, args.sample, args.survivors)
    return report(modules, not args.quiet)


if __name__ == "__main__":
    sys.exit(main())
