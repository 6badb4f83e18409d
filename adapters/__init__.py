"""Connections from engines to venues: the local referee and the playtak adapter."""
