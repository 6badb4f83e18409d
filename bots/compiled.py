"""The compiled build of the Tak core and search (mypyc; see docs/performance.md).

`pip install .` (or `-e .`) compiles the modules listed in `bots/compiled.txt` where a C
compiler and the Python headers are there; Python then imports the extension modules in
place of the sources, which stay installed beside them. `compiled()` says which modules
this process runs compiled, `describe()` names the build (and why it is pure, where the
install says); `force_pure()` (called before those modules are first imported) makes a
process import their sources instead, so the two builds can be compared on one install.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType

from rules import build


def module_names() -> list[str]:
    """The dotted names of the modules the compiled build compiles."""
    listed = resources.files("bots").joinpath("compiled.txt").read_text().split()
    return [path.removesuffix(".py").replace("/", ".") for path in listed]


def compiled() -> list[str]:
    """The modules of `module_names()` this process imported from extension modules."""
    out = []
    for name in module_names():
        module: ModuleType = importlib.import_module(name)
        suffix = Path(module.__file__ or "").name
        if any(suffix.endswith(ext) for ext in importlib.machinery.EXTENSION_SUFFIXES):
            out.append(name)
    return out


def describe() -> str:
    """A one-line account of the build this process runs, for `--version`, engine ids,
    benchmarks and reports: `compiled (7 of 7 modules)` or `pure Python (why)`."""
    names = compiled()
    total = len(module_names())
    if names:
        return f"compiled ({len(names)} of {total} modules)"
    info = build.installed()
    if info.stale:
        return f"pure Python (sources changed since compiling: {', '.join(info.stale)})"
    if info.build == "compiled":
        return "pure Python (asked for by force_pure)"
    return f"pure Python ({info.reason})" if info.reason else "pure Python"


def force_pure() -> None:
    """Import the listed modules from their sources from now on (ValueError if one of
    them is imported already: it would stay as it is)."""
    names = module_names()
    loaded = [name for name in names if name in sys.modules]
    if loaded:
        raise ValueError(f"force_pure: already imported: {', '.join(loaded)}")
    build.run_sources(names)
