"""The root of every error the `tei` package raises on purpose."""

from __future__ import annotations


class TeiError(Exception):
    """Base of tei's errors: the codec's `ProtocolError`, the driver's `EngineError`, ..."""
