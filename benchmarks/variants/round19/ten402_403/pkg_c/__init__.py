"""Tiny training package: checkpoint helpers live apart from the loop."""
