"""The event stream every venue shares: what a match or a playtak bot tells its watchers.

`events` (the typed events, match start/drain/stop/SPRT included), `announce` (events
built from a game, its clocks and an engine's info), `bus` (the bounded fan-out to
subscribers: the terminal, the live page, a JSON file) and `live_state` (what a watcher
sees, rebuilt from the events). The referee, the playtak bridge and the web pages
import it; it imports none of them.
"""
