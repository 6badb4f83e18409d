"""Tests of adapters/playtak/: every test here reaches 127.0.0.1 only and leaves no child
process or socket behind (the autouse `loopback_only` of tests/support/playtak/guard.py)."""

from tests.support.playtak.guard import loopback_only  # noqa: F401
