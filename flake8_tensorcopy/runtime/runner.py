"""Run a program as ``__main__`` exactly as ``python`` runs it, and start the watcher when the
program itself imports torch (imports no torch).

What ``python script.py`` / ``python -m module`` give a program, and what this module gives it:

- ``sys.path[0]``: the script's folder (for ``-m``, the working directory), in place of the
  launcher's own entry (the console script's folder, or the working directory that ``python -m
  flake8_tensorcopy`` put there); nothing under ``-P``/``PYTHONSAFEPATH``;
- a real ``__main__`` module in ``sys.modules`` that stays there after the code ran (an
  ``atexit`` handler can pickle a class defined in it), with python's globals (``__file__``
  absolute, ``__spec__`` None for a script and the module's spec under ``-m``, ``__loader__``,
  ``__cached__``, ``__builtins__``), the code compiled under its absolute path;
- ``sys.argv`` as python sets it (under ``-m``, ``argv[0]`` is the module's file);
- an exception that ends the program goes to ``sys.excepthook`` (the program's own, if it set
  one), its traceback holding the program's frames only; ``SystemExit`` is raised again for
  python to turn into the status; threads, ``atexit`` handlers, signals and the exit by SIGINT
  after a ``KeyboardInterrupt`` are python's own (the caller reports from an ``atexit`` handler
  registered before the program runs, so after the program's handlers and its threads).

``after_import("torch", start)``: the watcher is started right after the program's own ``import
torch`` has finished (a ``sys.meta_path`` finder that steps aside once it has fired): torch reads
the environment the program set up first (``OMP_NUM_THREADS``...), and a program that never
imports torch never loads it.
"""
from __future__ import annotations

import builtins
import importlib.machinery
import importlib.util
import os
import sys
import types
from typing import Callable, List, Optional

from .places import hide_frames


class Target:
    """The code to run, the ``__main__`` module to run it in, and the ``sys.path[0]`` and
    ``sys.argv`` python would give it."""

    def __init__(self, module: Optional[str], path: Optional[str], argv: List[str]) -> None:
        self.module_name, self.path, self.argv = module, path, list(argv)
        self.code: Optional[types.CodeType] = None
        self.main: Optional[types.ModuleType] = None
        self.path0: Optional[str] = None

    def prepare(self) -> None:
        """Find and compile the code (may raise ImportError/SyntaxError/OSError: the caller
        reports it as python would)."""
        main = types.ModuleType("__main__")
        g = main.__dict__
        g["__builtins__"] = builtins
        g["__annotations__"] = {}  # python's own __main__ starts with it
        if self.module_name is not None:
            self.path0 = os.getcwd()
            spec = importlib.util.find_spec(self.module_name)
            if spec is None:
                raise ImportError(f"No module named {self.module_name}")
            if spec.submodule_search_locations is not None:  # a package: its __main__
                spec = importlib.util.find_spec(self.module_name + ".__main__")
                if spec is None:
                    raise ImportError(f"No module named {self.module_name}.__main__; "
                                      f"'{self.module_name}' is a package and cannot be "
                                      "directly executed")
            self._from_spec(spec, g)
            self.argv[0] = spec.origin or self.argv[0]
        elif os.path.isdir(self.path) or not self.path.endswith(".py") and \
                _is_zip(self.path):
            # a folder or zip with __main__.py: python runs it as the module ``__main__`` found
            # there, with the folder first on the path
            self.path0 = self.path
            finder = importlib.machinery.PathFinder
            spec = finder.find_spec("__main__", [os.path.abspath(self.path)])
            if spec is None:
                raise ImportError(f"can't find '__main__' module in {self.path!r}")
            self._from_spec(spec, g, package="")
            g["__spec__"] = spec
        else:
            full = os.path.abspath(self.path)
            self.path0 = os.path.dirname(full)
            with open(full, "rb") as fh:
                source = fh.read()
            self.code = compile(source, full, "exec", dont_inherit=True)
            g.update(__file__=full, __cached__=None, __spec__=None, __package__=None,
                     __loader__=importlib.machinery.SourceFileLoader("__main__", full))
        self.main = main

    def _from_spec(self, spec, g: dict, package: Optional[str] = None) -> None:
        loader = spec.loader
        self.code = loader.get_code(spec.name)
        if self.code is None:
            raise ImportError(f"No code object available for {spec.name}")
        g.update(__file__=spec.origin, __cached__=spec.cached, __spec__=spec,
                 __loader__=loader, __package__=spec.parent if package is None else package)

    def run(self, excepthook_skip: int = 1) -> Optional[BaseException]:
        """Run the code as ``__main__``; None when it ended normally, else the exception that
        ended it (already handed to ``sys.excepthook``, except ``SystemExit``)."""
        sys.modules["__main__"] = self.main
        sys.argv = self.argv
        if not getattr(sys.flags, "safe_path", False):  # python -P: no path entry
            if sys.path:
                sys.path[0] = self.path0
            else:
                sys.path.insert(0, self.path0)
        try:
            exec(self.code, self.main.__dict__)
        except SystemExit as exc:
            return exc
        except BaseException as exc:
            tb = exc.__traceback__
            for _ in range(excepthook_skip):  # this frame: not the program's
                tb = tb.tb_next if tb is not None else None
            exc.__traceback__ = tb
            excepthook(exc)
            return exc
        return None


def _is_zip(path: str) -> bool:
    import zipfile

    return os.path.isfile(path) and zipfile.is_zipfile(path)


def excepthook(exc: BaseException) -> None:
    """Hand an exception that ended the program to ``sys.excepthook``, as python does (setting
    ``sys.last_*`` first; a hook that fails is reported and the exception printed by the
    default hook)."""
    kind, tb = type(exc), exc.__traceback__
    sys.last_type, sys.last_value, sys.last_traceback = kind, exc, tb
    hook = getattr(sys, "excepthook", None)
    if hook is None:
        sys.stderr.write("sys.excepthook is missing\n")
        return
    try:
        hook(kind, exc, tb)
    except BaseException as err:  # python: "Error in sys.excepthook:", then both printed
        sys.stderr.write("Error in sys.excepthook:\n")
        sys.__excepthook__(type(err), err, err.__traceback__)
        sys.stderr.write("\nOriginal exception was:\n")
        sys.__excepthook__(kind, exc, tb)


class _Loader:
    """The loader of the module being watched for: the original's, then ``done``."""

    def __init__(self, loader, done: Callable[[], None]) -> None:
        self._loader, self._done = loader, done

    def __getattr__(self, name):
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module) -> None:
        try:
            self._loader.exec_module(module)
        except BaseException as exc:  # the import's traceback, without this frame
            hide_frames(exc)
            raise
        finally:  # the module's spec and loader are the original's again
            spec = getattr(module, "__spec__", None)
            if spec is not None and spec.loader is self:
                spec.loader = self._loader
            if getattr(module, "__loader__", None) is self:
                module.__loader__ = self._loader
        self._done()


class AfterImport:
    """A ``sys.meta_path`` finder that calls ``callback()`` once, right after the module
    ``name`` has been imported by whoever imports it first; it finds nothing itself (the other
    finders' spec is used) and leaves ``sys.meta_path`` when it has fired or is removed."""

    def __init__(self, name: str, callback: Callable[[], None]) -> None:
        self.name, self.callback = name, callback
        self.fired = False

    def install(self) -> "AfterImport":
        if self.name in sys.modules:
            self._fire()
        else:
            sys.meta_path.insert(0, self)
        return self

    def remove(self) -> None:
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name or self.fired:
            return None
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _Loader(spec.loader, self._fire)
        return spec

    def _fire(self) -> None:
        if self.fired:
            return
        self.fired = True
        self.remove()
        try:
            self.callback()
        except Exception as exc:  # never raise into the program's import
            try:
                sys.stderr.write(f"tensorcopy: warning: the runtime watcher did not start "
                                 f"({type(exc).__name__}: {exc})\n")
            except Exception:  # pragma: no cover - stderr closed
                pass


def after_import(name: str, callback: Callable[[], None]) -> AfterImport:
    """Call ``callback()`` once ``name`` is imported (now, if it already is)."""
    return AfterImport(name, callback).install()
