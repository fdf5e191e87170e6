"""Progress on long work (`check`/`fix` over a tree, `verify`'s claims), one line on stderr.

Shown only where a person watches: stderr is a terminal and the run is not in CI (``$CI`` set,
as GitHub Actions and most CI services do), unless asked for (``--progress``) or refused
(``--no-progress``). Never on stdout, which carries reports and patches. The line is redrawn at
most ten times a second and cleared when the work ends, so what follows starts on a clean line.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Optional, TextIO

#: below this many items the work ends before a line would help
MIN_ITEMS = 50


def add_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show progress on stderr (default: only on a terminal, outside CI)")
    p.add_argument("--no-progress", dest="progress", action="store_false",
                   help="never show progress")


def wanted(choice: Optional[bool], stream: TextIO) -> bool:
    """``--progress`` / ``--no-progress`` decide; otherwise a terminal outside CI."""
    if choice is not None:
        return choice
    if os.environ.get("CI", "").lower() not in ("", "0", "false"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """``update(done, label)`` as items finish; ``close()`` at the end (also on errors)."""

    def __init__(self, total: int, unit: str, choice: Optional[bool] = None,
                 stream: Optional[TextIO] = None, min_items: int = MIN_ITEMS) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.total = total
        self.unit = unit
        self.on = wanted(choice, self.stream) and (choice is True or total >= min_items)
        self.start = time.monotonic()
        self._last = 0.0
        self._width = 0

    def update(self, done: int, label: str = "") -> None:
        if not self.on:
            return
        now = time.monotonic()
        if done < self.total and now - self._last < 0.1:
            return
        self._last = now
        line = f"{done}/{self.total} {self.unit}, {now - self.start:.1f} s"
        if label:
            line += f"  {label[:50]}"
        pad = max(0, self._width - len(line))
        self._width = len(line)
        try:
            self.stream.write("\r" + line + " " * pad)
            self.stream.flush()
        except (OSError, ValueError):
            self.on = False

    def close(self) -> None:
        if self.on and self._width:
            try:
                self.stream.write("\r" + " " * self._width + "\r")
                self.stream.flush()
            except (OSError, ValueError):
                pass
        self.on = False
