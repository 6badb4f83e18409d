"""What a browser sees: the TEI websocket endpoint (`tei serve`)."""
