"""What a browser sees: the TEI websocket endpoint (`tei serve`) and the live view of
matches and playtak games."""
