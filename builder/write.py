"""Write a table set to disk so that no reader ever sees half of one.

Arrays are written into a staging directory beside the target, each as a
``.npy`` file named after its role and content hash. Publishing moves the
files into the target and then replaces ``manifest.json`` in one rename, the
commit point: until then readers keep the previous manifest and its files,
which are never overwritten (a name is a content hash, so a file of the same
name holds the same bytes). Files no manifest names any more are removed
last, under a lock so that two builds never remove each other's files.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Iterator

import numpy as np
import numpy.typing as npt

from twoplustwo.format import FORMAT_VERSION, MANIFEST, parse_manifest

__all__ = ["smallest_dtype", "new_staging", "stage", "publish", "discard"]

_STAGE_PREFIX = ".build-"


def smallest_dtype(a: npt.NDArray[np.integer]) -> np.dtype[Any]:
    """The smallest little-endian unsigned dtype that holds every entry of ``a``.

    >>> smallest_dtype(np.array([0, 300])).str
    '<u2'
    """
    if a.size and a.min() < 0:
        raise ValueError("tables hold no negative entries")
    top = int(a.max()) if a.size else 0
    for dt in ("u1", "<u2", "<u4"):
        if top <= np.iinfo(dt).max:
            return np.dtype(dt)
    raise ValueError(f"entry {top} does not fit in 32 bits")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _write_npy(directory: Path, role: str, array: npt.NDArray[np.integer]) -> dict[str, Any]:
    a = np.ascontiguousarray(array.ravel().astype(smallest_dtype(array)))
    tmp = directory / (role.replace("/", ".") + ".npy.part")
    with open(tmp, "wb") as f:
        # Version 1.0 headers are padded so the data starts 64-byte aligned.
        np.lib.format.write_array(f, a, version=(1, 0), allow_pickle=False)
    with open(tmp, "rb") as f:
        np.lib.format.read_magic(f)
        np.lib.format.read_array_header_1_0(f)
        offset = f.tell()
    sha = _sha256(tmp)
    name = f"{role.replace('/', '.')}.{sha[:16]}.npy"
    os.replace(tmp, directory / name)
    return {
        "name": name,
        "role": role,
        "dtype": a.dtype.str,
        "shape": list(a.shape),
        "offset": offset,
        "nbytes": a.nbytes,
        "sha256": sha,
    }


def new_staging(target: Path) -> Path:
    """Create an empty staging directory inside ``target`` (created if need be).

    Doing this first makes an unwritable target fail before any work.
    """
    target.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=f"{_STAGE_PREFIX}{os.getpid()}-", dir=target))


def stage(
    target: Path,
    arrays: dict[str, npt.NDArray[np.integer]],
    info: dict[str, Any],
    staging: Path | None = None,
) -> Path:
    """Write ``arrays`` and their manifest into a staging directory in ``target``.

    ``info`` is merged into the manifest (node counts, builder parameters).
    Returns the staging directory (a new one unless ``staging`` is given),
    which :func:`publish` or :func:`discard` must consume.
    """
    staging = staging or new_staging(target)
    try:
        files = [_write_npy(staging, role, arrays[role]) for role in sorted(arrays)]
        manifest = {"format_version": FORMAT_VERSION, **info, "files": files}
        text = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
        parse_manifest(text)  # never stage a manifest the reader would refuse
        (staging / MANIFEST).write_text(text)
    except BaseException:
        discard(staging)
        raise
    return staging


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
    """Move a staged table set into place; the manifest rename commits it."""
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
        for p in target.glob(f"{_STAGE_PREFIX}*"):
            # Staging left by builds that were killed.
            pid = p.name[len(_STAGE_PREFIX) :].split("-")[0]
            if p != staging and pid.isdigit() and not _pid_alive(int(pid)):
                shutil.rmtree(p, ignore_errors=True)
    shutil.rmtree(staging, ignore_errors=True)
    return target


def discard(staging: Path) -> None:
    """Remove a staging directory and everything in it."""
    shutil.rmtree(staging, ignore_errors=True)
