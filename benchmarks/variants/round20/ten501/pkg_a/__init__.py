"""Supervised training split over a few modules."""
