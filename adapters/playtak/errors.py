"""The playtak adapter's one error root."""


class PlaytakError(Exception):
    """A failure of the playtak adapter: bad input, a lost or refused connection, a bridge
    that cannot play (the message says which)."""
