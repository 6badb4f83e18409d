"""The layers of the four packages, read from the source with `ast`: tei.cli (the `tei`
command, its option helpers and config loader) is the top, imported by nothing of
rules/, tei/, adapters/ or bots/ but its own modules and `python -m tei`; rules import
no other package; tei/ outside tei.cli imports no adapters; bots import no tei."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "tei", "adapters", "bots")
#: modules that may import tei.cli besides its own: the entry point of `python -m tei`
ENTRY_POINTS = ("tei.__main__",)


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, root: Path = ROOT) -> Iterator[tuple[int, str]]:
    """Each module imported anywhere in the file (in functions too), with its line:
    `from a import b` gives `a.b` (b may be a module) and `a`."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module_name(path, root).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def sources() -> list[Path]:
    return sorted(path for name in PACKAGES for path in (ROOT / name).rglob("*.py"))


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def offences(forbidden: str, importers: str, allowed: tuple[str, ...] = ()) -> list[str]:
    """`FILE:LINE imports NAME` for each import of `forbidden` by a module of `importers`
    that is neither inside `forbidden` nor inside one of `allowed`."""
    found = []
    for path in sources():
        name = module_name(path)
        if not within(name, importers) or any(within(name, m) for m in (forbidden, *allowed)):
            continue
        for line, target in imported(path):
            if within(target, forbidden):
                found.append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    return sorted(set(found))


@pytest.mark.parametrize("package", PACKAGES)
def test_nothing_below_the_command_line_imports_it(package: str) -> None:
    assert offences("tei.cli", package, ENTRY_POINTS) == []


@pytest.mark.parametrize(
    ("forbidden", "importers"),
    [
        ("tei", "rules"),
        ("adapters", "rules"),
        ("bots", "rules"),
        ("adapters", "tei"),
        ("tei", "bots"),
        ("adapters", "bots"),
    ],
)
def test_the_packages_import_downwards(forbidden: str, importers: str) -> None:
    allowed = ("tei.cli", *ENTRY_POINTS) if importers == "tei" else ()
    assert offences(forbidden, importers, allowed) == []


def test_the_walk_finds_every_form_of_import(tmp_path: Path) -> None:
    """Plain, `from` and relative imports, in functions too, each with its line."""
    path = tmp_path / "adapters" / "web" / "x.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        "def f():\n    from tei import cli\n    import tei.cli.options\n"
        "from ...tei.cli import config\nfrom . import live\n"
    )
    found = set(imported(path, tmp_path))
    assert {(2, "tei.cli"), (3, "tei.cli.options"), (4, "tei.cli.config")} <= found
    assert (5, "adapters.web.live") in found
