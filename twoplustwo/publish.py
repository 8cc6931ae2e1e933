"""Publish a staged table set atomically: the one protocol builds and installs share.

A writer fills a staging directory inside the target (see
:func:`new_staging`), then :func:`publish` renames each file into the
target and ``manifest.json`` last, the commit point. File names carry a
content hash, so no file a reader may be using is ever replaced by other
bytes; files no manifest names any more, and staging directories of dead
processes, are removed afterwards under the target's lock, so two writers
never remove each other's files.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path
from typing import Iterator

from .format import MANIFEST, parse_manifest

__all__ = ["STAGE_PREFIX", "discard", "new_staging", "publish"]

STAGE_PREFIX = ".build-"


def new_staging(target: Path) -> Path:
    """Create an empty staging directory inside ``target`` (created if need be).

    Doing this first makes an unwritable target fail before any work.
    """
    target.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{STAGE_PREFIX}{os.getpid()}-", dir=target))


def discard(staging: Path) -> None:
    """Remove a staging directory and everything in it."""
    shutil.rmtree(staging, ignore_errors=True)


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    with open(target / ".lock", "a") as lock:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - no advisory locks on this OS
            yield
            return
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def publish(staging: Path) -> Path:
    """Move a complete staged table set into its parent directory; return the parent."""
    target = staging.parent
    manifest = parse_manifest((staging / MANIFEST).read_text(), staging / MANIFEST)
    with _locked(target):
        for f in manifest["files"]:
            os.replace(staging / f["name"], target / f["name"])
        os.replace(staging / MANIFEST, target / MANIFEST)
        keep = {f["name"] for f in manifest["files"]}
        for p in target.glob("*.npy"):
            if p.name not in keep:
                p.unlink(missing_ok=True)
        for p in target.glob(f"{STAGE_PREFIX}*"):
            # Staging left by writers that were killed.
            pid = p.name[len(STAGE_PREFIX) :].split("-")[0]
            if p != staging and pid.isdigit() and not _pid_alive(int(pid)):
                shutil.rmtree(p, ignore_errors=True)
    discard(staging)
    return target
