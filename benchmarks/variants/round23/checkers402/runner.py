"""Run a program with a `_chk_fix` builtin installed (subprocess variant).

usage: runner.py TEN402|TEN403 path FILE  |  runner.py TEN402|TEN403 -m MODULE
"""
import builtins
import os
import runpy
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from runner_lib import fix402, fix403  # noqa: E402

rule, kind, target = sys.argv[1:4]
builtins._chk_fix = fix402 if rule == "TEN402" else fix403
sys.argv = [target]
if kind == "-m":
    sys.path.insert(0, os.getcwd())
    runpy.run_module(target, run_name="__main__", alter_sys=True)
else:
    sys.path.insert(0, os.path.dirname(os.path.abspath(target)))
    runpy.run_path(target, run_name="__main__")
