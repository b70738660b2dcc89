"""The run folder's lock: a ``.lock`` file holding the pid of the sim process that writes the
folder (README "Never losing work": two commands never write one folder at once; ``--break-lock`` takes
over only a lock whose pid is not a sim process)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

from .api import SimError


def lock(out: Path) -> None:
    """Take the run folder's lock (``.lock`` holding our pid). Raises ``SimError`` when a live
    process holds it; a lock left by a dead process is taken over."""
    path = out / ".lock"
    for _ in range(2):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            try:
                pid = int(path.read_text().strip() or 0)
            except (OSError, ValueError):
                pid = 0
            if pid == os.getpid():
                return
            if pid and _alive(pid):
                raise SimError(f"run folder '{out}' is in use by another sim process (pid {pid}); lock file {path}:"
                               " wait for it to finish or stop it first. If no sim process uses it (the pid was"
                               " reused after a restart), take the lock over with --break-lock") from None
            path.unlink(missing_ok=True)  # stale: its process is gone
            continue
        try:
            with os.fdopen(fd, "w") as fh:
                fh.write(str(os.getpid()))
        except OSError:  # a full disk: no empty lock file is left (breaker trial 2, session 9)
            path.unlink(missing_ok=True)
            raise
        return
    raise SimError(f"cannot lock run folder '{out}'")


@contextmanager
def locked(out: Path, keep: bool = False):
    """Hold the run folder's lock for the block; with ``keep`` it stays held after the block ends
    normally (the caller unlocks later, e.g. after writing the report)."""
    lock(out)
    try:
        yield
    except BaseException:
        unlock(out)
        raise
    if not keep:
        unlock(out)


def break_lock(out: Path) -> str | None:
    """Remove the run folder's lock (``--break-lock``: a lock whose pid now belongs to an
    unrelated process, after a restart). Returns a sentence naming the lock file and its pid, or
    None when there was no lock. Raises ``SimError`` when the pid is a live sim process (its
    command line names ``sim``: README "Never losing work"): taking its lock over would let ``--force``
    delete a folder that process is still writing."""
    path = Path(out) / ".lock"
    try:
        pid = path.read_text().strip()
    except OSError:
        return None
    command = _sim_command(int(pid)) if pid.isdigit() else None
    if command is not None:
        raise SimError(f"run folder '{out}' is in use by a running sim process (pid {pid}: {command}); --break-lock"
                       " takes over only a lock whose pid belongs to a process that is not sim: stop that run first")
    path.unlink(missing_ok=True)
    return f"removed lock file {path} (it named pid {pid or '?'})"


def _sim_command(pid: int) -> str | None:
    """The command line of live process ``pid`` when it runs sim (an argument named ``sim``, or
    ``-m sim``), else None (gone, not sim, or no /proc to read: then the lock is taken over)."""
    if pid == os.getpid() or not _alive(pid):
        return None
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")
    except OSError:
        return None
    runs_sim = any(Path(a).name == "sim" for a in args) or any(
        a == "-m" and b.split(".")[0] == "sim" for a, b in zip(args, args[1:], strict=False))
    return " ".join(a for a in args if a)[:120] if runs_sim else None


def unlock(out: Path) -> None:
    path = out / ".lock"
    try:
        if int(path.read_text().strip() or 0) == os.getpid():
            path.unlink()
    except (OSError, ValueError):
        pass


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
