"""Readers against a concurrent publisher (spec/README.md, section 8).

A child process (:mod:`tests.tinysets`) publishes two tiny table sets in
turn, as fast as it can, through the runtime's publish protocol;
each publish removes the other set's files. Meanwhile this process loads
the directory again and again. A reader that meets a vanished file must
read the manifest again, never fail; the README quotes the long run
(``python -m tests.tables.test_readers``).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tinysets import ROOT, fill_of, write_tiny, writer_cmd
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import TableError
from twoplustwo.tables.load import MAX_MANIFEST_READS


def race(target: Path, seconds: float, iterations: int, changes: int = 0) -> tuple[int, int, list[str]]:
    """Load ``target`` ``iterations`` times, and until the loads saw the set change ``changes`` times, while a
    publisher runs (for ``seconds`` at most); (loads, publishes, errors).

    The loads count, not the seconds: on a busy machine the same race takes
    longer, and is the same race.

    A load may fail, by the spec, when the set changed under it at each of its
    :data:`MAX_MANIFEST_READS` reads of the manifest: a reader the system
    left without CPU while the publisher ran on. Such a load overlaps that
    many publishes, and the publisher says when each one ran, so those
    failures are told apart (and left out of the errors) by the clock alone.
    """
    target.mkdir()
    times = target.parent / f"{target.name}.publishes.json"
    pub = subprocess.Popen(
        writer_cmd(target, "--fills", "1,2", "--seconds", str(seconds), "--times", str(times)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    failed: list[tuple[float, float, str]] = []
    loads = seen = 0
    last = None
    try:
        deadline = time.monotonic() + 30
        while not (target / "manifest.json").exists():
            assert pub.poll() is None and time.monotonic() < deadline, pub.stderr.read() if pub.stderr else ""
            time.sleep(0.01)
        while (loads < iterations or seen < changes) and pub.poll() is None:
            began = time.monotonic()
            try:
                t = load_tables(target)
                fill = int(t.arrays["dag5/layer1"][0])
                assert fill in (1, 2)
                seen += last is not None and fill != last
                last = fill
            except (TableError, OSError) as e:
                failed.append((began, time.monotonic(), f"{type(e).__name__}: {e}"))
            loads += 1
    finally:
        if pub.poll() is None:
            pub.send_signal(signal.SIGTERM)  # the loads are done: stop publishing
        out, err = pub.communicate(timeout=60)
    assert pub.returncode == 0, err
    ran = json.loads(times.read_text())
    errors = [
        what
        for began, ended, what in failed
        if sum(1 for a, b in ran if a < ended and b > began) < MAX_MANIFEST_READS or "gone each time" not in what
    ]
    return loads, int(out), errors


@pytest.mark.slow
def test_readers_never_fail_against_a_publisher_loop(tmp_path: Path) -> None:
    # The publisher stops after 10 minutes, which only a machine starved far beyond a busy one would reach.
    loads, publishes, errors = race(tmp_path / "t", seconds=600, iterations=500, changes=50)
    assert publishes > 50 and loads >= 500, (publishes, loads)
    assert errors == [], f"{len(errors)} of {loads} loads failed: {errors[:3]}"


def test_a_file_gone_for_good_is_named_after_the_retries(tmp_path: Path) -> None:
    target = write_tiny(tmp_path / "t", fill=1)
    victim = next(target.glob("dag7.layer4.*.npy"))
    victim.unlink()
    with pytest.raises(TableError, match=rf"{victim.name}: missing .*dag7/layer4.*{MAX_MANIFEST_READS} times"):
        load_tables(target)


def test_tiny_sets_are_what_the_publisher_writes(tmp_path: Path) -> None:
    target = tmp_path / "t"
    done = subprocess.run(
        writer_cmd(target, "--fills", "1,2", "--rounds", "3"), cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stdout) == (0, "3\n"), done.stderr
    t = load_tables(target, verify=True)
    assert fill_of(t) == 1  # the third set takes the first fill again
    assert sorted(p.name for p in target.glob("*.npy")) == sorted(f["name"] for f in t.manifest["files"])
    assert [p.name for p in target.iterdir() if p.name.startswith(".build-")] == []


if __name__ == "__main__":
    # The long run the README quotes: python -m tests.tables.test_readers [ITERATIONS]
    import tempfile

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    with tempfile.TemporaryDirectory() as d:
        loads, publishes, errors = race(Path(d) / "t", seconds=3600, iterations=n)
    print(f"{loads} loads against {publishes} publishes: {len(errors)} errors")
    sys.exit(1 if errors else 0)
