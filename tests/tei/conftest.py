"""Tests of tei/: the protocol codec, lines, seats, the checker and the shared rules.

The checker's tests run engines (marked `process`)."""
