"""Tests of adapters/web/: `tei serve` and the live view, pure parts and real servers
(`process`), and a real Chromium on their pages (`browser`)."""
