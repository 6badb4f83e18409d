"""The optional compiled build: with TEI_HOST_COMPILE=1 in the environment, `pip install .`
(or `pip install -e .`) compiles the Tak core and search listed in bots/compiled.txt with
mypyc (see docs/performance.md). Without it the install is pure Python."""

import os
from pathlib import Path

from setuptools import setup

if os.environ.get("TEI_HOST_COMPILE", "") == "1":
    from mypyc.build import mypycify

    listed = Path(__file__).parent.joinpath("bots", "compiled.txt").read_text().split()
    setup(ext_modules=mypycify(listed, opt_level="3"))
else:
    setup()
