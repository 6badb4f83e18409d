"""The playtak.com adapter: protocol codec, transports, session, engine bridge, local server."""
