"""The default table set: found, installed from the package's own bundle on first use, loaded once per process.

:func:`~twoplustwo.tables.load.default_path` says where the default set
lives: ``$TWOPLUSTWO_TABLES``, else a checkout's ``tables/``, else the
per-user cache. A wheel carries the table set as a compressed bundle
(:data:`BUNDLED`, about 3.6 MB). The first :func:`load_tables` of the
default set that finds no ``manifest.json`` there installs that bundle into
it, with one line on stderr and a bar on a terminal, through the same
checked, atomic install as ``twoplustwo install-tables``
(:func:`twoplustwo.tables.bundle.install_bundle`). Processes that start
together install it once: each takes a lock on the directory, and whoever
comes second finds the set published and loads it. A set that is there,
damaged or not, is never replaced behind the caller's back, and a package
without a bundle (a checkout before ``make wheel``) installs nothing: the
loader's error says how to get tables.

:func:`get_tables` is how every function resolves ``tables=None``: the
default set, loaded on first use and shared afterwards.

>>> get_tables() is get_tables()
True
>>> get_tables().path == load_tables().path
True
"""

from __future__ import annotations

import functools
import os
import sys
import threading

from twoplustwo.tables import system
from twoplustwo.tables.format import MANIFEST, TableError, bundle_name
from twoplustwo.tables.load import ENV_VAR, Tables, default_dir, open_tables

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["BUNDLED", "clear_cache", "get_tables", "install_bundled", "load_tables", "on_default", "tables_at"]

#: Where the package keeps its table bundle, if it was built with one (``make wheel``).
BUNDLED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundled", bundle_name())


def load_tables(path: str | os.PathLike[str] | None = None, *, verify: bool = False) -> Tables:
    """Memory-map a table set read-only after checking its manifest and file sizes.

    ``path`` defaults to :func:`~twoplustwo.tables.load.default_path`, where
    the package's bundle is installed first if no set is there
    (:func:`install_bundled`). ``verify=True`` also hashes every byte.
    Missing tables raise :class:`~twoplustwo.tables.format.TableError`
    saying how to build or install them, and so does a default directory
    the bundle cannot be installed into (a file in the way, a symbolic link
    loop, no permission), naming it, the reason and ``$TWOPLUSTWO_TABLES``.
    A manifest or listed file that is not a regular file raises it too,
    naming it (a FIFO is refused, never waited on); a symbolic link to a
    regular file is fine.
    """
    if path is None:
        path = default_dir()
        try:
            install_bundled(path)
        except OSError as e:
            raise TableError(
                f"no tables at {path}, and the package's bundle cannot be installed there: {_reason(path, e)}; "
                f"set ${ENV_VAR} to a directory that can hold them"
            ) from None
    return open_tables(path, verify=verify)


def _reason(path: str, e: OSError) -> str:
    """What stopped an install into ``path``: the file in the way, else the system's words and what they are about."""
    if isinstance(e, (NotADirectoryError, FileExistsError)):
        # The system names the directory it could not make; the user needs the file that stands in its way.
        p = os.path.abspath(path)
        while not os.path.isdir(p) and os.path.dirname(p) != p:
            if os.path.lexists(p):
                return f"{p} is not a directory"
            p = os.path.dirname(p)
    where = f" ({e.filename})" if e.filename else ""
    return f"{e.strerror or e}{where}"


def install_bundled(target: str | os.PathLike[str]) -> bool:
    """Install the package's bundle into ``target`` if it holds no table set; True if this call installed it.

    Nothing happens when ``target`` has a ``manifest.json`` (whatever its
    state) or the package carries no bundle. Concurrent callers, in
    threads or processes, install once: the directory's lock is held from
    the check to the publish.
    """
    root = os.fspath(target)
    if os.path.lexists(os.path.join(root, MANIFEST)) or not os.path.isfile(BUNDLED):
        return False
    # Here, not at the top: a fresh process's first evaluate() imports neither.
    from pathlib import Path

    from twoplustwo.tables.bundle import install_bundle
    from twoplustwo.tables.publish import make_dirs, remove_created

    # Made now, to be locked; removed again, while empty, if the install fails.
    created = make_dirs(Path(root))
    try:
        with _DirectoryLock(root):
            if os.path.lexists(os.path.join(root, MANIFEST)):
                return False  # another process installed it while this one waited
            size = os.path.getsize(BUNDLED) / 1e6
            print(f"twoplustwo: first use: installing the tables ({size:.1f} MB bundle) into {root}", file=sys.stderr)
            install_bundle(BUNDLED, root)
            return True
    except BaseException:
        remove_created(created)
        raise


class _DirectoryLock:
    """An exclusive lock on a directory itself, for the length of a ``with``; nothing where locks are missing.

    The directory, not a file in it: the install publishes under its own
    ``.lock`` (:mod:`twoplustwo.tables.publish`), which a lock of this
    process on another descriptor would block.
    """

    def __init__(self, path: str) -> None:
        self._path = path
        self._fd: int | None = None

    def __enter__(self) -> None:
        if not system.LOCKS:
            return  # concurrent installs then each publish the same files, each whole
        self._fd = os.open(self._path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        system.lock(self._fd)

    def __exit__(self, *exc: object) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None


# -------------------------------------------------------------------- the process's default set

_lock = threading.Lock()
_cached: Tables | None = None
_hooks: list[Callable[[Tables | None], None]] = []


def on_default(hook: Callable[[Tables | None], None]) -> None:
    """Call ``hook(t)`` with the default set ``t`` when it loads (now, if loaded), ``hook(None)`` when it is forgotten.

    How a floor above keeps something of its own in step with the default
    set without this floor knowing it: the kernels let the C entry point of
    evaluate() serve the default set's walker (:mod:`twoplustwo.kernels.games`).
    A hook runs under the default set's lock, so it must not load tables.
    """
    with _lock:
        _hooks.append(hook)
        if _cached is not None:
            hook(_cached)


def clear_cache() -> None:
    """Forget the default tables, so the next use loads them again (say after a rebuild)."""
    global _cached
    with _lock:
        _cached = None
        for hook in _hooks:
            hook(None)


def get_tables(tables: Tables | None = None) -> Tables:
    """``tables`` if given, else the default set, loaded on first use and shared afterwards.

    Every function that reads tables takes ``tables=None`` and resolves it here.
    """
    if tables is not None:
        if not isinstance(tables, Tables):
            raise TypeError(f"tables must be a Tables from load_tables() or None, got {type(tables).__name__}")
        return tables
    t = _cached
    if t is None:
        t = _load_default()
    return t


@functools.lru_cache(maxsize=4)
def tables_at(path: str) -> Tables:
    """The set at ``path``, loaded once per process: what a task on an executor's worker reads.

    Work sent to other processes (a process pool, a dask cluster) names its
    tables by path, and each worker maps them on its first task only.
    """
    return load_tables(path)


def _load_default() -> Tables:
    global _cached
    with _lock:
        if _cached is None:
            t = load_tables()
            for hook in _hooks:
                hook(t)
            _cached = t
        return _cached


def _fresh_lock_in_child() -> None:
    # A lock some other parent thread held at the fork would stay locked forever.
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock_in_child)
