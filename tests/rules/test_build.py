"""The build: compiled where a C compiler is there, pure Python (saying why) where not,
and never a stale compiled module run in place of an edited source."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from bots import compiled
from rules.build import BuildInfo, read_manifest
from tests.support import ROOT

sys.path.insert(0, str(ROOT / "tools"))
import toolchain


def test_a_pure_manifest_runs_the_sources_and_keeps_its_reason(tmp_path: Path) -> None:
    manifest = tmp_path / "build.json"
    manifest.write_text(json.dumps({"build": "pure", "modules": ["a.b"], "reason": "no gcc"}))
    info = read_manifest(manifest, tmp_path)
    assert info == BuildInfo("pure", ("a.b",), "no gcc")
    assert info.runs_sources


def test_a_source_edited_after_compiling_makes_the_build_run_sources(tmp_path: Path) -> None:
    source = tmp_path / "pkg" / "mod.py"
    source.parent.mkdir()
    source.write_text("x = 1\n")
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    manifest = tmp_path / "build.json"
    body = {"build": "compiled", "modules": ["pkg.mod"], "sources": {"pkg/mod.py": digest}}
    manifest.write_text(json.dumps(body))
    assert not read_manifest(manifest, tmp_path).runs_sources
    source.write_text("x = 2\n")
    info = read_manifest(manifest, tmp_path)
    assert info.stale == ("pkg/mod.py",)
    assert info.runs_sources


def test_no_manifest_or_a_broken_one_is_an_unknown_build(tmp_path: Path) -> None:
    assert read_manifest(tmp_path / "none.json", tmp_path).build == "unknown"
    (tmp_path / "bad.json").write_text("{not json")
    assert read_manifest(tmp_path / "bad.json", tmp_path).build == "unknown"


@pytest.mark.process
def test_the_toolchain_probe_names_a_missing_or_failing_compiler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CC", "no-such-compiler-here")
    assert "no C compiler" in (toolchain.missing() or "")
    monkeypatch.setenv("CC", "false")
    assert "failed on a test file" in (toolchain.missing() or "")


#: imports the packages, then says whether the build manifest was opened and whether the
#: import system was patched (`guard` given as argv[1]: after rules.build.guard())
IMPORT_PROBE = """
import sys
opened = []
sys.addaudithook(lambda event, args: event == "open" and opened.append(str(args[0])))
import rules, bots, rules.tak.game, bots.tak.search
from rules import build
if sys.argv[1:] == ["guard"]:
    build.guard()
patched = any(isinstance(f, build.SourceFinder) for f in sys.meta_path)
print(any(p.endswith("build.json") for p in opened), patched)
"""


@pytest.mark.process
def test_importing_the_packages_reads_nothing_and_patches_nothing() -> None:
    """`import rules` (and bots, and the Tak core) does no I/O of its own; the front
    doors' guard reads the manifest and, for a pure or stale build, runs the sources."""
    quiet = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE], capture_output=True, text=True, timeout=60
    )
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stdout.split() == ["False", "False"]
    guarded = subprocess.run(
        [sys.executable, "-c", IMPORT_PROBE, "guard"], capture_output=True, text=True, timeout=60
    )
    assert guarded.returncode == 0, guarded.stderr
    info = read_manifest()
    assert guarded.stdout.split() == [str(info.build != "unknown"), str(info.runs_sources)]


@pytest.mark.process
def test_version_names_the_build_this_process_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tei", "--version"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    first = compiled.describe().split(" ")[0]
    assert done.stdout.startswith("tei-host ") and f", {first}" in done.stdout


@pytest.mark.process
def test_the_engine_says_its_build_in_id_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tei", "engine"],
        input="tei\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    versions = [line for line in done.stdout.splitlines() if line.startswith("id version ")]
    assert len(versions) == 1 and compiled.describe() in versions[0]


@pytest.mark.process
def test_a_build_without_a_working_compiler_installs_as_pure_python(tmp_path: Path) -> None:
    """A real wheel build of a copy of the project with CC=false: it succeeds, has no
    extension module, and its manifest says why it is pure."""
    source = tmp_path / "src"
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name if source.exists() else _mkdir(source) / name)
    for package in ("tools", "rules", "bots", "tei", "adapters"):
        shutil.copytree(
            ROOT / package, source / package, ignore=shutil.ignore_patterns("*.so", "build.json")
        )
    env = {**os.environ, "CC": "false"}
    env.pop("TEI_HOST_COMPILE", None)
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path / "out"), str(source)],
        capture_output=True, text=True, timeout=300, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (wheel,) = (tmp_path / "out").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        body = json.loads(archive.read("rules/build.json"))
    assert not [n for n in names if n.endswith(".so")]
    assert body["build"] == "pure" and "failed on a test file" in body["reason"]


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path
