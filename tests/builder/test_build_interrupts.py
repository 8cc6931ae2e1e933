"""kill -9 of a writer at every stage, and a full disk: the previous tables always survive.

Writers are watched from outside. The builder (``python -m twoplustwo_builder
--out DIR --quiet``) creates its staging directory ``DIR/.build-*`` when it
starts enumerating, fills it with ``*.npy.part`` and ``*.npy`` files while it
writes, adds ``manifest.json`` before its self-check, and empties it into
``DIR`` when it publishes under ``DIR/.lock``. A tiny writer
(:mod:`tests.builder.tinybuild`) goes through the same ``stage()`` and ``publish()``
in milliseconds instead of 20 s, so the kill points about the write and
publish protocol use it: it stops itself at an exact point inside
``stage()``, or waits for the lock the test holds. The points about the
builder's own stages (enumerating, writing its real arrays, self-check) kill
the builder; for the stages after enumerating, its enumeration is handed the
published arrays (the very arrays it would compute), so that those kills
land seconds after start instead of 20 s. Each :class:`KillPoint` waits for
its moment and sends SIGKILL. After every kill the previous table set in ``DIR`` must still load and
verify, byte for byte the same manifest unless the kill came after the
commit; the next completed write must leave no staging directory, no partial
file and no unlisted array behind.

``DIR`` starts as the real tables hard-linked under other file names, with
a manifest naming those, so that a half-published set could not pass for
the previous one. The kill points run in two lanes (two targets) at once,
each with about 10 s of builder time, one core each.

A full disk is a tmpfs (mounting needs root; skipped otherwise): the
builder command exits 1 with one line ``build failed: ...`` and leaves
nothing behind, and on a tmpfs that holds previous tables with too little
room to spare, those tables stay loadable. The disk fills while the builder
writes, so its enumeration is handed the published arrays rather than spend
15 s reaching that point.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from tests.builder.tinybuild import writer_cmd
from tests.tinysets import ROOT, fill_of, is_tiny, write_tiny
from twoplustwo.hands.batch import walk
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST, ROLES
from twoplustwo.tables.load import default_path

SOURCE = default_path()
STAGE_PREFIX = ".build-"
# Give up on a build that never reaches its kill point (a hung builder).
TIMEOUT = 300.0
ROYAL = np.array([[51, 47, 43, 39, 35, 0, 5]])  # As Ks Qs Js Ts 2c 3d: value 7462
# Fill values of the tiny sets the killed writers stage and the completed write publishes.
KILLED_FILL, FINAL_FILL = 7, 9


def build_cmd(target: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "twoplustwo_builder", "--out", str(target), "--quiet", *extra]


# The builder command with its enumeration handed the published arrays
# (argv: the published tables, then the builder's arguments), for what
# happens after enumerating (every game's DAGs): a real enumeration would
# only spend 15 s getting there.
BUILD_FROM_PUBLISHED = """
import sys
import numpy as np
from twoplustwo.tables.default import load_tables
from twoplustwo_builder.dag import pipeline
from twoplustwo_builder.__main__ import main

published = load_tables(sys.argv[1])

def reuse(game, n, report, bar):
    dag = game.dag(n)
    report.nodes[dag] = published.nodes[dag]
    report.nodes_before[dag] = published.manifest["nodes_before_join"][dag]
    return {role: np.asarray(a) for role, a in published.arrays.items() if role.startswith(dag + "/")}

pipeline.build_game_dag = reuse
sys.exit(main(sys.argv[2:]))
"""


def _link_or_copy(src: Path, dst: Path) -> None:
    try:
        os.link(src, dst)
    except OSError:  # another file system: a copy does as well, only slower
        shutil.copyfile(src, dst)


def previous_set(target: Path, copy: Callable[[Path, Path], None] = _link_or_copy) -> str:
    """Fill ``target`` with the real tables under names no build produces; return the manifest text."""
    m = json.loads((SOURCE / MANIFEST).read_text())
    target.mkdir(exist_ok=True)
    for f in m["files"]:
        name = f"{f['role'].replace('/', '.')}.previous.npy"
        copy(SOURCE / f["name"], target / name)
        f["name"] = name
    text = json.dumps(m, indent=2) + "\n"
    (target / MANIFEST).write_text(text)
    return text


def check_loadable(target: Path) -> None:
    """The set in ``target`` loads and every byte matches its hash; a real set ranks a hand, a tiny one is whole."""
    t = load_tables(target, verify=True)
    if is_tiny(t):  # its entries lead nowhere: no hand to walk
        assert fill_of(t) is not None, f"the tiny set in {target} mixes two sets' files"
    else:
        assert walk(t.layers("dag7"), ROYAL).tolist() == [7462]


# ------------------------------------------------------------------ watching


@dataclass
class Watch:
    """What has been seen of one running writer, and when (monotonic seconds)."""

    target: Path
    pid: int
    seen: dict[str, float]
    before: frozenset[str] = frozenset()  # names in the target when the writer started

    def staging(self) -> Path | None:
        # One writer at a time per target: a staging directory not there
        # before is its own (the earlier ones are killed writers' leftovers).
        found = [p for p in self.target.glob(f"{STAGE_PREFIX}*") if p.name not in self.before]
        return found[0] if found else None

    def look(self) -> None:
        """Record the first time each stage marker is visible."""
        now = time.monotonic()
        staging = self.staging()
        marks = []
        if staging is not None:
            marks.append("staging")
            try:
                names = os.listdir(staging)
            except FileNotFoundError:
                names = []
            if any(n.endswith(".part") for n in names):
                marks.append("part")
            npy = [n for n in names if n.endswith(".npy")]
            if npy:
                marks.append("npy")
            if len(npy) >= 10:
                marks.append("half")
            if MANIFEST in names:
                marks.append("manifest")
        if self.waits_for_lock():
            marks.append("blocked")
        for mark in marks:
            self.seen.setdefault(mark, now)

    def waits_for_lock(self) -> bool:
        # Blocked flock requests are listed as "N: -> FLOCK ADVISORY WRITE <pid> ...".
        with contextlib.suppress(OSError), open("/proc/locks") as f:
            for line in f:
                parts = line.split()
                if "->" in parts and parts[parts.index("->") + 4] == str(self.pid):
                    return True
        return False

    def moved_in(self) -> bool:
        """Whether publishing has moved a new array into the target."""
        return any(n.endswith(".npy") and n not in self.before for n in os.listdir(self.target))

    def since(self, mark: str) -> float:
        """Seconds since ``mark`` was first seen (-1 if not yet)."""
        return time.monotonic() - self.seen[mark] if mark in self.seen else -1.0


@dataclass(frozen=True)
class KillPoint:
    name: str
    ready: Callable[[Watch], bool]
    tiny: bool = False  # a tiny writer rather than the builder
    published: bool = False  # the builder, its enumeration handed the published arrays (BUILD_FROM_PUBLISHED)
    pause: str | None = None  # where the tiny writer stops itself (``tests.builder.tinybuild --pause``)
    hold_lock: bool = False  # hold DIR/.lock so that the writer waits in publish
    release_first: bool = False  # let go of the lock, then wait for ``then`` before the kill
    then: Callable[[Watch], bool] | None = None  # spun on without sleeping: publishing is quick
    may_commit: bool = False  # the kill may land after the manifest rename


KILL_POINTS = {
    p.name: p
    for p in [
        KillPoint("enumerating, staging just created", lambda w: "staging" in w.seen),
        # On a fast machine enumeration may end sooner: then the kill lands
        # as writing starts, still before anything is published.
        KillPoint("enumerating, 4 s in", lambda w: w.since("staging") >= 4 or "part" in w.seen),
        KillPoint("enumerating, 8 s in", lambda w: w.since("staging") >= 8 or "part" in w.seen),
        KillPoint("writing real arrays, 10 of 20", lambda w: "half" in w.seen, published=True),
        KillPoint("self-check, 1 s in", lambda w: w.since("manifest") >= 1, published=True),
        KillPoint("writing, first .npy.part", lambda w: "part" in w.seen, tiny=True, pause="part"),
        KillPoint("writing, first .npy done", lambda w: "npy" in w.seen, tiny=True, pause="npy"),
        KillPoint("staged with manifest, not published", lambda w: "manifest" in w.seen, tiny=True, pause="staged"),
        KillPoint("publish, waiting for the lock", lambda w: "blocked" in w.seen, tiny=True, hold_lock=True),
        # Publishing takes milliseconds; spinning on the directory catches it
        # after the first rename, and the kill lands a few renames later, or
        # after the commit: both leave a loadable set.
        KillPoint(
            "publish, first array moved in",
            lambda w: "blocked" in w.seen,
            tiny=True,
            hold_lock=True,
            release_first=True,
            then=Watch.moved_in,
            may_commit=True,
        ),
    ]
}
# Two targets written side by side, each lane about as long as the other
# (the builder's kills cost their time since start, 3 s for the self-check;
# the tiny ones well under a second); a lane's kill that may commit comes
# last, since it may change the manifest.
LANES = [
    [
        "writing, first .npy.part",
        "writing, first .npy done",
        "enumerating, 8 s in",
        "writing real arrays, 10 of 20",
    ],
    [
        "enumerating, staging just created",
        "enumerating, 4 s in",
        "staged with manifest, not published",
        "self-check, 1 s in",
        "publish, waiting for the lock",
        "publish, first array moved in",
    ],
]


def start_writer(target: Path, point: KillPoint) -> subprocess.Popen[bytes]:
    if point.published:
        cmd = [sys.executable, "-c", BUILD_FROM_PUBLISHED, str(SOURCE), "--out", str(target), "--quiet"]
        return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if not point.tiny:
        return subprocess.Popen(build_cmd(target), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # Without a pause of its own it waits after publishing: a writer that
    # has exited by the time the SIGKILL lands was not killed at all.
    options = ["--fills", str(KILLED_FILL), "--pause", point.pause or "published"]
    return subprocess.Popen(
        writer_cmd(target, *options), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def wait_for_pause(proc: subprocess.Popen[bytes], point: KillPoint) -> None:
    assert proc.stdout is not None
    readable, _, _ = select.select([proc.stdout], [], [], TIMEOUT)
    line = proc.stdout.readline() if readable else b"(nothing)"
    assert line == f"paused {point.pause}\n".encode(), f"tiny writer said {line!r}, exit {proc.poll()}"


def kill_at(target: Path, point: KillPoint) -> Watch:
    """Start a writer into ``target``, SIGKILL it at ``point``, reap it; return what was seen."""
    lock = open(target / ".lock", "a") if point.hold_lock else None
    if lock is not None:
        fcntl.flock(lock, fcntl.LOCK_EX)
    before = frozenset(os.listdir(target))
    proc = start_writer(target, point)
    watch = Watch(target, proc.pid, {"start": time.monotonic()}, before)
    try:
        if point.pause is not None:
            # The writer has stopped itself there: one look sees what a kill now leaves.
            wait_for_pause(proc, point)
            watch.look()
            assert point.ready(watch), f"paused for {point.name!r} but saw only {sorted(watch.seen)}"
        while not point.ready(watch):
            assert proc.poll() is None, f"writer ended (exit {proc.returncode}) before {point.name!r}"
            assert watch.since("start") < TIMEOUT, f"no {point.name!r} after {TIMEOUT:.0f} s"
            time.sleep(0.001)
            watch.look()
        if lock is not None and point.release_first:
            fcntl.flock(lock, fcntl.LOCK_UN)
            while point.then is not None and not point.then(watch):
                assert watch.since("start") < TIMEOUT, f"no {point.name!r} after {TIMEOUT:.0f} s"
        proc.send_signal(signal.SIGKILL)
        watch.seen["killed"] = time.monotonic()
    finally:
        proc.kill()  # no-op once dead; stops a writer left running by a failed assertion
        _, err = proc.communicate()
        if lock is not None:
            lock.close()
    # Reaped, so it is dead to the next write's clean-up of stale staging.
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, err.decode(errors="replace"))
    return watch


def leftovers(target: Path, manifest: str) -> list[str]:
    """Entries of ``target`` that the manifest does not account for (the lock file aside)."""
    listed = {f["name"] for f in json.loads(manifest)["files"]} | {MANIFEST, ".lock"}
    return sorted(p.name for p in target.iterdir() if p.name not in listed)


def run_lane(target: Path, names: list[str]) -> list[str]:
    """Kill a writer at each point in turn, checking the survivors; then one completed write cleans up."""
    previous = previous_set(target)
    log = []
    committed_any = False
    for name in names:
        point = KILL_POINTS[name]
        w = kill_at(target, point)
        now = (target / MANIFEST).read_text()
        if not point.may_commit:
            assert now == previous, f"manifest changed by a kill at {name!r}"
        committed = now != previous
        committed_any |= committed
        check_loadable(target)
        left = leftovers(target, now)
        moved = [n for n in os.listdir(target) if n.endswith(".npy") and n not in w.before]
        marks = ", ".join(m for m in w.seen if m not in ("start", "killed"))
        log.append(
            f"{name} ({'tiny writer' if point.tiny else 'builder'}): killed {w.seen['killed'] - w.seen['start']:.2f} s "
            f"after start (seen: {marks}); {'new set committed' if committed else 'previous set in place'}, "
            f"{len(moved)} new arrays moved in; leftovers: {len(left)}"
        )
        previous = now
    left = leftovers(target, previous)
    if not committed_any:  # a committed publish has already cleaned up after the earlier kills
        assert any(n.startswith(STAGE_PREFIX) for n in left), "the kills left no staging behind to clean"

    # The clean-up is publish()'s, whoever calls it: a tiny write does it in milliseconds.
    write_tiny(target, FINAL_FILL)
    now = (target / MANIFEST).read_text()
    assert leftovers(target, now) == []
    assert not list(target.rglob("*.part"))
    assert all(".previous." not in f["name"] for f in json.loads(now)["files"])
    check_loadable(target)
    assert fill_of(load_tables(target)) == FINAL_FILL
    log.append(f"completed write: cleaned {len(left)} leftover entries")
    return log


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="needs Linux /proc/locks to see a writer wait")
def test_kill_9_at_every_stage(tmp_path: Path) -> None:
    targets = [tmp_path / f"lane{i}" for i in range(len(LANES))]
    with ThreadPoolExecutor(max_workers=len(LANES)) as pool:
        logs = list(pool.map(run_lane, targets, LANES))
    assert sum(len(lane) for lane in LANES) == len(KILL_POINTS)  # every point is tried once
    # Shown with `pytest -s`: where each kill landed.
    print("\n" + "\n".join(line for log in logs for line in log))


# ----------------------------------------------------------------- full disk


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """Mount a tmpfs of ``size`` at ``path``, or skip the test when that is not allowed."""
    path.mkdir(parents=True, exist_ok=True)
    try:
        mounted = subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True, text=True
        )
    except FileNotFoundError:
        pytest.skip("no mount command")
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs (needs root): {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        if subprocess.run(["umount", str(path)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(path)], capture_output=True)


def test_full_disk(tmp_path: Path) -> None:
    table_bytes = sum(f["nbytes"] + f["offset"] for f in json.loads((SOURCE / MANIFEST).read_text())["files"])
    with contextlib.ExitStack() as stack:
        empty = stack.enter_context(tmpfs(tmp_path / "empty", "20m"))
        # Room for the previous tables and 8 MB more: the new set cannot fit.
        holding = stack.enter_context(tmpfs(tmp_path / "holding", f"{table_bytes // 1024 + 8 * 1024}k"))
        previous = previous_set(holding, copy=shutil.copyfile)
        before = sorted(os.listdir(holding))
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", BUILD_FROM_PUBLISHED, str(SOURCE), "--out", str(d), "--quiet", "--no-check"],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for d in (empty, holding)
        ]
        results = [p.communicate(timeout=TIMEOUT) for p in procs]
        for d, p, (out, err) in zip((empty, holding), procs, results):
            assert p.returncode == 1, err
            assert out == ""
            lines = err.splitlines()
            assert len(lines) == 1 and lines[0].startswith("build failed: "), err
            assert str(d) in lines[0], err  # the place that filled up
        assert set(os.listdir(empty)) <= {".lock"}
        assert sorted(n for n in os.listdir(holding) if n != ".lock") == before
        assert (holding / MANIFEST).read_text() == previous
        check_loadable(holding)


def test_full_disk_message_names_the_place(tmp_path: Path) -> None:
    # The writer alone, on a 1 MB tmpfs: what `build failed: ...` would print,
    # without spending a build on it.
    from twoplustwo_builder.dag.write import stage

    with tmpfs(tmp_path / "tiny", "1m") as tiny:
        # 4 MB per role (uint32: entries above 65535), so the first file already does not fit.
        arrays = {role: np.full(1 << 20, 70_000, dtype=np.int64) for role in ROLES}
        with pytest.raises(OSError) as raised:
            stage(tiny, arrays, {})
        assert os.listdir(tiny) == []  # nothing left behind (this part holds today)
    message = str(raised.value)
    assert str(tiny) in message, message
