"""Write a table set into a staging directory, ready to publish.

Each array becomes a ``.npy`` file named after its role and content hash,
beside a manifest that lists them. :mod:`twoplustwo.tables.publish` then moves the
set into place atomically (the protocol installs of bundles share).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.tables.format import FORMAT_VERSION, MANIFEST, npy_header, parse_manifest
from twoplustwo.tables.publish import content_name, discard, new_staging, publish
from twoplustwo.tables.system import sha256_file

__all__ = ["smallest_dtype", "new_staging", "stage", "publish", "discard"]


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


def _write_npy(directory: Path, role: str, array: npt.NDArray[np.integer]) -> dict[str, Any]:
    a = np.ascontiguousarray(array.ravel().astype(smallest_dtype(array)))
    tmp = directory / (role.replace("/", ".") + ".npy.part")
    # The shortest header that ends 64-byte aligned, as numpy pads version 1.0 headers.
    offset = 64
    while True:
        try:
            header = npy_header(a.dtype.str, a.size, offset)
            break
        except ValueError:
            offset += 64
    # Header and data in one write(): the page cache then holds the file in
    # large folios, which readers map with 2 MiB pages (random batches
    # measured 5-10% faster than on a file written in pieces).
    data = memoryview(header + a.tobytes())
    try:
        with open(tmp, "wb", buffering=0) as f:
            while data:
                data = data[f.write(data) :]
    except OSError as e:
        free = shutil.disk_usage(directory).free
        raise OSError(f"cannot write {tmp} ({a.nbytes:,} bytes, {free:,} bytes free there): {e}") from None
    sha = sha256_file(tmp)
    name = content_name(role, sha)
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


def _keep(target: Path, staging: Path, entry: dict[str, Any]) -> dict[str, Any]:
    # A hard link where the file system has them: the set's file is
    # immutable (named by its content), and the publish that moves the link
    # onto it changes nothing.
    source, copy = target / entry["name"], staging / entry["name"]
    try:
        os.link(source, copy)
    except OSError:
        shutil.copyfile(source, copy)
    return dict(entry)


def stage(
    target: Path,
    arrays: dict[str, npt.NDArray[np.integer]],
    info: dict[str, Any],
    staging: Path | None = None,
    keep: list[dict[str, Any]] | None = None,
) -> Path:
    """Write ``arrays`` and their manifest into a staging directory in ``target``.

    ``info`` is merged into the manifest (node counts, builder parameters).
    ``keep`` lists manifest entries of the set at ``target`` to publish again
    as they are: their files are linked (or copied), not written anew.
    Returns the staging directory (a new one unless ``staging`` is given),
    which :func:`publish` or :func:`discard` must consume.
    """
    staging = staging or new_staging(target)
    kept = {f["role"]: f for f in keep or []}
    if set(kept) & set(arrays):
        raise ValueError(f"roles both kept and written: {sorted(set(kept) & set(arrays))}")
    try:
        files = [
            _keep(target, staging, kept[role]) if role in kept else _write_npy(staging, role, arrays[role])
            for role in sorted({*arrays, *kept})
        ]
        manifest = {"format_version": FORMAT_VERSION, **info, "files": files}
        text = json.dumps(manifest, indent=2, sort_keys=False) + "\n"
        parse_manifest(text, strict=True)  # never stage a manifest the reader or publish() would refuse
        (staging / MANIFEST).write_text(text)
    except BaseException:
        discard(staging)
        raise
    return staging
