"""The web package's one error root: an address or a request it cannot serve."""


class WebError(ValueError):
    """Something the live view cannot do as asked (the message names the input)."""
