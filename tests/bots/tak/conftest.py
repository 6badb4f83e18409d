"""Tests of bots/tak/: the bots' choices (pure) and `tei engine --game tak` (`process`)."""
