"""Tests of bots/traxit/: the bots' choices (pure) and `tei engine --game traxit` (`process`)."""
