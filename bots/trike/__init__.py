"""The built-in trike bots."""
