"""Tests of adapters/: the referee, the playtak bridge and server, the stream and the web views."""
