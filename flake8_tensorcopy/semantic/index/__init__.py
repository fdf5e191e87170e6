"""The project index, handed to the analysis of a linted file as a value (``FileContext``)."""
from .facts import ClassFacts, FuncFacts, ModuleFacts
from .context import FileContext
from .resolve import (
    SERVER_MODULES, ProjectIndex, dependencies, dependency_states, find_root, index, take_notes,
)

__all__ = ["ClassFacts", "FuncFacts", "ModuleFacts", "SERVER_MODULES", "FileContext",
           "ProjectIndex", "dependencies", "dependency_states", "find_root", "index", "take_notes"]
