"""Traxit: a 2-4 player race up a stepped pyramid, moving along tiles an opponent picks."""
