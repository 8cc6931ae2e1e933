"""The one thread pool of a process, and the one check of a ``threads=`` argument.

Every parallel function (:func:`~twoplustwo.evaluate_batch`,
:func:`~twoplustwo.iter_hands`, :func:`~twoplustwo.equity`) splits its work
into ``threads`` parts and runs them here. numpy's ``take`` and the other
kernels they use release the GIL, so the parts run on all cores.

There is one pool per process. It grows to the largest ``threads`` asked
for (at most :data:`MAX_THREADS`), and since work is split into exactly
``threads`` parts, no more than that many run at once. A child made by
``fork`` inherits the parent's pool objects but none of its threads, so the
pool, and every lock this package holds, is dropped in the child
(``os.register_at_fork``) and made afresh on first use.

>>> resolve_threads(None) == (os.cpu_count() or 1)
True
>>> resolve_threads(0)
Traceback (most recent call last):
...
ValueError: threads must be None or an int from 1 to 256, got 0
"""

from __future__ import annotations

import operator
import os
import threading
from collections.abc import Callable, Iterable

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor
    from typing import Any, TypeVar

    T = TypeVar("T")

__all__ = ["MAX_THREADS", "after_fork", "first_bad", "resolve_threads", "run", "submit"]

#: The most threads any call may ask for. More than the cores only adds
#: overhead; the cap keeps a typo (threads=10**6) from costing minutes and
#: gigabytes of thread stacks.
MAX_THREADS = 256

# Asking the OS on every call costs more than a small batch's whole walk.
_DEFAULT = min(os.cpu_count() or 1, MAX_THREADS)

_pool: ThreadPoolExecutor | None = None
_size = 0
_lock = threading.Lock()
_fork_hooks: list[Callable[[], None]] = []


def resolve_threads(threads: object) -> int:
    """``threads`` checked: ``None`` means one per CPU, else an int from 1 to :data:`MAX_THREADS`."""
    if threads is None:
        return _DEFAULT
    if isinstance(threads, bool) or not hasattr(threads, "__index__"):
        raise TypeError(f"threads must be None or an int, got {type(threads).__name__}")
    n = operator.index(threads)
    if not 1 <= n <= MAX_THREADS:
        raise ValueError(f"threads must be None or an int from 1 to {MAX_THREADS}, got {n}")
    return int(n)


def _get_pool(workers: int) -> ThreadPoolExecutor:
    # Imported here: single-hand callers never need a pool, and a fresh
    # process's first evaluate() should not pay for concurrent.futures.
    from concurrent.futures import ThreadPoolExecutor

    global _pool, _size
    with _lock:
        if _pool is None or _size < workers:
            old = _pool
            _pool, _size = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="twoplustwo"), workers
            if old is not None:
                # Running tasks finish on the old threads, which then exit.
                old.shutdown(wait=False)
        return _pool


def submit(workers: int, fn: Callable[..., T], *args: Any) -> Future[T]:
    """Run ``fn(*args)`` on the pool, sized for at least ``workers`` threads."""
    return _get_pool(workers).submit(fn, *args)


def run(workers: int, fn: Callable[..., T], *iterables: Iterable[Any], stop: threading.Event | None = None) -> list[T]:
    """``[fn(*args) for args in zip(*iterables)]``, computed on ``workers`` threads.

    With one worker everything runs in the calling thread, so small jobs
    and ``threads=1`` never touch the pool.

    ``stop`` is for long parts that check it between short steps and then
    return early. When a part fails or the caller is interrupted (Ctrl-C),
    ``run`` sets ``stop`` and waits for the running parts to return before
    it raises, so that none goes on working unseen: the pool is idle for the
    next call and the process can exit at once.
    """
    if workers == 1:
        return [fn(*args) for args in zip(*iterables)]
    parts = list(zip(*iterables))
    # The calling thread runs the last part itself where that keeps to
    # `workers` threads at once: it would only wait, and one pool thread
    # fewer to wake starts the work a tenth of a millisecond sooner.
    mine = parts.pop() if 1 < len(parts) <= workers else None

    def guarded(*args: Any) -> T:
        # A failure stops the others as it happens, the caller's part too,
        # not once the parts before it are done.
        try:
            return fn(*args)
        except BaseException:
            if stop is not None:
                stop.set()
            raise

    futures: list[Future[T]] = []
    try:
        for args in parts:
            futures.append(submit(workers, guarded, *args))
        last = [guarded(*mine)] if mine is not None else []
        if stop is not None:
            from concurrent.futures import as_completed

            for f in as_completed(futures):
                f.result()
        return [f.result() for f in futures] + last
    finally:
        # A failed part must not leave the others queued behind the caller.
        for f in futures:
            f.cancel()
        if stop is not None:
            from concurrent.futures import wait

            stop.set()
            wait(futures)


def first_bad(workers: int, rows: int, part: Callable[[int, int], int]) -> int:
    """Run ``part(lo, hi)`` over ``rows`` rows cut into ``workers`` equal parts; the least index it reports, or -1.

    Each part fills its rows and returns -1, or the index where it met a bad
    row and stopped: the batch functions' shape of parallel work.

    >>> first_bad(2, 10, lambda lo, hi: 7 if lo <= 7 < hi else -1)
    7
    """
    cuts = [rows * i // workers for i in range(workers + 1)]
    bad = [a for a in run(workers, part, cuts[:-1], cuts[1:]) if a >= 0]
    return min(bad) if bad else -1


def after_fork(hook: Callable[[], None]) -> None:
    """Call ``hook`` in every child process made by ``fork``, to drop per-process state."""
    _fork_hooks.append(hook)


def _reset_in_child() -> None:
    global _pool, _size, _lock
    # The parent's worker threads do not exist here, and a lock some other
    # parent thread held at the fork would stay locked forever.
    _pool, _size, _lock = None, 0, threading.Lock()
    for hook in _fork_hooks:
        hook()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_in_child)
