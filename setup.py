"""The build: the Tak core and search listed in bots/compiled.txt are compiled with mypyc
whenever a C compiler and the Python headers are there; otherwise, or if compiling fails,
the install is pure Python and says why (see docs/performance.md).

TEI_HOST_PURE=1 asks for pure Python; TEI_HOST_COMPILE=1 makes a failed compile an error.
Either way `rules/build.json` records the outcome (the build, the modules, a hash of each
compiled source, the reason for a pure build): `rules.build` reads it at run time, so
`tei --version` names the build and an edited source is never run from a stale binary.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).parent
sys.path.insert(0, str(ROOT / "tools"))
from toolchain import build_mode, missing  # noqa: E402

LISTED = ROOT.joinpath("bots", "compiled.txt").read_text().split()
MANIFEST = Path("rules", "build.json")


def manifest(build: str, reason: str = "") -> str:
    sources = {p: hashlib.sha256(ROOT.joinpath(p).read_bytes()).hexdigest() for p in LISTED}
    modules = [p.removesuffix(".py").replace("/", ".") for p in LISTED]
    body: dict[str, Any] = {"build": build, "modules": modules}
    body.update({"sources": sources} if build == "compiled" else {"reason": reason})
    return json.dumps(body, indent=1) + "\n"


def say(text: str) -> None:
    print(f"tei-host: {text}", file=sys.stderr, flush=True)


def write_manifest(text: str, *roots: Path) -> None:
    for root in roots:
        target = root / MANIFEST
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


class FallbackBuildExt(build_ext):
    """build_ext that, unless a compiled build was required, falls back to pure Python
    when the C build fails, and writes the manifest for the build that was made."""

    def run(self) -> None:
        roots = [ROOT] if self.inplace else [ROOT, Path(self.build_lib)]
        try:
            super().run()
        except Exception as exc:
            if build_mode() == "required":
                raise
            reason = f"compiling failed ({type(exc).__name__}: {exc})"
            say(f"building pure Python: {reason}; the search runs about 4x slower")
            for extension in self.extensions:  # a part built before the failure is not kept
                Path(self.get_ext_fullpath(extension.name)).unlink(missing_ok=True)
            self.extensions = []
            write_manifest(manifest("pure", reason), *roots)
            return
        write_manifest(manifest("compiled"), *roots)


def compiled_extensions() -> tuple[list[Any], str]:
    """The extension modules to build and, when there are none, why."""
    mode = build_mode()
    if mode == "pure":
        return [], "TEI_HOST_PURE=1 asked for pure Python"
    reason = missing()
    if reason is None:
        try:
            from mypyc.build import mypycify

            return mypycify(LISTED, opt_level="3"), ""
        except ImportError as exc:
            reason = f"mypyc is not installed in the build environment ({exc})"
        except BaseException as exc:  # mypyc reports type errors by SystemExit
            if mode == "required":
                raise
            reason = f"mypyc failed ({type(exc).__name__}: {exc})"
    if mode == "required":
        raise SystemExit(f"TEI_HOST_COMPILE=1, but the compiled build cannot be made: {reason}")
    say(f"building pure Python: {reason}; the search runs about 4x slower")
    return [], reason


extensions, why_pure = compiled_extensions()
if not extensions:
    write_manifest(manifest("pure", why_pure), ROOT)
setup(ext_modules=extensions, cmdclass={"build_ext": FallbackBuildExt})
