"""The publish protocol: a writer removes only what this project wrote, and never fails after its commit.

Every test publishes tiny table sets (one node per depth, 52-entry layers),
so the whole file runs in a few seconds; the protocol itself is the one the
builder and bundle installs use on the real tables.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.tinysets import tiny_files
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST, TableError
from twoplustwo.tables.publish import (
    LEDGER,
    LOCK,
    STAGE_MARKER,
    STAGE_PREFIX,
    content_name,
    discard,
    new_staging,
    publish,
)

ROOT = Path(__file__).resolve().parents[2]


def stage_tiny(target: Path, seed: int, games: tuple[str, ...] = ()) -> Path:
    """A staging directory in ``target`` holding the tiny set of ``seed`` (with ``games``), ready to publish."""
    staging = new_staging(target)
    manifest, files = tiny_files(seed, games)
    for name, raw in files.items():
        (staging / name).write_bytes(raw)
    (staging / MANIFEST).write_text(json.dumps(manifest))
    return staging


def listed(target: Path) -> set[str]:
    return {f["name"] for f in json.loads((target / MANIFEST).read_text())["files"]}


def user_files(target: Path) -> dict[str, bytes | None]:
    """Entries a user might keep beside the tables: name -> content (None for a directory)."""
    target.mkdir(parents=True, exist_ok=True)
    (target / "notes.npy").write_bytes(b"mine")
    (target / "README.md").write_bytes(b"my readme")
    (target / "dag5.layer1.mine.npy").write_bytes(b"named like a table, listed by no manifest")
    (target / "x.npy").mkdir()
    (target / "x.npy" / "inside").write_bytes(b"kept")
    (target / ".build-mine").mkdir()
    (target / ".build-mine" / "work").write_bytes(b"kept")
    (target / ".build-empty").mkdir()
    # Named like an old staging directory of a process that cannot exist,
    # but unmarked: ours or not, it is not provably ours.
    (target / ".build-99999999999999999999-old").mkdir()
    (target / ".build-99999999999999999999-old" / "a.npy").write_bytes(b"kept")
    return snapshot_user(target)


def snapshot_user(target: Path) -> dict[str, bytes | None]:
    out: dict[str, bytes | None] = {}
    for p in sorted(target.rglob("*")):
        rel = str(p.relative_to(target))
        if rel.split("/")[0] in {"notes.npy", "README.md", "dag5.layer1.mine.npy", "x.npy", ".build-mine",
                                 ".build-empty", ".build-99999999999999999999-old"}:
            out[rel] = None if p.is_dir() else p.read_bytes()
    return out


def ours_left(target: Path, user: dict[str, bytes | None]) -> set[str]:
    """Top-level entries that are neither the user's, nor the published set, nor the lock file."""
    top = {k.split("/")[0] for k in user}
    return {n for n in os.listdir(target) if n not in top and n not in listed(target) | {MANIFEST, LOCK}}


def test_publish_removes_only_what_this_project_wrote(advisory_locks: None, tmp_path: Path) -> None:
    target = tmp_path / "t"
    user = user_files(target)
    publish(stage_tiny(target, 1))
    first = listed(target)
    # As new_staging leaves a directory for an instant before marking it: a
    # writer killed then leaves it empty, and only then is it taken for ours.
    (target / f"{STAGE_PREFIX}4242-0123abcd").mkdir()
    (target / f"{STAGE_PREFIX}4243-89abcdef").mkdir()
    (target / f"{STAGE_PREFIX}4243-89abcdef" / "mine").write_bytes(b"not empty, not marked: kept")
    publish(stage_tiny(target, 2))
    assert snapshot_user(target) == user
    assert not first & set(os.listdir(target)), "the previous set's arrays stay behind"
    assert ours_left(target, user) == {f"{STAGE_PREFIX}4243-89abcdef"}
    assert (target / f"{STAGE_PREFIX}4243-89abcdef" / "mine").is_file()
    load_tables(target, verify=True)


def test_a_set_is_published_whole_and_its_game_files_removed_with_it(tmp_path: Path) -> None:
    target = tmp_path / "t"
    user = user_files(target)
    (target / "short-deck.dag7.layer1.mine.npy").write_bytes(b"named like a game's table, listed by no manifest")
    publish(stage_tiny(target, 1, ("short-deck", "short-deck-classic")))
    games = {n for n in listed(target) if n.startswith("short-deck")}
    assert len(games) == 18 and games <= set(os.listdir(target))
    t = load_tables(target, verify=True)
    assert len(t.buffers) == 38 and t.nodes["short-deck/dag7"] == [1] * 7
    # A set without the games replaces it: their files go, the user's stay.
    publish(stage_tiny(target, 2))
    assert not games & set(os.listdir(target))
    assert (target / "short-deck.dag7.layer1.mine.npy").is_file()
    assert snapshot_user(target) == user
    assert {n for n in ours_left(target, user) if n != "short-deck.dag7.layer1.mine.npy"} == set()
    assert len(load_tables(target, verify=True).buffers) == 20


def test_a_role_this_version_does_not_know_is_not_published(tmp_path: Path) -> None:
    # Its file could not be told from a user's later, so it would never be removed.
    target = tmp_path / "t"
    user = user_files(target)
    publish(stage_tiny(target, 1))
    before = (target / MANIFEST).read_bytes()
    staging = stage_tiny(target, 2)
    manifest = json.loads((staging / MANIFEST).read_text())
    entry = {**manifest["files"][0], "role": "omaha/dag9/layer1"}
    entry["name"] = content_name(entry["role"], entry["sha256"])
    (staging / entry["name"]).write_bytes((staging / manifest["files"][0]["name"]).read_bytes())
    manifest["files"].append(entry)
    (staging / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(TableError, match=r"files\[20\]: role 'omaha/dag9/layer1' is not one this twoplustwo knows"):
        publish(staging)
    discard(staging)
    assert (target / MANIFEST).read_bytes() == before
    assert snapshot_user(target) == user and ours_left(target, user) == set()


def test_an_unremovable_leftover_never_fails_a_committed_publish(advisory_locks: None,
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "t"
    user = user_files(target)
    publish(stage_tiny(target, 1))

    def refuse(path: Any, *args: Any, **kwargs: Any) -> None:
        raise PermissionError(errno.EPERM, "refused by the test", str(path))

    # Every removal fails once the new manifest is in place.
    real_replace = os.replace

    def replace(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        if os.path.basename(dst) == MANIFEST:
            monkeypatch.setattr(os, "unlink", refuse)
            monkeypatch.setattr(os, "rmdir", refuse)

    monkeypatch.setattr(os, "replace", replace)
    publish(stage_tiny(target, 2))
    monkeypatch.undo()
    assert load_tables(target, verify=True).manifest["files"] == tiny_files(2)[0]["files"]
    # What could not be removed is still on record, and the next publish removes it.
    assert (target / LEDGER).is_file()
    publish(stage_tiny(target, 3))
    assert snapshot_user(target) == user
    assert ours_left(target, user) == set()
    load_tables(target, verify=True)


KILLED = """
import json, os, sys
from pathlib import Path
from twoplustwo.tables.publish import new_staging, publish
target, manifest, files = Path(sys.argv[1]), json.loads(sys.argv[2]), json.loads(sys.argv[3])
staging = new_staging(target)
for name, hexed in files.items():
    (staging / name).write_bytes(bytes.fromhex(hexed))
(staging / "manifest.json").write_text(json.dumps(manifest))
real_replace = os.replace
def replace(src, dst):
    if os.path.basename(dst) == "manifest.json":
        os._exit(9)  # killed after its arrays went in, before the commit
    real_replace(src, dst)
os.replace = replace
publish(staging)
"""


def test_writer_killed_before_its_commit_is_cleaned_up_by_the_next(advisory_locks: None, tmp_path: Path) -> None:
    target = tmp_path / "t"
    user = user_files(target)
    publish(stage_tiny(target, 1))
    before = (target / MANIFEST).read_bytes()
    manifest, files = tiny_files(2)
    hexed = json.dumps({k: v.hex() for k, v in files.items()})
    done = subprocess.run(
        [sys.executable, "-c", KILLED, str(target), json.dumps(manifest), hexed],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 9, done.stderr
    # The previous set still rules; the new arrays sit beside it, on record.
    assert (target / MANIFEST).read_bytes() == before
    load_tables(target, verify=True)
    assert set(files) <= set(os.listdir(target))
    assert set(files) <= set(json.loads((target / LEDGER).read_text()))
    stale = [p for p in target.iterdir() if p.name.startswith(STAGE_PREFIX) and (p / STAGE_MARKER).exists()]
    assert len(stale) == 1
    publish(stage_tiny(target, 3))
    assert snapshot_user(target) == user
    assert ours_left(target, user) == set()
    load_tables(target, verify=True)


HOLDER = """
import sys
from pathlib import Path
from twoplustwo.tables.publish import new_staging
print(new_staging(Path(sys.argv[1])), flush=True)
sys.stdin.read()
"""


def test_a_live_writer_keeps_its_staging_whatever_its_pid(advisory_locks: None, tmp_path: Path) -> None:
    """Liveness is the writer's lock on its staging directory, not a pid (pids differ across namespaces)."""
    target = tmp_path / "t"
    target.mkdir()
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(gone.stdout)
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(target)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None
        staging = Path(holder.stdout.readline().strip())
        assert staging.parent == target
        # As seen from another pid namespace: the number in the name is some dead process here.
        renamed = staging.with_name(f"{STAGE_PREFIX}{dead_pid}-{staging.name.rsplit('-', 1)[1]}")
        os.rename(staging, renamed)
        (renamed / "work.npy.part").write_bytes(b"half written")
        publish(stage_tiny(target, 1))
        assert (renamed / "work.npy.part").read_bytes() == b"half written"
    finally:
        holder.kill()
        holder.communicate()
    publish(stage_tiny(target, 2))
    assert not renamed.exists()
    assert ours_left(target, {}) == set()


def test_new_staging_is_marked_and_locked_until_discarded(advisory_locks: None, tmp_path: Path) -> None:
    staging = new_staging(tmp_path)
    assert staging.parent == tmp_path and staging.name.startswith(STAGE_PREFIX)
    assert (staging / STAGE_MARKER).is_file()
    fd = os.open(staging, os.O_RDONLY)
    try:
        with pytest.raises(BlockingIOError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        discard(staging)
        assert not staging.exists()
    finally:
        os.close(fd)


def _fifo(p: Path) -> None:
    os.mkfifo(p)


@pytest.mark.parametrize(
    "kind, make, says",
    [
        ("symlink to a new file", lambda p: p.symlink_to(p.parent.parent / "outside"), "symbolic link"),
        ("symlink to a directory", lambda p: p.symlink_to(p.parent.parent), "symbolic link"),
        ("directory", lambda p: p.mkdir(), "directory"),
        ("fifo", _fifo, "FIFO"),
    ],
)
def test_lock_file_must_be_a_regular_file(tmp_path: Path, kind: str, make: Any, says: str) -> None:
    target = tmp_path / "t"
    publish(stage_tiny(target, 1))
    before = (target / MANIFEST).read_bytes()
    (target / LOCK).unlink()
    make(target / LOCK)
    staging = stage_tiny(target, 2)
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            publish(staging)
            outcome.append(None)
        except BaseException as e:  # handed to the test thread
            outcome.append(e)

    # A FIFO opened for writing blocks until a reader comes: that must not hang a publish.
    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(20)
    assert outcome, f"publish hangs on a .lock that is a {kind}"
    assert isinstance(outcome[0], TableError), outcome[0]
    assert str(target / LOCK) in str(outcome[0]) and says in str(outcome[0])
    assert not (tmp_path / "outside").exists()
    assert (target / MANIFEST).read_bytes() == before
    assert (staging / MANIFEST).is_file()  # nothing moved: the caller discards it
    discard(staging)
    load_tables(target, verify=True)


def test_staged_names_must_be_content_names(tmp_path: Path) -> None:
    target = tmp_path / "t"
    user = user_files(target)
    publish(stage_tiny(target, 1))
    before = (target / MANIFEST).read_bytes()
    staging = stage_tiny(target, 2)
    manifest = json.loads((staging / MANIFEST).read_text())
    entry = manifest["files"][0]
    os.replace(staging / entry["name"], staging / "README.md")
    entry["name"] = "README.md"
    (staging / MANIFEST).write_text(json.dumps(manifest))
    with pytest.raises(TableError, match="README.md"):
        publish(staging)
    discard(staging)
    assert snapshot_user(target) == user
    assert (target / MANIFEST).read_bytes() == before


def test_discard_removes_the_directories_new_staging_created(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "tables"
    discard(new_staging(target))
    assert os.listdir(tmp_path) == []
    # A directory that was there before stays, empty or not.
    (tmp_path / "kept").mkdir()
    discard(new_staging(tmp_path / "kept" / "tables"))
    assert os.listdir(tmp_path) == ["kept"]
    discard(new_staging(tmp_path / "kept"))
    assert os.listdir(tmp_path / "kept") == []
    # A failed publish (here: a refused .lock) has opened nothing; the lock file it
    # might have created goes too.
    staging = new_staging(tmp_path / "fresh")
    publish_lock = tmp_path / "fresh" / LOCK
    publish_lock.touch()
    discard(staging)
    assert os.listdir(tmp_path) == ["kept"]


@pytest.mark.parametrize("readable", [True, False], ids=["manifest readable", "manifest unreadable"])
def test_publish_interrupted_before_its_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, readable: bool) -> None:
    target = tmp_path / "t"
    user = user_files(target)
    publish(stage_tiny(target, 1))
    if not readable:
        # Say, of a later format: its names cannot be known, so nothing is taken back.
        (target / MANIFEST).write_text("{not json")
    before = {p.name: p.read_bytes() for p in target.iterdir() if p.is_file()}
    real_replace = os.replace

    def replace(src: Any, dst: Any) -> None:
        if os.path.basename(dst) == MANIFEST:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    staging = stage_tiny(target, 2)
    with pytest.raises(KeyboardInterrupt):
        publish(staging)
    monkeypatch.undo()
    discard(staging)
    now = {p.name: p.read_bytes() for p in target.iterdir() if p.is_file()}
    if readable:
        assert now == before  # every array it moved in taken back, the ledger gone
    else:
        assert set(tiny_files(2)[1]) <= set(now) and LEDGER in now  # left on record for the next publish
        assert {k: v for k, v in now.items() if k in before} == before
    publish(stage_tiny(target, 3))
    assert snapshot_user(target) == user
    # The arrays the spoilt manifest listed are on no record any more: they stay.
    assert ours_left(target, user) == (set() if readable else set(tiny_files(1)[1]))
    load_tables(target, verify=True)


def test_ctrl_c_as_staging_is_made_leaves_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ctrl-C lands where Python next looks for it: right after the staging directory's mkdir, when a
    # watcher that sees it appear sends SIGINT (twoplustwo build's tests do).
    real = os.mkdir

    def mkdir(path: Any, mode: int = 0o777) -> None:
        real(path, mode)
        if Path(path).name.startswith(STAGE_PREFIX):
            raise KeyboardInterrupt

    monkeypatch.setattr(os, "mkdir", mkdir)
    with pytest.raises(KeyboardInterrupt):
        new_staging(tmp_path / "new" / "tables")
    assert list(tmp_path.iterdir()) == []  # neither the staging directory nor the ones made for it
