"""The tiny writer of :mod:`tests.tinysets`, staging through the builder's own ``stage()``.

The builder's tests kill writers inside ``stage()``, so this writer adds two
pause points there to those of :mod:`tests.tinysets`::

    python -m tests.builder.tinybuild TARGET [--fills 1,2] [--rounds N | --seconds S] [--pause POINT]

- ``part``: the first array written into its ``.npy.part``, not yet renamed;
- ``npy``: the first array renamed to its ``.npy``, the second's header being made;
- ``staged`` and ``published``, as in :mod:`tests.tinysets`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from tests.tinysets import main as tiny_main
from tests.tinysets import pause
from twoplustwo_builder.dag import write

#: The points inside ``stage()``.
INSIDE_STAGE = ("part", "npy")


def writer_cmd(target: Path, *options: str) -> list[str]:
    """The command line of a writer child (run it with ``cwd`` the checkout's root)."""
    return [sys.executable, "-m", "tests.builder.tinybuild", str(target), *options]


def pause_inside_stage(point: str) -> None:
    """Arm ``point``: the first ``stage()`` stops there once."""
    # stage() writes each array as a .part file, hashes it, renames it to
    # its .npy name, then makes the next array's header: wrapping the hash
    # and the header stops the writer at those points without touching the
    # builder's code.
    real_hash, real_header = write.sha256_file, write.npy_header
    hashes = headers = 0  # calls of the hash; headers made (a too short try raises)
    paused = False

    def sha256_file(path: Any) -> str:
        nonlocal hashes
        hashes += 1
        if point == "part" and hashes == 1:
            pause(point)  # the first array is complete on disk, still named .part
        return real_hash(path)

    def npy_header(*args: Any) -> bytes:
        nonlocal headers, paused
        if point == "npy" and headers == 1 and hashes == 1 and not paused:
            paused = True
            pause(point)  # the next array begins: the first one is renamed to its .npy name
        header = real_header(*args)
        headers += 1
        return header

    write.sha256_file, write.npy_header = sha256_file, npy_header


def main(argv: list[str] | None = None) -> int:
    return tiny_main(
        argv,
        stage=write.stage,
        inside=dict.fromkeys(INSIDE_STAGE, pause_inside_stage),
        prog="python -m tests.builder.tinybuild",
    )


if __name__ == "__main__":
    sys.exit(main())
