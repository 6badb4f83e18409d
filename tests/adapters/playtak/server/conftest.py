"""Tests of adapters/playtak/server/: the local server's lobby as a sans-IO core (pure) and
over real sockets on 127.0.0.1 (`socket`). The playtak folder's loopback guard applies."""
