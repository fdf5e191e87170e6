"""Tiny checkpoint utilities package (TEN402 cases live in snapshots.py and store.py)."""
