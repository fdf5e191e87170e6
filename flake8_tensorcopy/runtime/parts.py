"""One report for a job of several processes: the ranks of ``torchrun`` (and the same merge for
pytest-xdist's workers, see ``pytest_plugin``).

Under a distributed launcher each rank runs ``tensorcopy trace`` on its own; each writes its
sites as a part (a small json file, written atomically) and one rank, the merger, waits for the
others' parts, merges them (``report.merge``: one entry per site, counts summed, the ranks that
saw it listed) and writes the one report. With ``--output PATH`` the parts lie beside ``PATH``
(a shared filesystem serves a multi-node job) and rank 0 merges all ``WORLD_SIZE`` of them;
without it they lie in the temporary directory, and each node's local rank 0 merges its node's.

This module does not import torch.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from typing import Dict, List, Mapping, Optional, Tuple

#: how long the merger waits for the other ranks' parts (seconds); env override for slow jobs
TIMEOUT_ENV = "TENSORCOPY_TRACE_MERGE_TIMEOUT"
DEFAULT_TIMEOUT = 120.0
#: parts written longer than this before the merger started belong to an earlier job
_STALE = 300.0


@dataclass
class Job:
    rank: int
    world: int
    local_rank: int
    local_world: int
    key: str  # the same on every rank of one launch


def job_from_env(env: Mapping[str, str] = os.environ) -> Optional[Job]:
    """The launch this process is a rank of (``torchrun``, ``torch.distributed.launch`` and
    others that set ``RANK``/``WORLD_SIZE``), or None when it runs alone."""
    try:
        rank, world = int(env["RANK"]), int(env["WORLD_SIZE"])
    except (KeyError, ValueError):
        return None
    if world < 2 or not 0 <= rank < world:
        return None
    try:
        local_rank = int(env.get("LOCAL_RANK", rank))
        local_world = int(env.get("LOCAL_WORLD_SIZE", world))
    except ValueError:
        local_rank, local_world = rank, world
    key = "-".join(str(env.get(k, "")) for k in ("TORCHELASTIC_RUN_ID", "MASTER_ADDR",
                                                 "MASTER_PORT", "TORCHELASTIC_RESTART_COUNT"))
    return Job(rank, world, local_rank, local_world, key)


def plan(job: Job, output: Optional[str]) -> Tuple[str, int, int]:
    """(the parts' folder, this rank's index among the parts (0 merges), how many parts)."""
    if output:
        return output + ".tensorcopy-parts", job.rank, job.world
    safe = "".join(c if c.isalnum() or c in "-._" else "_" for c in job.key)
    folder = os.path.join(tempfile.gettempdir(), f"tensorcopy-trace-{safe}-{os.getppid()}")
    return folder, job.local_rank, job.local_world


def write_part(folder: str, index: int, payload: dict) -> None:
    """This rank's part (``payload`` with ``index``, ``rank``, ``job``, ``started``), written
    atomically (a temporary file, then a rename)."""
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".part-{index}-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(dict(payload, index=index), fh)
        os.replace(tmp, os.path.join(folder, f"part-{index}.json"))
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def collect(folder: str, expected: int, started: float, key: str,
            timeout: Optional[float] = None) -> Tuple[Dict[int, dict], List[int]]:
    """Wait for the parts ``0..expected-1`` of this job (the merger's own included); (parts by
    index, indices still missing at the deadline). Parts are removed once read."""
    if timeout is None:
        try:
            timeout = float(os.environ.get(TIMEOUT_ENV, DEFAULT_TIMEOUT))
        except ValueError:
            timeout = DEFAULT_TIMEOUT
    deadline = time.monotonic() + timeout
    got: Dict[int, dict] = {}
    delay = 0.02
    while True:
        try:
            names = os.listdir(folder)
        except OSError:
            names = []
        for name in names:
            if not (name.startswith("part-") and name.endswith(".json")):
                continue
            path = os.path.join(folder, name)
            try:
                with open(path, encoding="utf-8") as fh:
                    part = json.load(fh)
                index = int(part["index"])
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if part.get("job") != key or float(part.get("started", 0)) < started - _STALE:
                continue  # a part of another launch
            if 0 <= index < expected and index not in got:
                got[index] = part
        missing = [r for r in range(expected) if r not in got]
        if not missing or time.monotonic() >= deadline:
            break
        time.sleep(delay)
        delay = min(delay * 2, 0.5)
    shutil.rmtree(folder, ignore_errors=True)
    return got, missing
