"""Tests of adapters/analyse/: the sans-IO parts (pure) and `tei analyse` end to end (`process`)."""
