"""Loss construction in model.py, bookkeeping in recorder.py / state.py."""
