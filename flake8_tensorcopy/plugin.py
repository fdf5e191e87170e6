"""flake8 entry point. Takes ``lines`` (what the editor sends), never re-reads the file.

Importing this module stays cheap (flake8 imports every plugin on every run, an editor on every
keystroke's save): the engine is imported only when a file passes the text and
``ast`` pre-filters (``prefilter.py``), which most files never do.
"""
from __future__ import annotations

import ast
import gc
import os
from typing import Any, Generator, List, Optional, Tuple

from . import __version__
from .lint import LintError, candidates, keep_facts_only, load_engine
from .syntax.source import know_lines


def _split(value: Any) -> List[str]:
    if not value:
        return []
    if isinstance(value, (list, tuple)):
        items = [str(v) for v in value]
    else:
        items = [str(value)]
    out: List[str] = []
    for item in items:
        out.extend(part.strip() for part in item.replace("\n", ",").split(",") if part.strip())
    return out


def _in_config_folder(normalize: Any) -> Any:
    """``normalize`` of an option holding folders, taking each one read from a configuration
    file as relative to that file's folder: flake8 calls an option's ``normalize(value,
    cfg_dir)`` for a configuration file's value only, and by itself makes absolute only paths
    with a separator in them (``lib`` would stay relative, then be taken from the working
    directory: ``flake8 .`` in a subfolder would look in the wrong place). A value from the
    command line is relative to the working directory (``parse_options``)."""
    def normalized(value: Any, *args: str) -> Any:
        value = normalize(value, *args)
        if args and isinstance(args[0], str):
            return [os.path.join(args[0], v) for v in _split(value)]
        return value
    return normalized


def _load_engine() -> None:
    """Import the engine (once a process), then move what exists at that point (the engine's
    classes, functions and tables, flake8's own options and plugins) out of the cyclic
    collector's view with ``gc.freeze``: it lives as long as the process, and each later
    collection walked it again for nothing. An editor's run on a 566-line training script:
    1,023 -> 982 million instructions for the whole flake8 process (flake8 alone: 866). What
    the analyses make afterwards is collected as before; only cyclic garbage already pending at
    that one moment stays until the process ends.

    The project index keeps no tree between files here (``keep_facts_only``): the trees a
    file's analysis read are let go before the collector runs again, their facts kept."""
    if load_engine():
        keep_facts_only()
        gc.freeze()


def _internal_error(exc: BaseException) -> str:
    """TEN001's text for a bug met while analysing a file (``tensorcopy check`` shows the same
    error on its error line): the file was not analysed, and says so."""
    from .diagnostics import NOT_ANALYSED

    what = f"{type(exc).__name__}: {exc}".splitlines()[0] if str(exc) else type(exc).__name__
    return (f"{NOT_ANALYSED} file could not be analysed, no TEN rule was checked: internal "
            f"error ({what})")


class TensorCopyChecker:
    name = "flake8-tensorcopy"
    version = __version__
    #: (tensor names, tensor factories, source roots) from the options; a ``Config`` is built
    #: from them on first use
    options: Tuple[Tuple[str, ...], ...] = ((), (), ())
    config: Optional[Any] = None

    def __init__(self, tree: Any, lines: List[str], filename: str = "") -> None:
        # ``tree`` makes flake8 treat this as a per-file plugin; the text comes from ``lines``,
        # and the tree feeds the cheap pre-filter that decides whether the engine must run at all.
        # ``filename`` (on stdin: --stdin-display-name) locates the project index.
        self.tree = tree
        self.lines = lines
        self.filename = filename if filename not in ("stdin", "-") else ""

    @classmethod
    def add_options(cls, parser: Any) -> None:
        parser.add_option(
            "--tensorcopy-tensor-names", default="", parse_from_config=True,
            comma_separated_list=True,
            help="Extra names that denote tensor types (e.g. mylib.Tensor); comma separated.",
        )
        parser.add_option(
            "--tensorcopy-tensor-factories", default="", parse_from_config=True,
            comma_separated_list=True,
            help="Extra functions that return tensors (e.g. mylib.make_tensor); comma separated.",
        )
        parser.add_option(
            "--tensorcopy-source-roots", default="", parse_from_config=True,
            comma_separated_list=True,
            help="Extra directories the project's absolute imports resolve under; comma separated "
                 "(in a configuration file: relative to its folder).",
        )
        option = getattr(parser, "config_options_dict", {}).get("tensorcopy_source_roots")
        if option is not None and callable(getattr(option, "normalize", None)):
            option.normalize = _in_config_folder(option.normalize)

    @classmethod
    def parse_options(cls, options: Any) -> None:
        cls.options = (
            tuple(_split(getattr(options, "tensorcopy_tensor_names", ""))),
            tuple(_split(getattr(options, "tensorcopy_tensor_factories", ""))),
            tuple(os.path.abspath(r)
                  for r in _split(getattr(options, "tensorcopy_source_roots", ""))),
        )
        cls.config = None
        # flake8 has loaded its plugins and read its options: what exists now (flake8's
        # application, options and plugins, this module's tables) lives as long as the process.
        # Out of the cyclic collector's view, no later collection walks it again, nor the one at
        # the interpreter's exit (an editor's run on a file without candidates, where the
        # engine never loads: 16 ms of 242). A child that flake8 forks for ``--jobs`` shares
        # these pages instead of copying them. Only cyclic garbage pending at this one moment
        # stays until the process ends.
        gc.freeze()

    def _diagnose(self, source: str, planned: Any) -> list:
        from .config import Config
        from .lint import diagnose  # only now: the engine's import is most of ours

        _load_engine()
        know_lines(source, self.lines)  # the engine's positions need them: from the lines

        cls = type(self)
        if cls.config is None:
            names, factories, roots = cls.options
            cls.config = Config(tensor_names=list(names), tensor_factories=list(factories),
                                source_roots=list(roots))
        # flake8 selects codes and reads ``# noqa`` itself: the raw diagnostics
        return diagnose(source, self.filename or None, cls.config, raw=True, tree=self.tree,
                        planned=planned)

    def run(self) -> Generator[Tuple[int, int, str, type], None, None]:
        try:
            source = "".join(self.lines)
            tree = self.tree if isinstance(self.tree, ast.Module) else None
            planned = candidates(source, tree, self.filename or None, type(self).options[2])
            if planned is None:
                return
            if planned is True:
                planned = None
            # the engine's import and the analysis make thousands of objects that outlive them
            # (classes, functions, tables) or hold no cycle: the cyclic collector would walk them
            # again and again for nothing (editor run: 53 collections instead of 59 per process)
            paused = gc.isenabled()
            if paused:
                gc.disable()
            try:
                diags = self._diagnose(source, planned)
            finally:
                if paused:
                    gc.enable()
        except (SyntaxError, LintError):  # flake8 reports E999 for broken syntax itself
            return
        except Exception as exc:  # no exception may escape, and no file may look clean for it
            yield 1, 0, _internal_error(exc), type(self)
            return
        for d in diags:
            yield d.line, d.column, d.text, type(self)
