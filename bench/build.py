"""Build figures: a full build from nothing, its bundle and the bundle's install.

The build runs in a fresh interpreter (``twoplustwo_builder.pipeline.build`` into a
temporary directory, ``check=False`` so only the making of the tables is
timed), which reports its seconds per stage, node counts, bytes per array
and its own peak resident memory (``ru_maxrss``): a subprocess, so neither
this process's arrays nor its earlier sections count towards the peak.

Then, in this process, the new tables are packed with
:func:`twoplustwo_builder.bundle.write_bundle` (``check=False``: the timed install
below is the check) and installed with
:func:`twoplustwo.bundle.install_bundle` into a second temporary directory,
which verifies every file's sha256 on the way.

Checksum: the first 12 hex digits of the SHA-256 over the sorted
``role:sha256`` lines of the built manifest; a deterministic build gives
the same figure as the published ``tables/``, and the table says whether
it does.

>>> lines = section()  # doctest: +SKIP
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from . import ROOT, child_env, markdown_table
from .summary import FIGURES

__all__ = ["build_in_subprocess", "manifest_digest", "section"]


# Runs in a fresh interpreter; prints one JSON object. Peak memory is read
# in the child itself, as RUSAGE_CHILDREN in the parent would also count
# every other subprocess that the benchmark has already waited for.
_BUILD_SCRIPT = """
import json, resource, sys, time
t0 = time.perf_counter()
from twoplustwo_builder.pipeline import build
t1 = time.perf_counter()
report = build(sys.argv[1], quiet=True, check=False)
t2 = time.perf_counter()
print(json.dumps({
    "import_s": t1 - t0,
    "build_s": t2 - t1,
    "seconds": report.seconds,
    "nodes_before": report.nodes_before,
    "nodes": report.nodes,
    "nbytes": report.nbytes,
    "peak_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
}))
"""


def _progress(message: str) -> None:
    print(f"build: {message}", file=sys.stderr, flush=True)


def build_in_subprocess(target: Path) -> dict[str, Any]:
    """Build the tables into ``target`` in a fresh interpreter; its report as a dict."""
    env = child_env()
    out = subprocess.run(
        [sys.executable, "-c", _BUILD_SCRIPT, str(target)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    # tqdm is disabled, but a warning could still precede the report.
    return json.loads(out.stdout.strip().splitlines()[-1])


def manifest_digest(tables: Path) -> str:
    """SHA-256 prefix over the sorted ``role:sha256`` lines of a table set's manifest."""
    manifest = json.loads((tables / "manifest.json").read_text())
    lines = sorted(f"{f['role']}:{f['sha256']}\n" for f in manifest["files"])
    return hashlib.sha256("".join(lines).encode()).hexdigest()[:12]


def _mib(n: float) -> str:
    return f"{n / 2**20:.1f}"


def section() -> list[str]:
    """Build, bundle and install from nothing; return the section's markdown lines."""
    from twoplustwo_builder.bundle import write_bundle
    from twoplustwo.bundle import install_bundle
    from twoplustwo.format import DAGS
    from twoplustwo.tables import default_path, load_tables

    with tempfile.TemporaryDirectory(prefix="twoplustwo-bench-build-") as tmp:
        built = Path(tmp) / "tables"
        _progress(f"full build into {built} (fresh interpreter, check=False)")
        report = build_in_subprocess(built)
        digest = manifest_digest(built)
        try:
            published = manifest_digest(default_path())
        except (OSError, ValueError, KeyError):
            published = "none"

        _progress("bundle")
        bundle = write_bundle(built, Path(tmp) / "dist", check=False)
        _progress("install the bundle")
        start = time.perf_counter()
        installed = install_bundle(bundle.path, to=Path(tmp) / "installed")
        install_s = time.perf_counter() - start
        installed_digest = manifest_digest(installed)
        installed_bytes = load_tables(installed).nbytes

    seconds: dict[str, float] = report["seconds"]
    nbytes: dict[str, int] = report["nbytes"]
    build_s = sum(seconds.values())
    table_bytes = sum(nbytes.values())
    peak = report["peak_kib"] * 1024  # ru_maxrss is in KiB on Linux

    stage_rows = [[stage, f"{s:.2f}"] for stage, s in seconds.items()]
    stage_rows.append(["total (stages)", f"{build_s:.2f}"])
    stage_rows.append(["wall, `build()` call", f"{report['build_s']:.2f}"])
    stage_rows.append(["import of `twoplustwo_builder.pipeline` (not in the build)", f"{report['import_s']:.2f}"])

    dag_rows = []
    for dag in DAGS:
        dag_bytes = sum(v for k, v in nbytes.items() if k.startswith(dag + "/"))
        dag_rows.append(
            [
                dag,
                " / ".join(f"{n:,}" for n in report["nodes_before"][dag]),
                " / ".join(f"{n:,}" for n in report["nodes"][dag]),
                f"{dag_bytes:,}",
                _mib(dag_bytes),
            ]
        )
    dag_rows.append(["all", "", "", f"{table_bytes:,}", _mib(table_bytes)])

    other_rows = [
        ["peak resident memory of the build process", f"{peak:,}", _mib(peak), "`ru_maxrss`"],
        [
            "bundle (`.tar.zst`)",
            f"{bundle.nbytes:,}",
            _mib(bundle.nbytes),
            f"{bundle.raw_nbytes / bundle.nbytes:.1f}x smaller than the {bundle.raw_nbytes:,} "
            f"bytes of files; written in {bundle.seconds:.1f} s (zstd level 19)",
        ],
        [
            "install of the bundle",
            f"{installed_bytes:,}",
            _mib(installed_bytes),
            f"{install_s:.2f} s, every sha256 checked",
        ],
    ]

    FIGURES.update(
        build_s=build_s,
        build_peak_bytes=peak,
        table_bytes=table_bytes,
        bundle_bytes=bundle.nbytes,
        bundle_write_s=bundle.seconds,
        install_s=install_s,
    )

    same = "yes" if digest == published else "**no**"
    lines = [
        "## Build",
        "",
        "A full build from nothing in a fresh interpreter (`check=False`: the self-check "
        "against the oracles is not timed), then its bundle and the bundle's install.",
        "",
        "### Seconds per stage",
        "",
        *markdown_table(["stage", "seconds"], stage_rows),
        "",
        "### Nodes and bytes",
        "",
        *markdown_table(
            ["DAG", "nodes per depth before join", "after join", "bytes", "MiB"], dag_rows
        ),
        "",
        *markdown_table(["what", "bytes", "MiB", "notes"], other_rows),
        "",
        f"- Checksum of the built tables (sorted `role:sha256`): `{digest}`; "
        f"identical to the published `tables/` (`{published}`): {same}; "
        f"the installed copy: {'yes' if installed_digest == digest else '**no**'}.",
    ]
    return lines


if __name__ == "__main__":
    print("\n".join(section()))
