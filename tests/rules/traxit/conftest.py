"""Tests of rules/traxit/: positions, moves, notation and property tests of the core (pure)."""
