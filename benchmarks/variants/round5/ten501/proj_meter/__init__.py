"""Image-classification training package (meters + engine + entry point)."""
