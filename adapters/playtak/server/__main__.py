"""`python -m adapters.playtak.server`: the local playtak-compatible server."""

import sys

from rules import build

build.guard()  # before the Tak core is imported: never a stale compiled module
from adapters.playtak.server.listeners import main  # noqa: E402

sys.exit(main())
