"""Tests of rules/tak/: positions, moves, notation and property tests of the core (pure)."""
