"""The referee's one error root: every setting, file or match the referee refuses."""


class RefereeError(ValueError):
    """Something the referee cannot do as asked (the message names the input)."""
