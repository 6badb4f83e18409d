"""A local playtak-compatible server: a tool for trying bots offline and for tests.

`python -m adapters.playtak.server` runs it. The client side of the adapter never
imports this package.
"""
