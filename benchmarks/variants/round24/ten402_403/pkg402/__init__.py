"""Tiny trainer package: snapshot helpers live in snapshots.py, used from callbacks.py."""
