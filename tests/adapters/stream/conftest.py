"""Tests of adapters/stream/: the event bus and the live state built from events (pure)."""
