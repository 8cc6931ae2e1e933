"""Publish a staged table set atomically: the one protocol builds and installs share.

A writer publishes into a target directory ``TARGET`` like this:

1. :func:`new_staging` creates ``TARGET/.build-<pid>-<8 hex digits>`` (the
   pid is for people; nothing reads it back), opens it, takes
   ``flock(LOCK_EX)`` on it and keeps that descriptor until :func:`publish`
   or :func:`discard`; only then does it create the empty marker file
   ``.twoplustwo-staging`` in it. The lock says the writer is alive: the
   kernel drops it when the writer dies, in whatever pid namespace it ran.
2. The writer fills the staging directory with arrays named by content,
   ``<role with "/" as ".">.<first 16 hex digits of the sha256>.npy``
   (:func:`content_name`; other names are refused), and ``manifest.json``.
   Every file the manifest lists is published, game roles included; a role
   this version does not know is refused, since its files could never be
   told from a user's when they are to be removed.
3. :func:`publish` takes ``flock(LOCK_EX)`` on ``TARGET/.lock`` (opened
   with ``O_NOFOLLOW``, created with mode 0644; a symlink or anything but a
   regular file is refused) and writes the ledger ``TARGET/.publishing``, a
   JSON list of file names, atomically (written in the staging directory,
   renamed into place): the arrays it is about to move in, the arrays the
   current manifest lists and the names an earlier ledger still holds. Only
   array names, ``<role with "/" as ".">.<label>.npy``, are ever recorded.
4. It renames each array into ``TARGET``, then ``manifest.json``: the commit
   point. A name is a content hash, so a rename never changes the bytes of a
   file a reader may be using.
5. It cleans up, best effort (errors are swallowed: the new set is already
   published): it removes each name on the ledger that the new manifest
   does not list, if it is a regular file; its own staging directory; every
   other ``.build-*`` directory that carries the marker, or is empty and
   named as in step 1, whose lock it can take without waiting (its writer
   is gone); and then the ledger, if every removal worked. It drops the lock.

A publish that fails before its commit removes again what the ledger names
and the current manifest does not list, then the ledger (unless the current
manifest cannot be read: then the next publish does). A writer killed
between its renames and its commit leaves its arrays on the ledger, so the
next publish removes them. :func:`discard` removes a staging directory and
then the directories :func:`new_staging` created for it, while nothing else
is in them (a ``.lock`` alone is removed under the lock): a failed first
build or install leaves no empty target. Nothing else is ever removed: not a
user's ``notes.npy``, ``x.npy/`` or ``.build-mine/``. Where ``flock`` is
missing, staging directories of dead writers are never removed.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from twoplustwo.tables import system
from twoplustwo.tables.format import MANIFEST, MAX_MANIFEST_BYTES, TableError, known_role, parse_manifest
from twoplustwo.tables.system import file_kind

__all__ = [
    "LEDGER",
    "LOCK",
    "STAGE_MARKER",
    "STAGE_PREFIX",
    "content_name",
    "discard",
    "make_dirs",
    "new_staging",
    "publish",
    "remove_created",
]

#: Staging directories are named ``<STAGE_PREFIX><pid>-<8 hex digits>``.
STAGE_PREFIX = ".build-"
#: Empty file in every staging directory: what marks it as this project's.
STAGE_MARKER = ".twoplustwo-staging"
#: JSON list of the array names a publish may leave behind if it is killed.
LEDGER = ".publishing"
#: The file publishers lock, one at a time.
LOCK = ".lock"

_STAGE_NAME = re.compile(re.escape(STAGE_PREFIX) + r"[0-9]+-[0-9a-f]{8}")
# Array names a writer of ours may have put in a target: a role with "/" as
# ".", a label, .npy. Content names are the label of 16 hex digits; older or
# hand-made sets may use others. The role part is checked by _is_array_name.
_ARRAY_NAME = re.compile(
    r"((?:[a-z0-9-]+\.)?dag[0-9]+\.(?:layer|value)[0-9]+|strength\.[a-z]+\.[a-z0-9]+|buckets\.[a-z]+\.[a-z]+\.[0-9]+)\.[A-Za-z0-9_-][A-Za-z0-9._-]*\.npy"
)
_O_NOFOLLOW: int = getattr(os, "O_NOFOLLOW", 0)
_O_NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
_O_DIRECTORY: int = getattr(os, "O_DIRECTORY", 0)
_ATTEMPTS = 5


@dataclass
class _Held:
    fd: int | None  # open on the staging directory, holding its flock (None without flock)
    created: list[Path]  # directories new_staging made for it


# Staging directories this process holds, until publish or discard consumes them.
_held: dict[Path, _Held] = {}


def content_name(role: str, sha256: str) -> str:
    """The file name of an array: its role with ``/`` as ``.``, 16 hex digits of its sha256, ``.npy``.

    >>> content_name("dag7/layer3", "b15e22a46afa8b0c" + "0" * 48)
    'dag7.layer3.b15e22a46afa8b0c.npy'
    """
    return f"{role.replace('/', '.')}.{sha256[:16]}.npy"


def _is_array_name(name: str) -> bool:
    """Whether ``name`` is an array name of a role this version knows: the only names a writer removes."""
    found = _ARRAY_NAME.fullmatch(name)
    # Roles hold no ".", so the role part maps back to exactly one role.
    return found is not None and known_role(found.group(1).replace(".", "/"))


def _lstat_kind(path: Path) -> str | None:
    try:
        return file_kind(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None


# ------------------------------------------------------------------ staging


def make_dirs(target: Path) -> list[Path]:
    """Create ``target`` and its missing parents; return those this call created."""
    missing = []
    p = target
    while not os.path.lexists(p) and p.parent != p:
        missing.append(p)
        p = p.parent
    created: list[Path] = []
    try:
        for d in reversed(missing):
            try:
                os.mkdir(d)
            except FileExistsError:  # another writer made it: theirs, not ours to remove
                continue
            created.append(d)
    except BaseException:
        remove_created(created)
        raise
    return created


def _hold(staging: Path) -> int | None:
    """Lock a new staging directory and mark it; the descriptor holding the lock."""
    fd = None
    try:
        if system.LOCKS:
            fd = os.open(staging, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW)
            try:
                system.lock(fd, wait=False)
            except BlockingIOError:
                # A clean-up took it for abandoned (empty, unlocked) and is removing it.
                raise FileNotFoundError(staging) from None
            except OSError:
                pass  # no flock on this file system: clean-ups cannot lock it either, so they leave it be
        # Marked only once locked, so that no clean-up ever sees it marked and free.
        os.close(os.open(staging / STAGE_MARKER, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except BaseException:
        if fd is not None:
            os.close(fd)
        raise
    return fd


def new_staging(target: Path) -> Path:
    """Create a staging directory inside ``target`` (created if need be), held by this process.

    It is empty but for its marker file. Doing this first makes an
    unwritable target fail before any work. The directory stays locked until
    :func:`publish` or :func:`discard` consumes it; other writers take it
    for abandoned only once that lock is gone.
    """
    target = Path(target)
    created = make_dirs(target)
    try:
        for _ in range(_ATTEMPTS):
            staging = target / f"{STAGE_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
            try:
                os.mkdir(staging, 0o700)
            except FileExistsError:
                continue
            except FileNotFoundError:
                # A failed writer that had created the target removed it again.
                created += make_dirs(target)
                continue
            except BaseException:
                # Ctrl-C as mkdir returned: the directory may be there, empty.
                with contextlib.suppress(OSError):
                    os.rmdir(staging)
                raise
            fd = None
            try:
                fd = _hold(staging)
                _held[staging] = _Held(fd, created)
            except FileNotFoundError:
                with contextlib.suppress(OSError):
                    os.rmdir(staging)
                continue
            except BaseException:
                # Until it is held, the directory is this call's to remove (Ctrl-C included).
                _held.pop(staging, None)
                if fd is not None:
                    os.close(fd)
                with contextlib.suppress(OSError):
                    _remove_staging(staging)
                raise
            return staging
        raise OSError(f"{target}: no staging directory could be created there in {_ATTEMPTS} attempts")
    except BaseException:
        remove_created(created)
        raise


def _remove_staging(path: Path) -> None:
    """Remove a staging directory, its marker last: a removal cut short leaves it still marked."""
    with os.scandir(path) as it:
        entries = list(it)
    for entry in entries:
        if entry.name == STAGE_MARKER:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.unlink(entry.path)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path / STAGE_MARKER)
    os.rmdir(path)


def _release(staging: Path) -> _Held | None:
    held = _held.pop(staging, None)
    if held is not None and held.fd is not None:
        with contextlib.suppress(OSError):
            os.close(held.fd)
    return held


def remove_created(created: Iterable[Path]) -> None:
    """Remove directories :func:`make_dirs` created, deepest first, each only while empty (a lock file aside)."""
    dirs = sorted(set(created), key=lambda p: len(p.parts), reverse=True)
    if not dirs:
        return
    with contextlib.suppress(OSError, ValueError):
        if os.listdir(dirs[0]) == [LOCK]:
            # Some publish of ours got as far as the lock and no further; recheck
            # under the lock, so that no writer in its publish loses it.
            with _locked(dirs[0]):
                if os.listdir(dirs[0]) == [LOCK]:
                    os.unlink(dirs[0] / LOCK)
        for d in dirs:
            os.rmdir(d)


def discard(staging: Path) -> None:
    """Remove a staging directory and everything in it.

    Directories :func:`new_staging` created for it go too, if nothing else
    is in them: a failed first build or install leaves no empty target.
    """
    staging = Path(staging)
    try:
        _remove_staging(staging)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
    held = _release(staging)
    if held is not None:
        remove_created(held.created)


def _sweep_staging(target: Path) -> None:
    """Remove staging directories whose writers are gone (best effort)."""
    if not system.LOCKS:
        return  # no locks, no way to tell a dead writer from a live one
    with os.scandir(target) as it:
        entries = [e for e in it if e.name.startswith(STAGE_PREFIX) and e.is_dir(follow_symlinks=False)]
    for entry in entries:
        path = target / entry.name
        try:
            marked = _lstat_kind(path / STAGE_MARKER) == "a regular file"
            if not marked and not _STAGE_NAME.fullmatch(entry.name):
                continue  # not ours
            fd = os.open(path, os.O_RDONLY | _O_DIRECTORY | _O_NOFOLLOW)
        except OSError:
            continue
        try:
            system.lock(fd, wait=False)
            if marked:
                _remove_staging(path)
            else:
                # Unmarked, it is ours only as new_staging leaves it between
                # mkdir and marking: empty. rmdir removes nothing else.
                os.rmdir(path)
        except OSError:
            continue  # locked (its writer is alive), not empty, or not removable: leave it
        finally:
            os.close(fd)


# ------------------------------------------------------------------ publish


def _open_lock(path: Path) -> int:
    # O_NONBLOCK: opening a FIFO for writing would otherwise wait for a reader forever.
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | _O_NOFOLLOW | _O_NONBLOCK, 0o644)
    except OSError:
        kind = _lstat_kind(path)
        if kind is not None and kind != "a regular file":
            raise TableError(
                f"{path}: the lock file is {kind}; it must be a regular file (remove it and try again)"
            ) from None
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = file_kind(mode)
        raise TableError(f"{path}: the lock file is {kind}; it must be a regular file (remove it and try again)")
    return fd


@contextlib.contextmanager
def _locked(target: Path) -> Iterator[None]:
    fd = _open_lock(target / LOCK)
    try:
        if system.LOCKS:
            system.lock(fd)
        yield
    finally:
        os.close(fd)  # drops the lock


def _read_small(path: Path) -> bytes | None:
    """Up to a manifest's size limit of a regular file, not through a symlink; None if absent or unreadable."""
    try:
        fd = os.open(path, os.O_RDONLY | _O_NOFOLLOW | _O_NONBLOCK)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(MAX_MANIFEST_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def _listed(data: str | bytes | None) -> set[str] | None:
    """Every file name a manifest lists, whatever its version or roles; None if it cannot be read."""
    try:
        files = json.loads(data)["files"] if data is not None else None
    except (ValueError, TypeError, KeyError, RecursionError):
        return None
    if not isinstance(files, list):
        return None
    return {f["name"] for f in files if isinstance(f, dict) and isinstance(f.get("name"), str)}


def _read_ledger(target: Path) -> set[str]:
    path = target / LEDGER
    kind = _lstat_kind(path)
    if kind is not None and kind != "a regular file":
        raise TableError(f"{path}: the publish ledger is {kind}; it must be a regular file (remove it and try again)")
    data = _read_small(path)
    try:
        names = json.loads(data) if data is not None else []
    except ValueError:
        return set()  # torn or foreign: nothing on it can be trusted to be ours
    if not isinstance(names, list):
        return set()
    return {n for n in names if isinstance(n, str) and _is_array_name(n)}


def _remove_unlisted(target: Path, names: Iterable[str], keep: set[str]) -> bool:
    """Remove each regular file in ``names`` but not in ``keep``; whether every removal worked."""
    ok = True
    for name in names:
        if name in keep or not _is_array_name(name):
            continue
        try:
            if _lstat_kind(target / name) == "a regular file":
                os.unlink(target / name)
        except FileNotFoundError:
            pass
        except OSError:
            ok = False
    return ok


def _clean_up(target: Path, staging: Path, ledger: list[str], keep: set[str]) -> None:
    """After the commit: remove what is no longer listed and abandoned staging. Never raises an Exception."""
    clean = False
    with contextlib.suppress(Exception):
        clean = _remove_unlisted(target, ledger, keep)
    with contextlib.suppress(Exception):
        _remove_staging(staging)
    _release(staging)
    with contextlib.suppress(Exception):
        _sweep_staging(target)
    if clean:
        with contextlib.suppress(Exception):
            os.unlink(target / LEDGER)


def publish(staging: Path) -> Path:
    """Move a complete staged table set into its parent directory; return the parent.

    A staged manifest that does not parse, or names an array other than by
    :func:`content_name`, and a ``.lock`` that is not a regular file raise
    :class:`TableError` before anything changes. After ``manifest.json`` is
    renamed into place (the commit) nothing raises: clean-up is best effort.
    """
    staging = Path(staging)
    target = staging.parent
    text = (staging / MANIFEST).read_text()
    # Strict: every file the manifest lists is moved in, so each must be of a
    # role this version knows, or a later clean-up could not remove it.
    manifest = parse_manifest(text, staging / MANIFEST, strict=True)
    new = [f["name"] for f in manifest["files"]]
    for f in manifest["files"]:
        want = content_name(f["role"], f["sha256"])
        if f["name"] != want:
            raise TableError(
                f"{staging / MANIFEST}: {f['role']} is named {f['name']!r}; a published array is named "
                f"by its content: {want!r}"
            )
    with _locked(target):
        current = _listed(_read_small(target / MANIFEST))
        if current is None and not os.path.lexists(target / MANIFEST):
            current = set()  # a first publish
        listed = current or set()
        ledger = sorted(_read_ledger(target) | {n for n in listed if _is_array_name(n)} | set(new))
        (staging / LEDGER).write_text(json.dumps(ledger) + "\n")
        os.replace(staging / LEDGER, target / LEDGER)
        try:
            for name in new:
                os.replace(staging / name, target / name)
            os.replace(staging / MANIFEST, target / MANIFEST)
        except BaseException:
            # Not committed: take back what was moved in, unless the current set lists it
            # (a manifest that cannot be read might: then the next publish sees to it).
            if current is not None:
                with contextlib.suppress(Exception):
                    if _remove_unlisted(target, ledger, current):
                        os.unlink(target / LEDGER)
            raise
        _clean_up(target, staging, ledger, _listed(text) or set(new))
    return target
