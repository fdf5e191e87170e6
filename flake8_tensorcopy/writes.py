"""Writing a fixed file in place: atomic, its identity kept, never over bytes it did not read,
and what a killed run leaves removed by the next one. No engine here: ``fix``'s front end and
the runtime twin's reports import it without the analysis."""
from __future__ import annotations

import errno
import os
import signal
import stat
import tempfile
import threading
import time
from contextlib import contextmanager
from typing import Optional, Sequence, Tuple

from .lint import STOP_SIGNALS

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]

#: read leases (Linux): a file open for writing elsewhere is left alone
_LEASES = fcntl is not None and hasattr(fcntl, "F_SETLEASE") and hasattr(signal, "SIGIO")


class Unchanged(Exception):
    """The fixed text was not written; the message says why (one line)."""

    def __init__(self, message: str, failed: bool = False) -> None:
        super().__init__(message)
        self.failed = failed  # the run must not exit 0 (the file changed under us)


_WRITE_BITS = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
TEMP_PREFIX = ".tensorcopy-"


def write_fixed(path: str, data: bytes, original: bytes, roots: Sequence[str] = ()) -> None:
    """Replace the file ``path``, which held ``original`` when it was read, with ``data``.

    The file keeps its identity or is left alone (Unchanged says why): a symbolic link is
    written through only to a target inside the linted tree (below one of ``roots``, the
    linted directories and the directories of the files named), never outside it; a file
    with other hard links is not split from them; a read-only file stays as it is; and a file
    whose bytes changed since they were read (an edit saved meanwhile, a line appended), or that
    another process holds open for writing (Linux), is not overwritten: both are checked right
    before the rename (``atomic_write``'s ``expect``), so a run never shortens a file it did not
    read in full. Otherwise the new bytes go to a temporary file in the same directory with the
    file's owner, group and mode, and are renamed over it (atomic: readers see the old or the new
    file).
    """
    path, st = writable(path, roots)
    try:
        atomic_write(path, data, st, expect=original)
    except OSError as exc:
        raise Unchanged(f"cannot write: {exc.strerror or exc}; left unchanged",
                        failed=True) from None


def writable(path: str, roots: Sequence[str] = ()) -> Tuple[str, os.stat_result]:
    """The file that a rewrite of ``path`` replaces (a symbolic link's target) and its
    ``lstat``, or Unchanged saying why ``write_fixed`` leaves it alone (see there)."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        raise Unchanged(f"cannot write: {exc.strerror or exc}", failed=True) from None
    if stat.S_ISLNK(st.st_mode):
        target = os.path.realpath(path)
        if not any(target.startswith(os.path.join(os.path.realpath(r), "")) for r in roots):
            raise Unchanged("is a symbolic link to a file outside the linted tree; left unchanged")
        path = target
        try:
            st = os.lstat(path)
        except OSError as exc:
            raise Unchanged(f"cannot write: {exc.strerror or exc}", failed=True) from None
    if not stat.S_ISREG(st.st_mode):
        raise Unchanged("is not a regular file; left unchanged")
    if st.st_nlink > 1:
        raise Unchanged(f"has {st.st_nlink - 1} other hard link(s); left unchanged "
                        "(a rewrite would split them)")
    if not st.st_mode & _WRITE_BITS or not os.access(path, os.W_OK):
        raise Unchanged("is read-only; left unchanged")
    return path, st


def atomic_write(path: str, data: bytes, st: Optional[os.stat_result] = None,
                 expect: Optional[bytes] = None) -> None:
    """Write via a temporary file in the same directory and rename. The temporary file gets
    ``st``'s owner, group and mode (those of the file replaced) before the rename; if the owner
    cannot be kept, nothing is written (OSError). With ``expect``, the file must still hold
    exactly those bytes, and (where leases work) be open for writing nowhere, at the rename
    (``_unchanged``: Unchanged if not).

    Where the system allows (Linux ``O_TMPFILE``), the bytes are written to a file with no name,
    which the kernel discards if the process is killed; it is given a name only after the check,
    by the system call right before the rename, with the stop signals held back between the two
    (``_stop_signals_held``), so a killed run leaves neither a truncated file nor a temporary
    one, but for a SIGKILL (which nothing holds back) landing in that instant. Elsewhere a
    named temporary file is written, and removed on any error. Either way the writer holds an
    exclusive ``flock`` on the temporary file until it is done, which tells ``remove_orphans``
    (run by the next ``fix``) a live writer's file from one a killed process left.
    """
    directory = os.path.dirname(os.path.abspath(path)) or "."
    if st is None:
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
    fd, tmp = _anonymous(directory)
    if fd is None:
        fd, tmp = named_temporary(directory)
    else:
        _hold(fd)
    try:
        with os.fdopen(fd, "wb") as fh:
            if st is not None:
                if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
                    os.fchown(fh.fileno(), st.st_uid, st.st_gid)
                os.fchmod(fh.fileno(), stat.S_IMODE(st.st_mode))
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
            with _unchanged(path, expect), _stop_signals_held():
                if tmp is None:  # name the anonymous file now, next to its destination
                    _name_and_replace(fh.fileno(), directory, path)
                else:
                    os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
            _unlink(tmp)
        raise


@contextmanager
def _stop_signals_held():
    """Hold back the stop signals (``STOP_SIGNALS``) for the naming and rename of a temporary
    file: a process stopped between the two (a worker whose parent died: its death signal is
    SIGTERM) would leave the named file behind. A signal sent meanwhile is delivered right
    after."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def _unchanged(path: str, expect: Optional[bytes]):
    """Around the rename over ``path``: Unchanged unless it holds ``expect`` (None: no check).

    Where the system has leases (Linux), a read lease is taken on the file first: it is refused
    while another process has the file open for writing (a writer that appends later would
    write to the replaced file, and its lines would be lost), and a writer that opens it after
    that waits for the lease, which is given up right after the rename.
    """
    if expect is None:
        yield
        return
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise Unchanged(f"cannot read it again: {exc.strerror or exc}", failed=True) from None
    leased = False
    old_handler = None
    try:
        if _LEASES and threading.current_thread() is threading.main_thread():
            # a lease break is signalled (SIGIO, by default fatal): noted by F_GETLEASE below
            old_handler = signal.signal(signal.SIGIO, lambda *a: None)
            try:
                fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_RDLCK)
                leased = True
            except OSError as exc:
                if exc.errno == errno.EAGAIN:
                    raise Unchanged("is open for writing in another process; left unchanged",
                                    failed=True) from None
                # EPERM (not its owner), EINVAL (no leases on this file system): compare only
        chunks = []
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
        if b"".join(chunks) != expect:
            raise Unchanged("changed on disk while it was being fixed; left unchanged",
                            failed=True)
        if leased and fcntl.fcntl(fd, fcntl.F_GETLEASE) != fcntl.F_RDLCK:
            raise Unchanged("was opened for writing while it was being fixed; left unchanged",
                            failed=True)
        yield
    finally:
        if leased:
            try:
                fcntl.fcntl(fd, fcntl.F_SETLEASE, fcntl.F_UNLCK)
            except OSError:
                pass
        if old_handler is not None:
            signal.signal(signal.SIGIO, old_handler)
        os.close(fd)


def named_temporary(directory: str) -> Tuple[int, str]:
    """(fd, path) of a new temporary file in ``directory`` named and held as ``remove_orphans``
    expects (``TEMP_PREFIX``, this process's pid, ``.tmp``; an exclusive ``flock`` until the fd
    is closed): a file a killed process leaves there is removed by the next sweep. Every
    temporary file this package writes is made here or by ``_anonymous``."""
    fd, path = tempfile.mkstemp(prefix=f"{TEMP_PREFIX}{os.getpid()}-", suffix=".tmp",
                                dir=directory)
    _hold(fd)
    return fd, path


def _hold(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_EX)  # a new file: never waits


def _anonymous(directory: str):
    """(fd, None) of a new nameless file in ``directory``, or (None, None) where unsupported."""
    flag = getattr(os, "O_TMPFILE", 0)
    if not flag or not os.path.isdir("/proc/self/fd"):
        return None, None
    try:
        return os.open(directory, flag | os.O_WRONLY, 0o600), None
    except OSError:  # a file system without O_TMPFILE
        return None, None


def _name_and_replace(fd: int, directory: str, path: str) -> None:
    """Name the nameless file ``fd`` in ``directory`` and rename it over ``path``: the two system
    calls follow each other, everything else (the name, the handle on ``/proc/self/fd``) is
    ready before the first. A name given and not renamed (an error) is removed."""
    proc = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(100):
            name = os.path.join(directory, f"{TEMP_PREFIX}{os.getpid()}-{os.urandom(4).hex()}.tmp")
            try:
                os.link(str(fd), name, src_dir_fd=proc, follow_symlinks=True)
            except FileExistsError:
                continue
            try:
                os.replace(name, path)
            except BaseException:
                _unlink(name)
                raise
            return
        raise FileExistsError(f"no free temporary name in {directory}")
    finally:
        os.close(proc)


def _unlink(name: str) -> None:
    try:
        os.unlink(name)
    except OSError:
        pass


#: a temporary file older than this whose writer's pid is in use is taken for one a killed
#: process left (the pid reused since): a live writer names its file, locks it and renames it
#: within a fraction of a second
ORPHAN_AGE = 60.0


def remove_orphans(directories) -> None:
    """Remove the temporary files (``TEMP_PREFIX``) a killed process left in ``directories``:
    one that no process holds (its writer's ``flock`` is gone, as it goes when the process dies)
    and whose writer's pid is not in use or that is older than ``ORPHAN_AGE``. A live writer's
    file is left alone. Run by ``fix`` before it writes (a SIGKILL landing between naming a
    temporary file and the rename leaves that file: ``atomic_write``), by the parent of a
    worker it killed, in the folder of the file that worker was on, and by the results cache
    before a run's first write (its entries' temporary files: ``named_temporary``)."""
    if fcntl is None:  # pragma: no cover - not POSIX: no way to tell a live writer's file
        return
    now = time.time()
    for directory in directories:
        try:
            names = os.listdir(directory)
        except OSError:
            continue
        for name in names:
            if not (name.startswith(TEMP_PREFIX) and name.endswith(".tmp")):
                continue
            pid = name[len(TEMP_PREFIX):].partition("-")[0]
            if not pid.isdigit():
                continue
            full = os.path.join(directory, name)
            try:
                fd = os.open(full, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                             | getattr(os, "O_NONBLOCK", 0))
            except OSError:
                continue
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    continue
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:  # held: a live writer
                    continue
                if _pid_in_use(int(pid)) and now - st.st_mtime < ORPHAN_AGE:
                    continue
                same = os.stat(full, follow_symlinks=False)
                if (same.st_dev, same.st_ino) == (st.st_dev, st.st_ino):
                    _unlink(full)
            except OSError:
                continue
            finally:
                os.close(fd)


def _pid_in_use(pid: int) -> bool:
    """Is there a live process ``pid`` (a zombie, dead but not yet reaped, is not one)?"""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            state = fh.read().rpartition(b")")[2].split()[0]
    except (OSError, IndexError):
        return True
    return state not in (b"Z", b"X")
