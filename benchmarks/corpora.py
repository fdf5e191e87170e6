"""The public PyTorch repositories of benchmarks/corpora.toml, materialised at their pinned commits.

    python benchmarks/corpora.py materialise DIR [--dense]            # from the public git URLs
    python benchmarks/corpora.py materialise DIR --mirror ROOT        # from local bare mirrors
    python benchmarks/corpora.py count DIR [--dense]
    python benchmarks/corpora.py list
    (each takes --manifest FILE; default benchmarks/corpora.toml)

`materialise` writes the *.py files of each pinned commit (only the manifest's subfolders) under
DIR/<owner>+<name>/. By default it fetches each pinned commit from the repository's public git URL
(`https://github.com/<owner>/<name>.git`, or `--git-base URL` + `<owner>/<name>.git`) into a bare
repository kept under `--cache` (default ~/.cache/flake8-tensorcopy/corpora; fetched once, only
that commit, depth 1). With `--mirror ROOT` (or $TENSORCOPY_MIRROR) it reads local bare mirrors
ROOT/<owner>+<name>/repo instead and needs no network. It is idempotent: a repository whose folder already holds
the pinned commit with every file intact (DIR/<owner>+<name>/.commit lists them with their sizes)
is left alone; a folder changed since (a file edited, e.g. by a fixer run, or removed) is
written again. Only Python files are written, so
large data blobs that a mirror may lack never matter. A missing mirror or commit fails with one
line. Nothing here is committed into this repository.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from typing import Dict, Iterator, List, Optional, Tuple

try:
    import tomllib
except ImportError:  # pragma: no cover - Python < 3.11
    import tomli as tomllib  # type: ignore

HERE = os.path.dirname(os.path.abspath(__file__))
MANIFEST = os.path.join(HERE, "corpora.toml")
DEFAULT_MIRROR = os.environ.get("TENSORCOPY_MIRROR") or None
DEFAULT_GIT_BASE = "https://github.com/"
DEFAULT_CACHE = os.path.join(os.path.expanduser("~"), ".cache", "flake8-tensorcopy", "corpora")
MARKER = ".commit"


class CorpusError(Exception):
    pass


def load_manifest(path: str = MANIFEST) -> List[Dict]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    repos = data.get("repo", [])
    for r in repos:
        if len(r.get("commit", "")) != 40:
            raise CorpusError(f"{path}: {r.get('name')}: commit must be 40 hex digits")
    return repos


def slug(name: str) -> str:
    return name.replace("/", "+")


def git_dir(mirror_root: str, name: str) -> str:
    base = os.path.join(mirror_root, slug(name), "repo")
    for cand in (os.path.join(base, ".git"), base):
        if os.path.isfile(os.path.join(cand, "HEAD")):
            return cand
    raise CorpusError(f"no mirror for {name} under {os.path.join(mirror_root, slug(name))} "
                      f"(fetch github:{name} first)")


def fetched_git_dir(cache_root: str, git_base: str, name: str, commit: str) -> str:
    """A bare repository under ``cache_root`` holding ``commit`` of ``git_base + name + '.git'``:
    fetched once (only that commit, depth 1; the whole history where a server will not serve a
    commit by its id), then reused."""
    gd = os.path.join(cache_root, slug(name) + ".git")
    if not os.path.isfile(os.path.join(gd, "HEAD")):
        os.makedirs(cache_root, exist_ok=True)
        tmp = gd + ".tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        subprocess.run(["git", "init", "-q", "--bare", tmp], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.replace(tmp, gd)
    try:
        _git(gd, "cat-file", "-e", f"{commit}^{{commit}}")
        return gd
    except CorpusError:
        pass
    url = git_base.rstrip("/") + "/" + name + ".git"
    try:
        _git(gd, "fetch", "-q", "--depth", "1", url, commit)
    except CorpusError:
        _git(gd, "fetch", "-q", url, "+refs/heads/*:refs/remotes/origin/*",
             "+refs/tags/*:refs/tags/*")
    return gd


def _git(gd: str, *args: str, data: Optional[bytes] = None) -> bytes:
    proc = subprocess.run(["git", f"--git-dir={gd}", *args], input=data,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        msg = proc.stderr.decode(errors="replace").strip().splitlines()
        raise CorpusError(f"git {' '.join(args[:2])} failed in {gd}: {msg[-1] if msg else '?'}")
    return proc.stdout


def python_blobs(gd: str, commit: str, subdirs: List[str]) -> List[Tuple[str, str]]:
    """(path, blob sha) of every *.py file of `commit` under `subdirs`."""
    try:
        _git(gd, "cat-file", "-e", f"{commit}^{{commit}}")
    except CorpusError:
        raise CorpusError(f"commit {commit} is not in the mirror {gd}") from None
    out = _git(gd, "ls-tree", "-r", "-z", commit)
    result = []
    for entry in out.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        p = path.decode("utf-8", errors="surrogateescape")
        if kind != b"blob" or mode == b"120000" or not p.endswith(".py"):
            continue
        if not any(s in (".", "") or p == s or p.startswith(s.rstrip("/") + "/") for s in subdirs):
            continue
        result.append((p, sha.decode()))
    return result


def read_blobs(gd: str, shas: List[str]) -> Iterator[bytes]:
    data = "".join(s + "\n" for s in shas).encode()
    out = _git(gd, "cat-file", "--batch", data=data)
    pos = 0
    for sha in shas:
        nl = out.index(b"\n", pos)
        header = out[pos:nl].split()
        if len(header) < 3 or header[1] == b"missing":
            raise CorpusError(f"blob {sha} missing from mirror {gd}")
        size = int(header[2])
        yield out[nl + 1:nl + 1 + size]
        pos = nl + 1 + size + 1


def _intact(dest: str, want: str) -> bool:
    """The folder holds the wanted commit and every file is as written (same size)."""
    try:
        with open(os.path.join(dest, MARKER)) as fh:
            lines = fh.read().splitlines()
    except OSError:
        return False
    if len(lines) < 2 or lines[0] + "\n" != want:  # no file list: written by an older corpora.py
        return False
    for line in lines[1:]:
        size, _, path = line.partition(" ")
        try:
            if os.path.getsize(os.path.join(dest, path)) != int(size):
                return False
        except (OSError, ValueError):
            return False
    return True


def materialise_repo(repo: Dict, dest_root: str, mirror_root: Optional[str],
                     git_base: str = DEFAULT_GIT_BASE, cache_root: str = DEFAULT_CACHE,
                     folder: Optional[str] = None) -> Tuple[str, bool]:
    """Every *.py file of the repository's pinned commit under DEST_ROOT/<owner>+<name> (or
    under DEST_ROOT/FOLDER), written atomically; (the folder, whether it was written now)."""
    dest = os.path.join(dest_root, folder or slug(repo["name"]))
    want = f"{repo['commit']} {' '.join(repo.get('subdirs', ['.']))}\n"
    if _intact(dest, want):
        return dest, False
    if mirror_root:
        gd = git_dir(mirror_root, repo["name"])
    else:
        gd = fetched_git_dir(cache_root, git_base, repo["name"], repo["commit"])
    blobs = python_blobs(gd, repo["commit"], repo.get("subdirs", ["."]))
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    sizes = []
    for (path, _), content in zip(blobs, read_blobs(gd, [s for _, s in blobs])):
        out = os.path.join(tmp, path)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "wb") as fh:
            fh.write(content)
        sizes.append(f"{len(content)} {path}\n")
    os.makedirs(tmp, exist_ok=True)
    with open(os.path.join(tmp, MARKER), "w") as fh:
        fh.write(want + "".join(sizes))
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)
    return dest, True


def count_lines(folder: str) -> Tuple[int, int]:
    files = lines = 0
    for dirpath, _, names in os.walk(folder):
        for n in names:
            if n.endswith(".py"):
                files += 1
                with open(os.path.join(dirpath, n), "rb") as fh:
                    lines += fh.read().count(b"\n")
    return files, lines


def select(repos: List[Dict], dense: bool) -> List[Dict]:
    return [r for r in repos if r.get("dense")] if dense else repos


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("materialise", help="write the pinned *.py files under DIR")
    m.add_argument("dir")
    m.add_argument("--mirror", default=DEFAULT_MIRROR,
                   help="read local bare mirrors ROOT/<owner>+<name>/repo instead of fetching")
    m.add_argument("--git-base", default=DEFAULT_GIT_BASE,
                   help="fetch <git-base><owner>/<name>.git (default: https://github.com/)")
    m.add_argument("--cache", default=DEFAULT_CACHE,
                   help="where fetched repositories are kept (default: ~/.cache/flake8-tensorcopy/corpora)")
    m.add_argument("--dense", action="store_true", help="only the dense benchmark corpus")
    c = sub.add_parser("count", help="files and lines per materialised repository")
    c.add_argument("dir")
    c.add_argument("--dense", action="store_true")
    lst = sub.add_parser("list", help="the manifest")
    for sp in (m, c, lst):
        sp.add_argument("--manifest", default=MANIFEST, help="manifest TOML (default: corpora.toml)")
    args = ap.parse_args(argv)
    try:
        repos = load_manifest(args.manifest)
        if args.cmd == "list":
            for r in repos:
                print(f"{r['name']:50} {r['commit']} {'dense' if r.get('dense') else '-':5} "
                      f"{r.get('kind', '')}")
            return 0
        repos = select(repos, args.dense)
        if args.cmd == "materialise":
            os.makedirs(args.dir, exist_ok=True)
            for r in repos:
                dest, wrote = materialise_repo(r, args.dir, args.mirror, args.git_base, args.cache)
                print(f"{'wrote' if wrote else 'kept '} {dest}", file=sys.stderr)
            return 0
        tot_f = tot_l = dense_l = 0
        for r in repos:
            d = os.path.join(args.dir, slug(r["name"]))
            if not os.path.isfile(os.path.join(d, MARKER)):
                raise CorpusError(f"{d} is not materialised (run: corpora.py materialise {args.dir})")
            f, n = count_lines(d)
            tot_f += f
            tot_l += n
            dense_l += n if r.get("dense") else 0
            print(f"{r['name']:50} {f:5d} files {n:7d} lines{'  dense' if r.get('dense') else ''}")
        print(f"{'total':50} {tot_f:5d} files {tot_l:7d} lines; dense subset {dense_l} lines")
        return 0
    except (CorpusError, OSError, tomllib.TOMLDecodeError) as exc:
        print(f"corpora.py: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
