"""ckptkit: tiny checkpoint utilities used by main.py."""
