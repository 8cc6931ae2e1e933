"""Writing one output file: the whole new file or the old one, never half of either.

What is at the path decides how it is written (looked at when the bytes are
ready to go, and already by :func:`check_target`, before the work that makes them):

- **nothing, or a regular file:** the bytes go to a new temporary file beside
  it (``.<name>.tmp-<pid>-<random>``, the name part shortened if needed to
  stay within the directory's longest file name), which is synced and
  renamed over the target; the directory is synced last. A file replaced
  keeps its permission bits, and its owner and group where the process may
  set them (root may set both, other users a group they belong to; where
  that is not allowed the new file is the writer's, with the old bits).
- **a symbolic link:** followed to the end of its chain, and the file there
  is written as above, its temporary file beside it: the link stays a link
  and its target gets the new bytes. A dangling link creates its target when
  the target's directory exists.
- **a FIFO or a character device** (a pipe's ``/dev/stdout``, ``/dev/null``,
  a terminal): the bytes are written straight into it, with no temporary
  file and no rename, which would replace the device node or the pipe with
  a regular file. Opening a FIFO waits for its reader, as for any writer.
  An open file descriptor (the command line's ``-``, standard output) is
  written into the same way.
- **anything else** (a directory, a block device, a socket): a
  :class:`ValueError` naming the path and what it is; nothing is written.

On any failure, an interrupt included, only the temporary file made for the
write is removed; a stream keeps what it was sent before the failure.
:func:`twoplustwo.export_handranks` and the preflop tables' CSV and PNG
writers use :func:`write_file`.

>>> import tempfile, pathlib
>>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_file(target, [b"all ", b"or nothing\\n"])
15
>>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
('all or nothing\\n', ['out.txt'])
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from twoplustwo.tables.system import file_kind

__all__ = ["check_target", "fsync_dir", "write_all", "write_file"]

def check_target(path: object, example: str) -> Path:
    """``path`` as a :class:`~pathlib.Path` of a file to write, in a directory that exists.

    ``example`` is a file name the message for a directory suggests. What is
    at ``path`` must be something :func:`write_file` writes.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or an os.PathLike, got {type(path).__name__}")
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{target}: is a directory; give the file to write, such as {target / example}")
    if not target.parent.is_dir():
        raise ValueError(f"{target.parent}: no such directory to write {target.name} into")
    _destination(target)
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


def _destination(target: Path) -> tuple[Path, os.stat_result | None]:
    """The path to write for ``target`` (a link's final target) and what is there now, None for nothing."""
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        if stat.S_ISFIFO(st.st_mode) or stat.S_ISCHR(st.st_mode):
            return target, st
        kind = file_kind(st.st_mode)
        raise ValueError(f"{target}: is {kind}; only a regular file, a FIFO or a character device is written to")
    if not target.is_symlink():
        return target, st
    final = Path(os.path.realpath(target))
    if not final.parent.is_dir():
        raise ValueError(f"{target}: a symbolic link to {final}, in no directory that exists")
    return final, st


def _name_max(directory: Path) -> int:
    try:
        limit = os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        limit = -1
    return limit if limit > 0 else 255


def _open_temp(target: Path, mode: int) -> tuple[int, Path]:
    """A new file beside ``target``, open for writing, and its path."""
    limit = _name_max(target.parent)
    for _ in range(5):
        suffix = f".tmp-{os.getpid()}-{secrets.token_hex(4)}"
        name = target.name
        # A valid target name near the limit must not fail for the longer name of its temporary file.
        while name and len(os.fsencode(f".{name}{suffix}")) > limit:
            name = name[:-1]
        tmp = target.parent / f".{name}{suffix}"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode), tmp
        except FileExistsError:
            continue
        except OSError as e:
            # Name the directory, not the temporary file the caller never asked for.
            raise OSError(f"{target.parent}: cannot create a file there to write {target.name} ({e.strerror})") from e
    raise OSError(f"{target.parent}: no temporary file could be created there in 5 attempts")


def _keep_owner_and_mode(fd: int, old: os.stat_result) -> None:
    # Owner first: a change of owner clears the set-user-ID bits the mode then restores.
    for uid, gid in ((old.st_uid, old.st_gid), (-1, old.st_gid)):
        try:
            os.fchown(fd, uid, gid)
            break
        except OSError:
            continue
    os.fchmod(fd, stat.S_IMODE(old.st_mode))


def _stream(fd: int, chunks: Iterable[Any], written: Callable[[int], object] | None) -> int:
    total = 0
    for chunk in chunks:
        write_all(fd, chunk)
        n = memoryview(chunk).nbytes
        total += n
        if written is not None:
            written(n)
    return total


def write_file(target: Path | int, chunks: Iterable[Any], written: Callable[[int], object] | None = None) -> int:
    """Write the buffers ``chunks`` in order to ``target`` as the module says; return the bytes written.

    ``target`` is a path from :func:`check_target` or an open file
    descriptor, which is written into and left open. ``written(n)`` is
    called after each chunk of ``n`` bytes (a progress bar's update).
    """
    if isinstance(target, int):
        return _stream(target, chunks, written)
    final, old = _destination(target)
    if old is not None and not stat.S_ISREG(old.st_mode):
        flags = os.O_WRONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
        fd = os.open(final, flags)
        try:
            # Without O_CREAT or O_TRUNC, a regular file put there since would be overwritten in place.
            mode = os.fstat(fd).st_mode
            if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
                raise ValueError(f"{target}: changed from a FIFO or character device while being opened")
            return _stream(fd, chunks, written)
        finally:
            os.close(fd)
    # A replacement starts private: its bytes must not be readable beyond what the old file allowed.
    fd, tmp = _open_temp(final, 0o666 if old is None else 0o600)
    try:
        try:
            if old is not None:
                _keep_owner_and_mode(fd, old)
            total = _stream(fd, chunks, written)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, final)
    except BaseException:
        # Only the file made above: never a pattern, never someone else's temporary file.
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(final.parent)
    return total
