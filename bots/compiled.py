"""The optional compiled build of the Tak core and search (mypyc; see docs/performance.md).

`TEI_HOST_COMPILE=1 pip install .` (or `-e .`) compiles the modules listed in
`bots/compiled.txt`; Python then imports the extension modules in place of the sources,
which stay installed beside them. `compiled()` says which modules this process runs
compiled; `force_pure()` (called before those modules are first imported) makes a process
import their sources instead, so the two builds can be compared on one install.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from types import ModuleType


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
    """A one-line account of the build, for benchmarks and reports."""
    names = compiled()
    total = len(module_names())
    return f"compiled ({len(names)} of {total} modules)" if names else "pure Python"


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules' `.py` files, ignoring extension modules beside them."""

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


def force_pure() -> None:
    """Import the listed modules from their sources from now on (ValueError if one of
    them is imported already: it would stay as it is)."""
    names = module_names()
    loaded = [name for name in names if name in sys.modules]
    if loaded:
        raise ValueError(f"force_pure: already imported: {', '.join(loaded)}")
    sys.meta_path.insert(0, _SourceFinder(names))
