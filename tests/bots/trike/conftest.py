"""Tests of bots/trike/: the bots' choices (pure) and `tei engine --game trike` (`process`)."""
