"""Build backend: setuptools, plus mypy (for mypyc) in the build environment whenever the
compiled build will be tried (see setup.py and tools/toolchain.py): not with
TEI_HOST_PURE=1, and not where no C compiler and Python headers are found (then the
install is pure Python without fetching mypy)."""

import sys
import tomllib
from pathlib import Path
from typing import Any

from setuptools.build_meta import *  # noqa: F403  (the rest of the backend as it is)

sys.path.insert(0, str(Path(__file__).parent))
from toolchain import build_mode, missing

COMPILER = "mypy>=2.4,<2.5"


def _compiler() -> list[str]:
    """mypy and the project's own dependencies (mypyc type-checks every module the
    compiled ones import). setup.py declares no build requirements of its own, so it is
    not run to find them (it needs mypyc already when compiling)."""
    mode = build_mode()
    if mode == "pure" or (mode == "auto" and missing() is not None):
        return []
    project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
    return [COMPILER, *project["dependencies"]]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _compiler()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _compiler()


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []
