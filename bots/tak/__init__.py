"""The built-in tak bots."""
