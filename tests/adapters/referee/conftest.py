"""Tests of adapters/referee/: the pure match parts, `tei match` with real engine processes
(`process`) and with a real Dask cluster (`cluster`)."""
