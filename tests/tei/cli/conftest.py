"""Tests of tei/cli/: help, usage errors and config files in-process (pure), and the commands
and the docs' examples run as real subprocesses (marked `process`)."""
