"""Build backend: setuptools, plus mypy (for mypyc) when TEI_HOST_COMPILE=1 asks for the
compiled build (see setup.py)."""

import os
import tomllib
from pathlib import Path
from typing import Any

from setuptools.build_meta import *  # noqa: F403  (the rest of the backend as it is)

COMPILER = "mypy>=2.4,<2.5"


def _compiler() -> list[str]:
    """mypy and the project's own dependencies (mypyc type-checks every module the
    compiled ones import). setup.py declares no build requirements of its own, so it is
    not run to find them (it needs mypyc already when compiling)."""
    if os.environ.get("TEI_HOST_COMPILE", "") != "1":
        return []
    project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
    return [COMPILER, *project["dependencies"]]


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _compiler()


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return _compiler()


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []
