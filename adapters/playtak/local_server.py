"""`python -m adapters.playtak.local_server`: the earlier name of
`python -m adapters.playtak.server` (the local playtak-compatible server), kept so
existing scripts go on working."""

import sys

from adapters.playtak.server.listeners import main

if __name__ == "__main__":
    sys.exit(main())
