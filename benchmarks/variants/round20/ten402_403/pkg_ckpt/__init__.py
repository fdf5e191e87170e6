"""Checkpoint helpers and a small trainer that uses them."""
