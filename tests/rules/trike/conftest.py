"""Tests of rules/trike/: positions, moves, notation and property tests of the core (pure)."""
