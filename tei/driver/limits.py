"""The driver's search limits, as `go` sends them."""

from __future__ import annotations

import attrs

from tei.protocol_messages import GoLimits


@attrs.frozen
class Limits(GoLimits):
    """The limits of one search, as TEI `go` gives them (times in milliseconds; the
    fields are `GoLimits`')."""
