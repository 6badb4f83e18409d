"""Tests of bots/: the built-in players, their searches and the compiled build.

A test that drives a bot through `tei engine` in a subprocess is marked `process`."""
