"""Caller memory changing under a call: another thread writes one cell of an input array.

A public function that checks the caller's array and then reads it again
(to cast it, copy it or walk it) lets a value written in between through
unchecked: a 300 checked as out of range and then cast to uint8 is 44, a
valid card. Every call must raise ``ValueError`` (it saw the bad value) or
return the answer for one of the two states the array was in, never a
third answer or another exception.

:func:`every_moment` is the deterministic form: the other thread's write
lands just before the first step of the package's code (a C function it
calls, such as a numpy method or a kernel, or a library's Python function
it enters, or the return of either), then just before its second, and so on through all of them,
one run each, in both directions (the cell's value to ``other``, and back). So
a check and a later read of the caller's array are always split by some
run. :func:`race` is the real thing: a thread flips the cell over and over
while the call runs again and again; on a loaded machine its writes land
inside the window only now and then.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import twoplustwo

# The package's source folder: the steps counted are those its own code makes. A kernel (twoplustwo/kernels/,
# the numpy twins of the C ones) is one step: its own reads are raced in tests/kernels/test_backends.py.
_PACKAGE = os.path.dirname(os.path.abspath(twoplustwo.__file__)) + os.sep
_KERNELS = os.path.join(_PACKAGE, "kernels") + os.sep


_known: dict[str, bool] = {}


def _ours(frame: Any) -> bool:
    name: str = frame.f_code.co_filename
    mine = _known.get(name)
    if mine is None:
        mine = _known[name] = name.startswith(_PACKAGE) and not name.startswith(_KERNELS)
    return mine


def race(
    cells: np.ndarray,
    at: tuple[int, ...],
    other: int,
    call: Callable[[], Any],
    answers: Sequence[Any],
    *,
    same: Callable[[Any, Any], bool] | None = None,
    least: int = 50,
) -> tuple[int, int]:
    """Call ``call`` while a thread writes ``other`` and the cell's own value into ``cells[at]``, over and over.

    Every call must raise ``ValueError`` or return one of ``answers``
    (compared by ``same``, default :func:`numpy.array_equal`). Calls go on
    for a third of a second and until ``least`` of them have returned and
    ``least`` raised (at most 20 seconds, a bound for a machine under load);
    returns how many returned and how many raised. ``cells`` must be
    C-contiguous.
    """
    assert cells.flags.c_contiguous
    equal = same or (lambda a, b: bool(np.array_equal(np.asarray(a), np.asarray(b))))
    value = cells[at].item()
    flips = np.tile(np.array([other, value], dtype=cells.dtype), 1 << 19)  # ends with the cell's own value
    flat = cells.reshape(-1)[int(np.ravel_multi_index(at, cells.shape)) :]
    cell = np.lib.stride_tricks.as_strided(flat, shape=flips.shape, strides=(0,))
    stop = threading.Event()

    def flip() -> None:
        while not stop.is_set():
            np.copyto(cell, flips)

    writer = threading.Thread(target=flip)
    returned = errors = 0
    wrong: list[Any] = []
    start = time.monotonic()
    writer.start()
    try:
        while (time.monotonic() < start + 0.3 or errors < least or returned < least) and time.monotonic() < start + 20:
            try:
                got = call()
            except ValueError:
                errors += 1
                continue
            returned += 1
            if not any(equal(got, want) for want in answers):
                wrong.append(got)
    finally:
        stop.set()
        writer.join()
    assert cells[at].item() == value
    assert not wrong, f"{len(wrong)} of {returned} answers were for neither state, such as {wrong[0]!r}"
    return returned, errors


def every_moment(
    cells: np.ndarray,
    at: tuple[int, ...],
    other: int,
    call: Callable[[], Any],
    answers: Sequence[Any],
    *,
    same: Callable[[Any, Any], bool] | None = None,
) -> int:
    """Run ``call`` with ``cells[at]`` changed between the cell's value and ``other`` before each step in turn.

    Each run starts from one state and writes the other just before the k-th
    step of the package's code (a C function it calls, such as a numpy
    method or a kernel, or a library's Python function it enters, or the
    return of either, counted by ``sys.setprofile`` in this thread), for every k up to the number a run
    makes, in both directions.
    Every run must raise ``ValueError`` or return one of ``answers`` (the
    answers of the states that have one; compared by ``same``, default
    :func:`numpy.array_equal`). Returns the number of runs.
    """
    equal = same or (lambda a, b: bool(np.array_equal(np.asarray(a), np.asarray(b))))
    value = cells[at].item()
    seen = 0
    write: tuple[int, int] = (0, value)

    def hook(frame: Any, event: str, arg: Any) -> None:
        # A step of the package's own code: a C function it calls, or a library's Python function it enters, and
        # their returns (then the write lands before what follows, such as an index or an operator on the array).
        nonlocal seen
        if (event in ("c_call", "c_return") and _ours(frame)) or (
            event in ("call", "return") and not _ours(frame) and frame.f_back is not None and _ours(frame.f_back)
        ):
            seen += 1
            if seen == write[0]:
                cells[at] = write[1]

    def run(start: int, then: int, when: int) -> tuple[str, Any]:
        nonlocal seen, write
        cells[at] = start
        seen, write = 0, (when, then)
        sys.setprofile(hook)
        try:
            return "ok", call()
        except ValueError as e:
            return "ValueError", e
        except Exception as e:
            raise AssertionError(f"cell {at} set from {start} to {then} before step {when}: {e!r}") from e
        finally:
            sys.setprofile(None)

    runs = 0
    try:
        for start, then in ((value, other), (other, value)):
            run(start, then, 0)  # warm: caches filled as on any later call
            run(start, then, 0)
            calls = seen
            for k in range(1, calls + 1):
                outcome, got = run(start, then, k)
                runs += 1
                if outcome == "ok":
                    assert any(equal(got, want) for want in answers), (
                        f"{cells.dtype} cell {at} set from {start} to {then} before step {k} of {calls}: "
                        f"an answer for neither state: {got!r}"
                    )
    finally:
        cells[at] = value
    return runs
