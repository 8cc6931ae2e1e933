"""The operating system's calls under the table set, each with a portable stand-in, chosen here once.

========== ===================================================== ===========================================
job        where the POSIX calls are there                       portable stand-in
========== ===================================================== ===========================================
mapping    libc ``mmap``, no descriptor kept; 2 MiB page advice   Python's :class:`mmap.mmap` (keeps one
                                                                  descriptor per mapped file), no advice
locking    ``flock``: one publisher at a time, live writers'      none: publishes of the same set still
           staging kept, one first-use install                    land whole, stale staging stays
page cache ``posix_fadvise`` drops a file's unmapped pages        sync only
========== ===================================================== ===========================================

The POSIX paths are chosen where the calls exist (Linux, macOS, the BSDs),
the stand-ins elsewhere (Windows). ``$TWOPLUSTWO_PORTABLE=1`` forces every
stand-in on any system, read once at import: the tests run the portable
paths on Linux that way. :func:`describe` says what this process uses.

Every reader and writer of a set opens its files here too: :func:`open_regular`
opens one without ever waiting (a FIFO would wait for a writer forever) and
refuses what is not a regular file, naming it with :func:`file_kind`;
:func:`sha256_file` hashes a whole file as the manifest records it.

>>> sorted(describe())
['locking', 'mapping', 'page cache']
"""

from __future__ import annotations

import ctypes
import mmap
import os
import stat
import weakref

from twoplustwo.tables.format import TableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "ENV_VAR",
    "HUGE_PAGE",
    "LOCKS",
    "PORTABLE",
    "describe",
    "drop_cache",
    "file_kind",
    "lock",
    "map_readonly",
    "open_regular",
    "sha256_file",
]

#: Set to ``1`` to force the portable stand-ins.
ENV_VAR = "TWOPLUSTWO_PORTABLE"
#: Whether the stand-ins were forced.
PORTABLE = os.environ.get(ENV_VAR, "").strip() not in ("", "0")

#: Mappings this large or larger are advised to use huge pages (2 MiB on
#: x86-64 and most ARM systems); see :mod:`twoplustwo.tables.pages`.
HUGE_PAGE = 2 * 1024 * 1024

_PROT_READ = getattr(mmap, "PROT_READ", 1)
_MAP_SHARED = getattr(mmap, "MAP_SHARED", 1)
_MADV_HUGEPAGE: int | None = getattr(mmap, "MADV_HUGEPAGE", None)
_MADV_RANDOM: int = getattr(mmap, "MADV_RANDOM", 1)


def _libc_mmap() -> Any:
    """libc's mmap and munmap through ctypes, or None where there is no such libc (or stand-ins are forced)."""
    if PORTABLE:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        libc.madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
        return libc
    except (OSError, AttributeError, TypeError):  # Windows: CDLL(None) is a TypeError
        return None


_libc = _libc_mmap()

try:
    import fcntl as _fcntl
except ImportError:
    _fcntl = None  # type: ignore[assignment]
#: Whether advisory locks (``flock``) are used.
LOCKS = _fcntl is not None and not PORTABLE


def map_readonly(fd: int, size: int, path: str) -> memoryview:
    """A read-only view of the whole file ``fd`` (``size`` bytes), unmapped when the last view of it is gone.

    Through libc, the mapping does not keep ``fd`` open; Python's ``mmap``
    keeps a duplicate of it for the life of the mapping.
    """
    if size == 0:
        return memoryview(b"")
    if _libc is None:
        try:
            return memoryview(mmap.mmap(fd, size, access=mmap.ACCESS_READ))
        except OSError as e:
            raise TableError(f"{path}: cannot be memory-mapped ({e.strerror})") from None
    addr = _libc.mmap(None, size, _PROT_READ, _MAP_SHARED, fd, 0)
    if addr is None or addr == ctypes.c_void_p(-1).value:
        err = ctypes.get_errno()
        raise TableError(f"{path}: cannot be memory-mapped ({os.strerror(err)})")
    if size >= HUGE_PAGE and _MADV_HUGEPAGE is not None and _libc.madvise(addr, size, _MADV_HUGEPAGE) == 0:
        # A page not yet cached is then read in a 2 MiB piece, and mapped
        # with a 2 MiB page: random walks of dag7 miss the TLB far less
        # (twoplustwo.tables.pages). No readahead past that piece: walks are
        # random, and readahead that goes on from a read begun elsewhere
        # (another open file's) would read the rest in small pieces.
        # Advice only: a system that takes none maps as before.
        _libc.madvise(addr, size, _MADV_RANDOM)
    buf = (ctypes.c_ubyte * size).from_address(addr)
    unmap = weakref.finalize(buf, _libc.munmap, addr, size)
    # Arrays may still be read by other threads while the interpreter exits.
    unmap.atexit = False
    return memoryview(buf).cast("B").toreadonly()


def lock(fd: int, *, wait: bool = True) -> None:
    """Take an exclusive advisory lock on ``fd``, dropped when it is closed; only where :data:`LOCKS`.

    Without ``wait``, a lock another holder has raises ``BlockingIOError``.
    A file system without locks raises another ``OSError``.
    """
    if not LOCKS:
        raise RuntimeError("no advisory locks here: callers check LOCKS first")
    _fcntl.flock(fd, _fcntl.LOCK_EX if wait else _fcntl.LOCK_EX | _fcntl.LOCK_NB)


def drop_cache(fd: int) -> None:
    """Ask the system to drop the cached pages of ``fd`` that no process maps (best effort; nothing if it cannot)."""
    if hasattr(os, "posix_fadvise") and not PORTABLE:
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        except OSError:
            pass


def describe() -> dict[str, str]:
    """What this process uses for each job, in words (``twoplustwo info`` prints it)."""
    return {
        "mapping": "libc mmap, 2 MiB page advice" if _libc is not None else "Python mmap",
        "locking": "flock" if LOCKS else "none",
        "page cache": "posix_fadvise" if hasattr(os, "posix_fadvise") and not PORTABLE else "sync only",
    }


# O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NONBLOCK", 0)


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, for messages: "a FIFO", "a directory", ..."""
    for test, name in [
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ]:
        if test(mode):
            return name
    return "not a regular file"


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of the regular file ``path``, opened without ever waiting; the caller closes it.

    How a reader opens the manifest and every array of a set. A symbolic
    link is followed, and what it leads to is checked. Anything but a
    regular file raises :class:`TableError` naming it and what it is: a
    FIFO would make a plain open() wait for a writer forever, and a
    directory, socket or device holds nothing the format describes. Other
    failures to open (a missing file included) raise :class:`OSError`.
    """
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        # A socket cannot be opened at all: say what is there, not "no such device".
        kind = _other_kind(path)
        if kind is not None:
            raise TableError(f"{os.fspath(path)}: is {kind}, not a regular file") from None
        raise
    # fstat, not a stat before the open: it checks the very file opened.
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise TableError(f"{os.fspath(path)}: is {file_kind(mode)}, not a regular file")
    except BaseException:
        os.close(fd)
        raise
    return fd


def _other_kind(path: str | os.PathLike[str]) -> str | None:
    """What ``path`` leads to if that is there and not a regular file, else None."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None
    return None if stat.S_ISREG(mode) else file_kind(mode)


def sha256_file(path: str | os.PathLike[str]) -> str:
    """The sha256 of a whole file, header included, as the manifest records it (64 hex digits)."""
    import hashlib  # here: loading tables never hashes, only verifying does

    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
    return h.hexdigest()
