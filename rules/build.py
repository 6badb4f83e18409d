"""Which build of the Tak core and search a process runs, from the manifest the install
writes (`build.json` beside this module; see setup.py and docs/performance.md).

Importing this module does nothing. `guard()`, called by the program's front doors (the
`tei` command, the local playtak server, the test suite's conftest) before the game cores
are imported, guards against a stale compiled build: where the manifest says pure Python,
or a compiled module's source no longer has the hash it was compiled from (an editable
install whose sources were edited since), the listed modules are imported from their
sources and one line on stderr says why. `installed()` reads the manifest (once per
process) for `tei --version`. No game logic here.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import attrs

MANIFEST = Path(__file__).with_name("build.json")
#: the folder the manifest's source paths are relative to (the one holding `rules/`)
ROOT = Path(__file__).parent.parent


@attrs.frozen
class BuildInfo:
    """What the install built: `compiled`, `pure` or `unknown` (no manifest, e.g. a
    checkout run without installing), the modules the compiled build covers, why a build
    is pure, and the compiled modules whose sources changed since."""

    build: str
    modules: tuple[str, ...] = ()
    reason: str = ""
    stale: tuple[str, ...] = ()

    @property
    def runs_sources(self) -> bool:
        """Whether the listed modules must be imported from their sources."""
        return self.build == "pure" or bool(self.stale)


def read_manifest(path: Path = MANIFEST, root: Path = ROOT) -> BuildInfo:
    """The manifest at `path` (unknown where there is none or it does not parse)."""
    try:
        body = json.loads(path.read_text())
        build, modules = str(body["build"]), tuple(str(m) for m in body["modules"])
    except (OSError, ValueError, KeyError, TypeError):
        return BuildInfo("unknown")
    if build != "compiled":
        return BuildInfo(build, modules, str(body.get("reason", "")))
    stale = []
    for source, digest in dict(body.get("sources", {})).items():
        try:
            now = hashlib.sha256(root.joinpath(source).read_bytes()).hexdigest()
        except OSError:
            continue  # an installed build without its sources: nothing to compare
        if now != digest:
            stale.append(str(source))
    return BuildInfo(build, modules, "", tuple(stale))


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the named modules' `.py` files, ignoring extension modules beside them."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = frozenset(names)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.names:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for entry in path or sys.path:
            source = Path(entry, leaf)
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def run_sources(names: Sequence[str]) -> None:
    """Import `names` from their sources from now on (once per process)."""
    if not any(isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder(names))


@functools.cache
def installed() -> BuildInfo:
    """The build of this install (the manifest read once per process)."""
    return read_manifest()


@functools.cache
def guard() -> BuildInfo:
    """Run the listed modules from their sources where the build is pure or stale, saying
    so once on stderr; call before the game cores are imported (once per process)."""
    info = installed()
    if info.stale:
        print(
            f"tei-host: running pure Python: {', '.join(info.stale)} changed since it was"
            " compiled; reinstall (pip install -e .) to compile again",
            file=sys.stderr,
        )
    if info.runs_sources:
        run_sources(info.modules)
    return info
