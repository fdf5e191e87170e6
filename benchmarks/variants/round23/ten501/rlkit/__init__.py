"""Toy actor-critic package."""
