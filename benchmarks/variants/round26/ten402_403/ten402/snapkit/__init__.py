"""Tiny training toolkit: models, snapshot helpers, callbacks and a trainer."""
