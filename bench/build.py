"""Build figures: a full build from nothing, its bundle, and the bundle's install.

The build runs in a fresh interpreter, so its peak memory is its own, with ``check=False``: the self-check
is not timed. The install is ``twoplustwo install-tables`` (every sha256 checked; its interpreter start
counts). Checksums over each manifest's sorted ``role:sha256`` lines: does the build reproduce ``tables/``?
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from twoplustwo import TableError, load_tables

from . import ROOT, fresh, say


def digest(path: Path | None) -> str:
    try:
        files = load_tables(path).manifest["files"]
    except TableError:
        return "none"
    return hashlib.sha256("".join(sorted(f"{f['role']}:{f['sha256']}\n" for f in files)).encode()).hexdigest()[:12]


def run() -> dict[str, Any]:
    from twoplustwo_builder.dag.bundle import write_bundle

    with tempfile.TemporaryDirectory(prefix="twoplustwo-bench-build-") as tmp:
        built, installed = Path(tmp) / "tables", Path(tmp) / "installed"
        say(f"build: full build into {built} in a fresh interpreter")
        r = fresh("build", str(built))
        say("build: bundle and install")
        bundle = write_bundle(built, Path(tmp) / "dist", check=False)
        start = time.perf_counter()
        cmd = [sys.executable, "-m", "twoplustwo", "install-tables", str(bundle.path), "--to", str(installed)]
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT)
        install_s = time.perf_counter() - start
        return {
            "stage_seconds": r["seconds"],
            "build_s": sum(r["seconds"].values()),
            "build_call_s": r["wall_s"],
            "builder_import_s": r["import_s"],
            "peak_bytes": r["peak_bytes"],
            "dags": [{"dag": dag, "nodes per depth before join": before, "after join": r["nodes"][dag],
                      "bytes": sum(v for k, v in r["nbytes"].items() if k.startswith(dag + "/"))}
                     for dag, before in r["nodes_before"].items()],
            "table_bytes": sum(r["nbytes"].values()),
            "bundle_bytes": bundle.nbytes,
            "bundle_raw_bytes": bundle.raw_nbytes,
            "bundle_write_s": bundle.seconds,
            "install_s": install_s,
            "installed_bytes": load_tables(installed).nbytes,
            "checksum": digest(built),
            "published_checksum": digest(None),
            "installed_checksum": digest(installed),
        }
