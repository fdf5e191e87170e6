"""The fixes as a libcst codemod:

    python -m libcst.tool codemod -x flake8_tensorcopy.codemod.FixTensorCopy PATH [--unsafe-fixes]

(``-x`` tells libcst the command lives outside its configured codemod modules.)

The codemod delegates to the same fixer as ``tensorcopy fix`` (one implementation of every fix).
"""
from __future__ import annotations

import argparse

import libcst as cst
from libcst.codemod import CodemodContext, SkipFile, VisitorBasedCodemodCommand

from .fixes import fix_source


class FixTensorCopy(VisitorBasedCodemodCommand):
    DESCRIPTION = "Rewrite tensor-copy mistakes (flake8-tensorcopy fixes; safe ones by default)."

    def __init__(self, context: CodemodContext, unsafe_fixes: bool = False,
                 select: str = "TEN", ignore: str = "") -> None:
        super().__init__(context)
        self.unsafe = unsafe_fixes
        self.select = tuple(s.strip() for s in select.split(",") if s.strip()) or ("TEN",)
        self.ignore = tuple(s.strip() for s in ignore.split(",") if s.strip())

    @staticmethod
    def add_args(arg_parser: argparse.ArgumentParser) -> None:
        arg_parser.add_argument("--unsafe-fixes", dest="unsafe_fixes", action="store_true",
                                help="also apply unsafe fixes")
        arg_parser.add_argument("--select", dest="select", default="TEN",
                                help="code prefixes to fix, comma separated")
        arg_parser.add_argument("--ignore", dest="ignore", default="",
                                help="code prefixes to leave alone, comma separated")

    def transform_module(self, tree: cst.Module) -> cst.Module:
        result = fix_source(tree.code, unsafe=self.unsafe, select=self.select, ignore=self.ignore)
        if not result.changed:
            raise SkipFile("nothing to fix")
        return cst.parse_module(result.source)
