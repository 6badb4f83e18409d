"""Tests of rules/: the pure game cores (Tak, Trike, Traxit), their notation and pictures.

Pure but for the few tests that run `tei show` or the build (marked `process`)."""
