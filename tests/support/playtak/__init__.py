"""Helpers for the playtak tests: a raw line client and a misbehaving TEI engine."""
