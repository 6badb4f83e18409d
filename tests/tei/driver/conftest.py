"""Tests of tei/driver/: the engine driver's pure parts, and the driver against fake engines
in real subprocesses (those modules are marked `process`)."""
