"""The package's regular expressions come from the code kept for this interpreter
(``syntax/patterns.py``): the same patterns as ``re.compile``'s, written once, read back, and
never trusted when the file is not exactly this interpreter's."""
import importlib
import marshal
import os
import pkgutil
import re
import subprocess
import sys
import textwrap

import pytest

import flake8_tensorcopy
from flake8_tensorcopy.syntax import patterns
from flake8_tensorcopy.syntax.source import LazyPattern

from .conftest import ROOT

#: the front ends and the verifier import what the lint path does not (torch for some)
_SKIP = ("flake8_tensorcopy.verify", "flake8_tensorcopy.runtime", "flake8_tensorcopy.server",
         "flake8_tensorcopy.commands", "flake8_tensorcopy.semantic.torch_api.generate",
         "flake8_tensorcopy.__main__")


def _package_patterns():
    """Every module-level pattern of the lint path's modules: (module, name, pattern, flags)."""
    out = []
    for info in pkgutil.walk_packages(flake8_tensorcopy.__path__, "flake8_tensorcopy."):
        if info.name.startswith(_SKIP):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, LazyPattern):
                out.append((info.name, name, value.pattern, value.flags))
            elif isinstance(value, re.Pattern):
                out.append((info.name, name, value.pattern, value.flags & ~re.UNICODE))
            elif isinstance(getattr(value, "branches", None), tuple):  # ``prefilter.SHAPES``
                out.extend((info.name, f"{name}[{i}]", b.pattern, b.flags)
                           for i, b in enumerate(value.branches) if isinstance(b, LazyPattern))
    return out


def test_every_pattern_of_the_package_is_kept_exactly():
    found = _package_patterns()
    assert len(found) > 60  # the shapes, the index's text questions, noqa...
    for module, name, pattern, flags in found:
        expected = re.compile(pattern, flags)
        entry = patterns._entry(pattern, flags, expected)
        assert entry is not None, (module, name)
        made = patterns._sre.compile(pattern, *entry)
        assert made == expected and made.groupindex == expected.groupindex, (module, name)


def test_an_entry_that_does_not_make_the_same_pattern_is_refused():
    compiled = re.compile(r"(?P<a>x)+y", re.IGNORECASE)
    assert patterns._entry(r"(?P<a>x)+y", re.IGNORECASE, compiled) is not None
    # the same text without the flag compiles to other code: never stored for this key
    assert patterns._entry(r"(?P<a>x)+y", 0, compiled) is None


_PROBE = textwrap.dedent("""
    import json, re, sys
    from flake8_tensorcopy.syntax import patterns
    from flake8_tensorcopy.syntax.source import LazyPattern
    got = []
    for p, f in [(r"(?P<w>\\w+)-(\\d+)", 0), (r"# noqa(?::\\s?(?P<codes>[A-Z0-9, ]+))?", re.I),
                 (r"^[ \\t]*def\\b", re.M)]:
        c = patterns.compile_pattern(p, f)
        assert c == re.compile(p, f) and c.groupindex == re.compile(p, f).groupindex
        got.append([m.span() for m in c.finditer("ab-12 # NOQA: TEN101\\n  def x")])
    lazy = LazyPattern(r"x(?=y)")
    got.append([m.start() for m in lazy.finditer("xyxxy")])
    print(json.dumps({"made": len(patterns._made), "path": patterns.cache_path(), "got": got}))
""")


def _expected():
    """What ``re`` itself finds with the probe's patterns (JSON's lists for tuples)."""
    text = "ab-12 # NOQA: TEN101\n  def x"
    got = [[list(m.span()) for m in re.compile(p, f).finditer(text)] for p, f in [
        (r"(?P<w>\w+)-(\d+)", 0), (r"# noqa(?::\s?(?P<codes>[A-Z0-9, ]+))?", re.I),
        (r"^[ \t]*def\b", re.M)]]
    return got + [[m.start() for m in re.finditer(r"x(?=y)", "xyxxy")]]


def _probe(prefix, extra=()):
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    proc = subprocess.run([sys.executable, "-X", f"pycache_prefix={prefix}", *extra, "-c", _PROBE],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    import json

    return json.loads(proc.stdout)


def test_kept_at_exit_then_read_back_without_compiling(tmp_path):
    first = _probe(tmp_path)
    path = first["path"]
    assert path.startswith(str(tmp_path)) and first["made"] >= 4  # (and the module constants imported)
    assert os.path.isfile(path)  # written when the process exited
    second = _probe(tmp_path)
    assert second["made"] == 0  # every pattern came from the file
    assert second["got"] == first["got"] == _expected()
    assert not [n for n in os.listdir(os.path.dirname(path)) if n.endswith(".tmp")]


@pytest.mark.parametrize("damage", ["garbage", "other interpreter", "checksum", "entry"])
def test_a_file_not_exactly_this_interpreters_is_not_trusted(tmp_path, damage):
    path = _probe(tmp_path)["path"]
    with open(path, "rb") as fh:
        header, checksum, payload = marshal.loads(fh.read())
    entries = marshal.loads(payload)
    if damage == "garbage":
        data = b"\x00not marshal" * 10
    elif damage == "other interpreter":
        data = marshal.dumps(((header[0], "2.7.18 (other)") + header[2:], checksum, payload))
    elif damage == "checksum":
        data = marshal.dumps((header, checksum ^ 1, payload))
    else:  # the checksum holds, but an entry's code is not code (written by hand)
        key = next(iter(entries))
        entries[key] = (entries[key][0], [1, 2, 3], 0, {}, (None,))
        payload = marshal.dumps(entries)
        import zlib

        data = marshal.dumps((header, zlib.crc32(payload), payload))
    with open(path, "wb") as fh:
        fh.write(data)
    again = _probe(tmp_path)
    assert again["got"] == _expected()
    assert again["made"] >= 1  # compiled by re, and the file written anew
    assert _probe(tmp_path)["made"] == 0


def test_an_unwritable_place_costs_nothing_but_the_compile(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would go")
    got = _probe(blocker)  # the folder cannot be made: silently not kept
    assert got["made"] >= 4 and not os.path.exists(got["path"])
    assert got["got"] == _expected()


def test_flake8_runs_keep_the_plugins_patterns_and_report_the_same(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import torch
        total = 0
        for x, y in loader:
            loss = model(x).sum()
            loss.backward()
            total += loss
        w = model.weight.data
    """))
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, "-X", f"pycache_prefix={tmp_path / 'cache'}", "-m", "flake8",
           "--select", "TEN", str(script)]
    runs = [subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
            for _ in range(2)]
    assert runs[0].stdout == runs[1].stdout and "TEN501" in runs[0].stdout
    kept = [os.path.join(d, n) for d, _, names in os.walk(tmp_path / "cache") for n in names
            if n.endswith(".re.marshal")]
    assert len(kept) == 1
    with open(kept[0], "rb") as fh:
        header, _, payload = marshal.loads(fh.read())
    assert header[1] == sys.version and len(marshal.loads(payload)) > 10
