"""Detection-reference-style training package (engine + metric logger + utils)."""
