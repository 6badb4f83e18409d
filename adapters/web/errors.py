"""The web package's one error root: an address or a request it cannot serve."""


class WebError(ValueError):
    """Something the web endpoints cannot do as asked (the message names the input)."""
