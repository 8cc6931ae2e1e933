"""Writing one file atomically: the whole new file or the old one, never half of either.

The bytes go to a new temporary file beside the target (``.<name>.tmp-<pid>-<random>``),
which is synced and renamed over the target; the directory is synced last.
On any failure, an interrupt included, only that temporary file is removed.
:func:`twoplustwo.export_handranks` and the preflop tables' CSV and PNG
writers use it.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_atomically(target, [b"all ", b"or nothing\\n"])
>>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
('all or nothing\\n', ['out.txt'])
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

__all__ = ["check_target", "fsync_dir", "write_all", "write_atomically"]


def check_target(path: object, example: str) -> Path:
    """``path`` as a :class:`~pathlib.Path` of a file to write, in a directory that exists.

    ``example`` is a file name the message for a directory suggests.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or an os.PathLike, got {type(path).__name__}")
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{target}: is a directory; give the file to write, such as {target / example}")
    if not target.parent.is_dir():
        raise ValueError(f"{target.parent}: no such directory to write {target.name} into")
    return target


def write_all(fd: int, chunk: Any) -> None:
    """Write every byte of the buffer ``chunk`` (bytes, a numpy array, ...) to ``fd``."""
    data = memoryview(chunk).cast("B")
    while data:
        data = data[os.write(fd, data) :]


def fsync_dir(directory: Path) -> None:
    # The rename is already done: a file system that cannot sync a directory
    # costs only the rename's durability across a crash, not the file.
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _open_temp(target: Path) -> tuple[int, Path]:
    """A new file beside ``target``, open for writing, and its path."""
    for _ in range(5):
        tmp = target.parent / f".{target.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666), tmp
        except FileExistsError:
            continue
        except OSError as e:
            # Name the directory, not the temporary file the caller never asked for.
            raise OSError(f"{target.parent}: cannot create a file there to write {target.name} ({e.strerror})") from e
    raise OSError(f"{target.parent}: no temporary file could be created there in 5 attempts")


def write_atomically(target: Path, chunks: Iterable[Any], written: Callable[[int], object] | None = None) -> None:
    """Write the buffers ``chunks`` in order as the file ``target``, atomically.

    ``written(n)`` is called after each chunk of ``n`` bytes (a progress bar's update).
    """
    fd, tmp = _open_temp(target)
    try:
        try:
            for chunk in chunks:
                write_all(fd, chunk)
                if written is not None:
                    written(memoryview(chunk).nbytes)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
    except BaseException:
        # Only the file made above: never a pattern, never someone else's temporary file.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(target.parent)
