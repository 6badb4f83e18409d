"""Whether this machine can build the compiled Tak core: a C compiler that compiles a file
including the Python headers. Used by the build backend (to ask for mypy only when it can
be used) and by setup.py (to say why a build fell back to pure Python)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sysconfig
import tempfile
from pathlib import Path

PROBE = "#include <Python.h>\nint probe(void) { return PY_MAJOR_VERSION; }\n"


def build_mode() -> str:
    """`pure` (TEI_HOST_PURE=1), `required` (TEI_HOST_COMPILE=1: a failure is an error)
    or `auto` (compile where possible, else pure Python)."""
    if os.environ.get("TEI_HOST_PURE", "") == "1":
        return "pure"
    if os.environ.get("TEI_HOST_COMPILE", "") == "1":
        return "required"
    return "auto"


def compiler() -> list[str]:
    """The C compiler command setuptools will use ($CC, else the one Python was built with)."""
    return shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")


def missing() -> str | None:
    """Why the compiled build cannot be made here, or None when a test compile works."""
    command = compiler()
    if not command or shutil.which(command[0]) is None:
        return f"no C compiler ({' '.join(command) or 'CC is empty'} not found)"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").is_file():
        return f"no Python headers ({include}/Python.h not found; on Debian: python3-dev)"
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch, "probe.c")
        source.write_text(PROBE)
        try:
            done = subprocess.run(
                [*command, "-I", include, "-c", str(source), "-o", str(Path(scratch, "p.o"))],
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            return f"the C compiler {command[0]!r} did not run ({exc})"
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["no message"])[0]
        return f"the C compiler {command[0]!r} failed on a test file ({first})"
    return None
