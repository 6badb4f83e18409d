"""The built-in traxit bots."""
