"""The project index, handed to the analysis of a linted file as a value (``FileContext``).

Its parts are imported when first named: ``finder`` alone stays light (the flake8 plugin's
pre-filter asks it what the project's modules hold before the engine is imported)."""
from typing import Any

__all__ = ["ClassFacts", "FuncFacts", "ModuleFacts", "SERVER_MODULES", "FileContext",
           "ProjectIndex", "dependencies", "dependency_states", "find_root", "index", "take_notes"]


def __getattr__(name: str) -> Any:
    if name in ("ClassFacts", "FuncFacts", "ModuleFacts"):
        from . import facts as where
    elif name == "FileContext":
        from . import context as where  # type: ignore[no-redef]
    elif name == "find_root":
        from . import roots as where  # type: ignore[no-redef]
    elif name in __all__:
        from . import resolve as where  # type: ignore[no-redef]
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(where, name)
    globals()[name] = value
    return value
