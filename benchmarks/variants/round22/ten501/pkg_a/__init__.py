"""Trainer split over modules: meters live in meters.py, the loop in engine.py."""
