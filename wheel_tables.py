"""Build time only: setuptools' ``build_py``, which also puts the table bundle into the runtime's wheel.

pyproject.toml names this class in ``[tool.setuptools.cmdclass]``, so every
standard build of a wheel (``pip wheel .``, ``pip install .``, ``pip install
git+URL``, a wheel built from the sdist) carries the bundle that the
package installs on its first use (:mod:`twoplustwo.tables.default`). After
copying the code, ``build_py`` runs the builder of this same source tree
(``builder/``, which the sdist carries) in a child Python:
``python -m twoplustwo_builder.dag.wheel`` bundles ``tables/`` when it holds a
whole, sound set (a checkout after ``make``: the compression takes about
20 s of CPU), else builds and checks a new set in a scratch directory first
(about 30 s more). The bundle is written
into setuptools' build directory only: never into ``tables/``, the package's
source folder or the user's cache. If the builder fails, so does the build,
saying why: a wheel without its tables would only fail later, at its first
``evaluate``.

Editable installs (``pip install -e .``, which ``make`` runs) skip it: a
checkout reads its own ``tables/``.

The runtime never imports the builder; this file is not part of the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools.command.build_py import build_py as _setuptools_build_py
from setuptools.errors import ExecError

__all__ = ["build_py", "bundle_tables"]

#: The source tree: the runtime, the builder (``builder/``) and, in a checkout, ``tables/``.
ROOT = Path(__file__).resolve().parent
#: Where the runtime looks for its bundle, inside the package (``twoplustwo.tables.default.BUNDLED``).
BUNDLED = ("twoplustwo", "tables", "bundled")


def bundle_tables(out: Path) -> None:
    """Write the table bundle into ``out`` with the builder of :data:`ROOT`; :class:`ExecError` if it fails."""
    out = out.absolute()  # the builder runs in a scratch directory
    builder = ROOT / "builder"
    if not (builder / "dag" / "wheel.py").is_file():
        raise ExecError(
            f"{builder} is missing or incomplete: a wheel of twoplustwo carries its table bundle, which the "
            "builder in builder/ makes at build time (build from a checkout or the sdist, which hold it)"
        )
    # A bundle of another format version, left by an earlier build in the same build directory, goes.
    shutil.rmtree(out, ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="twoplustwo-wheel-") as tmp:
        # builder/ is the package twoplustwo_builder (builder/pyproject.toml): a link by that name imports
        # it from this tree, beside this tree's runtime, ahead of any installed copy of either.
        (Path(tmp) / "twoplustwo_builder").symlink_to(builder, target_is_directory=True)
        path = [str(ROOT), tmp, *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(path),
            # Anything that reads the default table set reads the scratch directory, never the user's.
            "TWOPLUSTWO_TABLES": str(Path(tmp) / "default-tables"),
            # The tree's C core may not be built (an sdist's is not): the numpy reference, which the C is
            # tested against, serves the self-check's walks, without a warning that the C was not built.
            "TWOPLUSTWO_BACKEND": "numpy",
        }
        command = [sys.executable, "-m", "twoplustwo_builder.dag.wheel", "--tables", str(ROOT / "tables")]
        command += ["--out", str(out)]
        code = subprocess.call(command, env=env, cwd=tmp)
    if code != 0:
        raise ExecError(
            f"the table bundle the wheel carries could not be made (python -m twoplustwo_builder.dag.wheel exited "
            f"with {code}; its message is above), so no wheel was built: a wheel without its tables fails at its "
            "first use"
        )


class build_py(_setuptools_build_py):
    """setuptools' ``build_py``, then the table bundle into the built package (not in editable installs)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            bundle_tables(Path(self.build_lib, *BUNDLED))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        outputs: list[str] = super().get_outputs(include_bytecode)
        bundled = Path(self.build_lib, *BUNDLED)
        if not self.editable_mode and bundled.is_dir():
            outputs += sorted(str(p) for p in bundled.iterdir())
        return outputs
