"""Tiny GAN trainer with callbacks."""
