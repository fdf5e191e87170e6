"""Lightning-flavoured mini framework and a regression module (python -m lit_style.main)."""
