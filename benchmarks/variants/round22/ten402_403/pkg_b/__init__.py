"""TEN403 across modules: shift helpers used by buffer classes in another module."""
