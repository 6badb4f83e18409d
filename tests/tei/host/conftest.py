"""Tests of tei/host/: HostState (pure, time an input) and `tei engine` as a real subprocess
(those modules are marked `process`)."""
