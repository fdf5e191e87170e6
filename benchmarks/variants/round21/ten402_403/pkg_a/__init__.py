"""Tiny training package: snapshots are taken by helpers in ckpt.py and used in trainer.py/main.py."""
