from .tracking import flush, get_history, log_scalar

__all__ = ["log_scalar", "flush", "get_history"]
