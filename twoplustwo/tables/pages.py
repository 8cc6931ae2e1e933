"""Whether the large table files are mapped with 2 MiB pages, and how to get them so.

A random hand reads one entry in each of dag7's large layers (4.6 to 32
MB each). With 4 KiB pages nearly every one of those reads also misses the
TLB; with 2 MiB pages it does not. Measured on the same random 7-card hands
in one process, 1 thread, on this project's machine: ``evaluate_batch``
ran at 73-74 M hands/s over files mapped with 2 MiB pages, and at 55 M/s
over the same bytes in 4 KiB pages.

On Linux a file is mapped with 2 MiB pages where the page cache holds it
in 2 MiB pieces (folios). What puts it there:

* one ``write()`` of the whole file, as the builder writes each layer;
* a page fault in a mapping advised with ``MADV_HUGEPAGE``, on a file not
  yet cached: the loader advises every mapping of 2 MiB or more.

A file read with ``read()`` while not cached (copied, hashed, backed up) or
written in pieces (an installed bundle) is cached in small pieces, and
stays so until its pages leave the cache. :func:`uncache` makes them
leave; :func:`warm` does that for a whole table set and reads it back in.
:func:`huge_page_bytes` says how a loaded set is mapped in this process
(``twoplustwo info`` prints it).

Elsewhere than Linux these do nothing harmful: :func:`huge_page_bytes`
returns None, and :func:`uncache` only syncs.

>>> report = huge_page_bytes(open_tables(default_path()))
>>> report is None or all(0 <= huge <= size for huge, size in report.values())
True
"""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.tables.load import Tables, default_path, open_tables
from twoplustwo.tables.system import HUGE_PAGE, drop_cache, open_regular

__all__ = ["all_huge", "huge_page_bytes", "uncache", "warm"]

_SMAPS = "/proc/self/smaps"
_RANGE = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) ")


def _large_roles(tables: Tables) -> list[str]:
    return [f["role"] for f in tables.manifest["files"] if f["nbytes"] >= HUGE_PAGE]


def _touch(a: npt.NDArray[Any], step: int) -> None:
    """Read one byte every ``step`` bytes of the table array ``a``, so that its pages are mapped."""
    int(a.view(np.uint8)[::step].sum(dtype=np.uint64))


def huge_page_bytes(tables: Tables) -> dict[str, tuple[int, int]] | None:
    """Per table file of 2 MiB or more: (bytes mapped with 2 MiB pages, bytes of its mapping).

    Measured in this process (``FilePmdMapped`` in ``/proc/self/smaps``),
    after reading one byte in every 2 MiB of each such file so that its
    pages are mapped. A file's last part short of 2 MiB can never be
    mapped so. None where the system does not say (anything but Linux).

    >>> t = open_tables(default_path())
    >>> report = huge_page_bytes(t)
    >>> report is None or "dag7/layer6" in report
    True
    """
    if not os.path.exists(_SMAPS):
        return None
    where: dict[str, int] = {}
    for role in _large_roles(tables):
        a = tables.arrays[role]
        _touch(a, HUGE_PAGE)
        where[role] = a.ctypes.data
    found: dict[str, tuple[int, int]] = {}
    try:
        with open(_SMAPS, encoding="ascii", errors="replace") as fh:
            span: tuple[int, int] | None = None
            roles: list[str] = []
            for line in fh:
                m = _RANGE.match(line)
                if m:
                    span = (int(m.group(1), 16), int(m.group(2), 16))
                    roles = [r for r, addr in where.items() if span[0] <= addr < span[1]]
                elif roles and span is not None and line.startswith("FilePmdMapped:"):
                    huge = int(line.split()[1]) * 1024
                    for r in roles:
                        found[r] = (huge, span[1] - span[0])
    except OSError:
        return None
    return found if len(found) == len(where) else None


def all_huge(report: dict[str, tuple[int, int]]) -> bool:
    """Whether every file of a :func:`huge_page_bytes` report is mapped with 2 MiB pages.

    All but its last part short of 2 MiB, which never can be.

    >>> all_huge({"dag7/layer6": (31457280, 31744000)}), all_huge({"dag7/layer6": (0, 31744000)})
    (True, False)
    """
    return all(huge >= size - size % HUGE_PAGE for huge, size in report.values())


def uncache(path: str | os.PathLike[str]) -> None:
    """Sync the file ``path``, then drop its cached pages that no process maps.

    The next mapping then reads it afresh, in 2 MiB pieces where the
    loader's advice and the system allow. Pages some process maps stay
    cached, as they are; nothing about the file changes. Where the system
    has no ``posix_fadvise``, it only syncs. Anything but a regular file
    (a FIFO, which a plain open would wait on forever) raises
    :class:`~twoplustwo.tables.format.TableError`.
    """
    fd = open_regular(path)
    try:
        with contextlib.suppress(OSError):
            os.fdatasync(fd) if hasattr(os, "fdatasync") else os.fsync(fd)
        drop_cache(fd)
    finally:
        os.close(fd)


def warm(path: str | os.PathLike[str] | None = None) -> dict[str, tuple[int, int]] | None:
    """Read the large files of the table set at ``path`` into the page cache anew, then map them all.

    Each file of 2 MiB or more is :func:`uncache`\\ d, then mapped and read
    through, so that the pages come back in 2 MiB pieces. Returns
    :func:`huge_page_bytes` of the set as this process then maps it.
    Pages that another process maps, or that a :class:`Tables` alive in
    this process maps (the default set of :func:`twoplustwo.get_tables`
    included), stay as they are.

    ``path`` defaults to :func:`twoplustwo.tables.load.default_path`.
    """
    root = Path(path) if path is not None else default_path()
    t = open_tables(root)
    names = [f["name"] for f in t.manifest["files"] if f["nbytes"] >= HUGE_PAGE]
    del t  # its mappings would keep the pages it maps
    for name in names:
        uncache(root / name)
    t = open_tables(root)
    for role in _large_roles(t):
        _touch(t.arrays[role], 4096)
    return huge_page_bytes(t)
