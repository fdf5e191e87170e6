"""Shared helpers: program discovery and label parsing."""
import os, re, glob

LABEL_RE = re.compile(r"#\s*(expect: (TEN\d+)|either: (TEN\d+)|ok)\s*$")


def discover(root):
    """Return list of programs: dict(name, kind('file'|'pkg'), path, files, cwd, module)."""
    progs = []
    for p in sorted(glob.glob(os.path.join(root, "*.py"))):
        progs.append(dict(name=os.path.basename(p), kind="file", path=os.path.abspath(p),
                          files=[os.path.abspath(p)], cwd=os.path.dirname(os.path.abspath(p))))
    for d in sorted(glob.glob(os.path.join(root, "*"))):
        if os.path.isdir(d) and os.path.exists(os.path.join(d, "__init__.py")) and os.path.exists(os.path.join(d, "main.py")):
            files = sorted(os.path.abspath(f) for f in glob.glob(os.path.join(d, "**", "*.py"), recursive=True))
            progs.append(dict(name=os.path.basename(d) + "/", kind="pkg", path=os.path.abspath(d), files=files,
                              cwd=os.path.dirname(os.path.abspath(d)), module=os.path.basename(d) + ".main"))
    return progs


def labels(files, code):
    """List of (file, lineno, kind) with kind in expect/ok/either for the given rule code."""
    out = []
    for f in files:
        with open(f) as fh:
            for i, line in enumerate(fh, 1):
                m = LABEL_RE.search(line)
                if not m:
                    continue
                if m.group(1) == "ok":
                    out.append((f, i, "ok"))
                elif m.group(2) == code:
                    out.append((f, i, "expect"))
                elif m.group(3) == code:
                    out.append((f, i, "either"))
    return out
