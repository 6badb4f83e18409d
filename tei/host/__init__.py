"""The engine host: a pure `HostState` (state.py) and the loop that feeds it lines (loop.py)."""
