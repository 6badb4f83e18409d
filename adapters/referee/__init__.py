"""The local referee (`tei match`): schedules games between TEI engines, runs them over
the driver, judges them with the rules cores, and writes records and statistics."""
