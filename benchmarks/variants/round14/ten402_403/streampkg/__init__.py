"""Streaming feature extraction (run: python -m streampkg.main)."""
