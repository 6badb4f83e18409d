"""`python -m adapters.playtak.server`: the local playtak-compatible server."""

import sys

from adapters.playtak.server.listeners import main

sys.exit(main())
