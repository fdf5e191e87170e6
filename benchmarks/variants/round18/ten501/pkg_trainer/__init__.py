"""Small image-classification-style training package (run: python -m pkg_trainer.main)."""
