"""Latency of `tensorcopy server`: diagnostics after a one-character change.

    python benchmarks/server_latency.py [--file benchmarks/data/train_script.py] [--changes 200]
                                        [--debounce-ms 0 150] [--output FILE]
    python benchmarks/server_latency.py --code-actions 3000 [--requests 30] [--code DIR]

Starts the real server (``python -m flake8_tensorcopy server``, needs pygls), speaks LSP to it
over its stdin/stdout with a minimal JSON-RPC client of its own, opens the file, then sends
one-character incremental changes (typing a character into an identifier, then deleting it, at
lines spread over the file) one at a time, each after the previous diagnostics arrived, and times
from sending ``textDocument/didChange`` to receiving ``textDocument/publishDiagnostics`` for that
version. Reported per debounce setting: median, 95th percentile, min and max, plus the in-process
lint time of the same text (``server.core.lint_document``) for reference. Not part of the tests.

``--code-actions N``: code action latency on a generated file with N diagnostics (one
``y_i = x.clone().detach()`` per line, each with a safe fix). After the diagnostics arrive: the
first request (it may wait for the server to finish preparing the file's code actions), then
``--requests`` requests at diagnostics spread over the file of each kind an editor sends: no
``only`` filter with trigger Invoked (the menu), no filter with trigger Automatic (the light
bulb), ``only: [quickfix]``, ``only: [source.fixAll]``; and the time to resolve fix-all's edit.
The client advertises ``resolveSupport: {properties: [edit]}`` as VS Code does. ``--code DIR``
runs the server from another checkout (to compare with an older commit).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import queue
import statistics
import subprocess
import sys
import threading
import time
from typing import Dict, List, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_FILE = os.path.join(HERE, "data", "train_script.py")


class Client:
    """Just enough LSP over a subprocess's pipes: requests, notifications, a message queue."""

    def __init__(self, cmd: List[str], cwd: str) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=cwd)
        self.messages: "queue.Queue[dict]" = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = out.read(length or 0)
            self.messages.put(json.loads(body))

    def send(self, payload: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Optional[dict], timeout: float = 60.0) -> dict:
        self.next_id += 1
        rid = self.next_id
        self.send({"id": rid, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout)

    def wait(self, match, timeout: float = 60.0) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message from the server")
            msg = self.messages.get(timeout=left)
            if "method" in msg and "id" in msg:  # a request from the server: answer null
                self.send({"id": msg["id"], "result": None})
            if match(msg):
                return msg

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def diagnostics_for(uri: str, version: int):
    def match(msg):
        return (msg.get("method") == "textDocument/publishDiagnostics"
                and msg["params"]["uri"] == uri and msg["params"].get("version") == version)
    return match


def percentile(values: List[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def edit_points(text: str, n: int):
    """(line, character) at the end of an identifier (not a keyword), on lines spread over the
    file: typing a character there renames a variable, so the text still parses."""
    import io
    import keyword
    import tokenize

    candidates = []
    seen = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string) \
                and tok.start[0] not in seen:
            seen.add(tok.start[0])
            candidates.append((tok.end[0] - 1, tok.end[1]))
    step = max(1, len(candidates) // max(1, n))
    points = candidates[::step]
    return [points[k % len(points)] for k in range(n)]


def measure(path: str, changes: int, debounce_ms: int) -> Dict[str, float]:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    uri = "file://" + os.path.abspath(path)
    client = Client([sys.executable, "-m", "flake8_tensorcopy", "server"], cwd=ROOT)
    try:
        client.request("initialize", {
            "processId": os.getpid(), "rootUri": "file://" + ROOT, "capabilities": {},
            "initializationOptions": {"debounceMs": debounce_ms}})
        client.notify("initialized", {})
        version = 1
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "python", "version": version, "text": text}})
        first = client.wait(diagnostics_for(uri, version))
        count = len(first["params"]["diagnostics"])
        times: List[float] = []
        for line, col in edit_points(text, changes):
            for insert in (True, False):  # type a character, then delete it again
                version += 1
                rng = {"start": {"line": line, "character": col},
                       "end": {"line": line, "character": col if insert else col + 1}}
                t0 = time.perf_counter()
                client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": rng, "text": "q" if insert else ""}]})
                client.wait(diagnostics_for(uri, version))
                times.append(time.perf_counter() - t0)
    finally:
        client.close()
    return {"n": len(times), "median": statistics.median(times),
            "p95": percentile(times, 0.95), "min": min(times), "max": max(times),
            "diagnostics": count}


def generated(n: int) -> str:
    return "import torch\n\n\ndef f(x: torch.Tensor):\n" + "".join(
        f"    y{i} = x.clone().detach()\n" for i in range(n)) + "    return x\n"


def code_actions(n: int, requests: int, code: str,
                 resolve: bool = True) -> Dict[str, Dict[str, float]]:
    import tempfile

    text = generated(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "many.py")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        uri = "file://" + path
        client = Client([sys.executable, "-m", "flake8_tensorcopy", "server"], cwd=code)
        out: Dict[str, Dict[str, float]] = {}
        try:
            client.request("initialize", {
                "processId": os.getpid(), "rootUri": "file://" + tmp,
                "capabilities": {"textDocument": {"codeAction": {
                    "codeActionLiteralSupport": {"codeActionKind": {
                        "valueSet": ["quickfix", "source", "source.fixAll"]}},
                    "dataSupport": True, "resolveSupport": {"properties": ["edit"]}}}},
                "initializationOptions": {"debounceMs": 0}}, timeout=120)
            client.notify("initialized", {})
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": uri, "languageId": "python", "version": 1, "text": text}})
            diags = client.wait(diagnostics_for(uri, 1), timeout=300)["params"]["diagnostics"]
            assert len(diags) == n, len(diags)

            def ask(diag, only=None, trigger=1):
                context = {"diagnostics": [diag], "triggerKind": trigger}
                if only:
                    context["only"] = only
                t0 = time.perf_counter()
                reply = client.request("textDocument/codeAction", {
                    "textDocument": {"uri": uri}, "range": diag["range"], "context": context},
                    timeout=600)
                return time.perf_counter() - t0, reply.get("result") or []

            first, _ = ask(diags[n // 2])
            out["first request after the diagnostics"] = {"n": 1, "median": first,
                                                          "p95": first, "max": first}
            kinds = {"no only, Invoked (menu)": (None, 1),
                     "no only, Automatic (light bulb)": (None, 2),
                     "only quickfix": (["quickfix"], 1),
                     "only source.fixAll": (["source.fixAll"], 1)}
            fix_all = None
            for label, (only, trigger) in kinds.items():
                times = []
                for k in range(requests):
                    took, actions = ask(diags[(k * 7919) % n], only, trigger)
                    times.append(took)
                    fix_all = next((a for a in actions
                                    if a.get("kind") == "source.fixAll.tensorcopy"), fix_all)
                out[label] = {"n": len(times), "median": statistics.median(times),
                              "p95": percentile(times, 0.95), "max": max(times)}
            if resolve and fix_all is not None and "edit" not in fix_all:
                t0 = time.perf_counter()
                client.request("codeAction/resolve", fix_all, timeout=600)
                took = time.perf_counter() - t0
                out["codeAction/resolve of fix-all"] = {"n": 1, "median": took, "p95": took,
                                                        "max": took}
        finally:
            client.close()
    return out


def lint_time(path: str, runs: int = 30) -> Dict[str, float]:
    sys.path.insert(0, ROOT)
    from flake8_tensorcopy.config import Config
    from flake8_tensorcopy.server.core import lint_document

    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    lint_document(path, text, Config())  # warm
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        lint_document(path, text, Config())
        times.append(time.perf_counter() - t0)
    return {"n": runs, "median": statistics.median(times), "p95": percentile(times, 0.95)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", default=DEFAULT_FILE)
    ap.add_argument("--changes", type=int, default=100,
                    help="edit points; each is typed then deleted (2 timed changes)")
    ap.add_argument("--debounce-ms", type=int, nargs="+", default=[0, 150])
    ap.add_argument("--output", help="also write the Markdown table to this file")
    ap.add_argument("--code-actions", type=int, metavar="N",
                    help="measure code actions on a generated file with N diagnostics instead")
    ap.add_argument("--requests", type=int, default=30, help="requests of each kind")
    ap.add_argument("--code", default=ROOT, help="checkout the server runs from")
    ap.add_argument("--no-resolve", action="store_true", help="do not time fix-all's resolve")
    args = ap.parse_args(argv)
    if args.code_actions:
        res = code_actions(args.code_actions, args.requests, os.path.abspath(args.code),
                           not args.no_resolve)
        table = [f"- {args.code_actions} diagnostics; {platform.python_implementation()} "
                 f"{platform.python_version()}, {os.cpu_count()} CPU(s)", "",
                 "| request | n | median (ms) | p95 (ms) | max (ms) |", "| --- | --- | --- | --- | --- |"]
        for label, r in res.items():
            table.append(f"| {label} | {r['n']} | {r['median'] * 1000:.1f} | "
                         f"{r['p95'] * 1000:.1f} | {r['max'] * 1000:.1f} |")
        if args.output:
            with open(args.output, "w", encoding="utf-8") as fh:
                fh.write("\n".join(table) + "\n")
        print("\n".join(table))
        return 0
    with open(args.file, encoding="utf-8") as fh:
        n_lines = fh.read().count("\n")
    rows = []
    for ms in args.debounce_ms:
        r = measure(args.file, args.changes, ms)
        rows.append((ms, r))
        print(f"debounce {ms} ms: n={r['n']} median {r['median'] * 1000:.1f} ms, "
              f"p95 {r['p95'] * 1000:.1f} ms (min {r['min'] * 1000:.1f}, "
              f"max {r['max'] * 1000:.1f}); {r['diagnostics']} diagnostics", flush=True)
    lt = lint_time(args.file)
    print(f"in-process lint of the same text: median {lt['median'] * 1000:.1f} ms, "
          f"p95 {lt['p95'] * 1000:.1f} ms (n={lt['n']})")
    table = [f"- file: `{os.path.relpath(args.file, ROOT)}`, {n_lines} lines; "
             f"{platform.python_implementation()} {platform.python_version()}, "
             f"{os.cpu_count()} CPU(s)",
             "", "| debounce | changes | median (ms) | p95 (ms) | min (ms) | max (ms) |",
             "| --- | --- | --- | --- | --- | --- |"]
    for ms, r in rows:
        table.append(f"| {ms} ms | {r['n']} | {r['median'] * 1000:.1f} | {r['p95'] * 1000:.1f} "
                     f"| {r['min'] * 1000:.1f} | {r['max'] * 1000:.1f} |")
    table.append(f"| (in-process lint only) | {lt['n']} | {lt['median'] * 1000:.1f} | "
                 f"{lt['p95'] * 1000:.1f} | | |")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write("\n".join(table) + "\n")
    print("\n".join(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
