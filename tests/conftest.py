import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def run(args, *, input=None, cwd=None, env=None, timeout=120):
    """Run a command; returns CompletedProcess with text output."""
    return subprocess.run(args, input=input, capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=timeout)


def flake8(*args, input=None, cwd=None):
    return run([sys.executable, "-m", "flake8", *args], input=input, cwd=cwd)


def tensorcopy(*args, input=None, cwd=None, env=None):
    return run([sys.executable, "-m", "flake8_tensorcopy", *args], input=input, cwd=cwd, env=env)


@pytest.fixture
def write(tmp_path):
    def _write(name, text, mode="w", **kw):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if mode == "wb":
            path.write_bytes(text)
        else:
            with open(path, "w", newline="", **kw) as fh:
                fh.write(text)
        return path
    return _write
