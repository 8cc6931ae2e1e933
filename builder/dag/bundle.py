"""``python -m twoplustwo_builder.dag.bundle``: pack a table set into one compressed bundle.

Writes ``dist/twoplustwo-tables-<format_version>.tar.zst`` (layout in
:mod:`twoplustwo.tables.bundle` and ``spec/README.md``): every layer goes through
the ``columns-delta`` transform, the small value arrays stay ``raw``, and
the tar stream is compressed as one zstd frame at level 19 with a 16 MiB
window, which finds the repeats between the 5-, 6- and 7-card DAGs' similar
columns. The bundle is written beside its final name and renamed into
place, then installed into a scratch directory to prove that it unpacks to
byte-identical files.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from twoplustwo.tables.bundle import (
    BUNDLE_INDEX,
    BUNDLE_VERSION,
    encode,
    import_zstandard,
    install_bundle,
)
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import FORMAT_VERSION, MANIFEST, bundle_name, parse_manifest
from twoplustwo.tables.load import default_path
from twoplustwo.tables.optional import optional_length

__all__ = ["BundleReport", "LEVEL", "WINDOW_LOG", "main", "transform_for", "write_bundle"]

#: zstd level: 19 is the highest that needs no ``--ultra`` and stays fast to decode.
LEVEL = 19
#: 2**24 bytes: enough to match across neighbouring columns and arrays; a
#: decoder needs only this much window memory.
WINDOW_LOG = 24


@dataclass
class BundleReport:
    """What :func:`write_bundle` produced."""

    path: Path
    nbytes: int
    raw_nbytes: int
    seconds: float

    @property
    def ratio(self) -> float:
        return self.raw_nbytes / self.nbytes

    def summary(self) -> str:
        return (
            f"{self.path}: {self.nbytes:,} bytes from {self.raw_nbytes:,} "
            f"(ratio {self.ratio:.1f}) in {self.seconds:.1f} s"
        )


def transform_for(role: str) -> str:
    """The transform a role's array is stored with in a bundle."""
    # Layers are (nodes x 52) node or value rows; value5/value6 are plain
    # per-node lists with no row structure to exploit.
    return "columns-delta" if "/layer" in role else "raw"


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    # Fixed metadata, so the same tables always give the same tar stream.
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o644
    info.mtime = 0
    tar.addfile(info, io.BytesIO(data))


def _write_tar(out: IO[bytes], root: Path, manifest: dict[str, Any], text: bytes) -> None:
    entries = []
    for f in manifest["files"]:
        transform = transform_for(f["role"])
        entries.append({"name": f["name"], "member": f"{f['name']}.{transform}", "transform": transform})
    index = {"bundle_version": BUNDLE_VERSION, "format_version": FORMAT_VERSION, "files": entries}
    with tarfile.open(fileobj=out, mode="w|", format=tarfile.USTAR_FORMAT) as tar:
        _add(tar, BUNDLE_INDEX, json.dumps(index, indent=1).encode() + b"\n")
        _add(tar, MANIFEST, text)
        for f, e in zip(manifest["files"], entries):
            raw = (root / f["name"]).read_bytes()
            head, data = raw[: f["offset"]], raw[f["offset"] :]
            _add(tar, e["member"], head + encode(data, f["dtype"], e["transform"]))


def write_bundle(
    tables: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] = "dist",
    *,
    level: int = LEVEL,
    check: bool = True,
) -> BundleReport:
    """Pack the table set at ``tables`` (default: where tables are read) into ``out``.

    The tables are hashed first (a bundle never carries damaged files) and,
    with ``check``, the bundle is installed into a scratch directory
    afterwards, which checks every sha256 again. Every file the manifest
    lists goes in, other games' too, but the strength tables: hundreds of
    megabytes that ``python -m twoplustwo_builder --strength`` makes from
    the set in a minute, wherever it is installed.
    """
    zstandard = import_zstandard()
    t0 = time.perf_counter()
    root = Path(tables) if tables is not None else default_path()
    text = (root / MANIFEST).read_bytes()
    # Strict, as the installer is: a bundle carries the whole set, and a role
    # the runtime does not know could not be installed.
    manifest = parse_manifest(text.decode("utf-8"), root / MANIFEST, strict=True)
    t = load_tables(root, verify=True)
    if manifest != t.manifest:
        raise OSError(f"{root}: tables were republished while bundling; run again")
    # The tables for poker AI (strength and buckets) stay out: hundreds of megabytes, built where they are used.
    if any(optional_length(f["role"]) is not None for f in manifest["files"]):
        manifest = {**manifest, "files": [f for f in manifest["files"] if optional_length(f["role"]) is None]}
        text = (json.dumps(manifest, indent=2) + "\n").encode("utf-8")
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / bundle_name(FORMAT_VERSION)
    part = path.with_name(path.name + ".part")
    params = zstandard.ZstdCompressionParameters.from_level(
        level, window_log=WINDOW_LOG, write_checksum=True, threads=-1
    )
    cctx = zstandard.ZstdCompressor(compression_params=params)
    try:
        with open(part, "wb") as fh, cctx.stream_writer(fh, closefd=False) as z:
            _write_tar(z, root, manifest, text)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)
    raw_nbytes = sum(f["offset"] + f["nbytes"] for f in manifest["files"]) + len(text)
    if check:
        with tempfile.TemporaryDirectory(prefix="twoplustwo-bundle-check-") as scratch:
            install_bundle(path, to=Path(scratch) / "tables")
    return BundleReport(path, path.stat().st_size, raw_nbytes, time.perf_counter() - t0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m twoplustwo_builder.dag.bundle", description="Pack the tables into one .tar.zst bundle."
    )
    p.add_argument("--tables", type=Path, default=None, help="table directory (default: where tables are read)")
    p.add_argument("--out", type=Path, default=Path("dist"), help="output directory (default: %(default)s)")
    p.add_argument("--level", type=int, default=LEVEL, help="zstd level (default: %(default)s)")
    p.add_argument("--no-check", action="store_true", help="skip the trial install")
    args = p.parse_args(argv)
    try:
        report = write_bundle(args.tables, args.out, level=args.level, check=not args.no_check)
    except (OSError, ValueError, ImportError) as e:
        print(f"bundle failed: {e}", file=sys.stderr)
        return 1
    print(report.summary())
    return 0


if __name__ == "__main__":
    sys.exit(main())
