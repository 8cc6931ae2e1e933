"""``python -m bench.peers`` (``make bench-peers``): twoplustwo next to eval7, phevaluator and treys,
and next to the compiled engines OMPEval and holdem-hand-evaluator.

The Python peers, and numpy for twoplustwo, are pip-installed into their own virtualenv
(``.venv-peers``, never the project's), where :mod:`bench.peer_worker` measures them and twoplustwo
in one process. A peer that will not install is skipped. The compiled engines are built and run by
the driver in ``../shared/compiled-peers/`` (``run.py``: the same inputs on both sides, one thread,
answers compared), once per batch loop this processor has (``$TWOPLUSTWO_BATCH_LOOP`` set for the
twoplustwo side), when that folder is beside the checkout; without it they are skipped, and the
report says so. Results go to ``bench/peers.json``, then to the report.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from twoplustwo.kernels.choice import LOOP_VAR

from . import PEERS_RESULTS, REPEATS, ROOT, SEED, machine, render, say
from .peer_worker import BOARDS

PEERS = ("eval7", "phevaluator", "treys")
#: The compiled engines' driver, beside the checkout.
COMPILED = ROOT.parent / "shared" / "compiled-peers" / "run.py"
# Fresh interpreters per library for the import + first-evaluate figure.
FRESH_RUNS = 21
FRESH = {
    "twoplustwo": "import twoplustwo\nv = twoplustwo.evaluate([51, 47, 43, 39, 35, 0, 5])",
    "phevaluator": "import phevaluator\nv = phevaluator.evaluate_cards('As', 'Ks', 'Qs', 'Js', 'Ts', '2c', '3d')",
}
_PROBE = """import time
t0 = time.perf_counter()
{code}
print(time.perf_counter() - t0)
"""


def fresh_starts(py: Path, env: dict[str, str], names: list[str]) -> list[dict[str, object]]:
    """Median seconds from a fresh interpreter's first import to its first value, per library.

    The runs alternate between the libraries, so a busy moment of the machine
    hits both alike. Bytecode is compiled first, as ``pip install`` does:
    compiling the sources on every start would measure the compiler.
    """
    subprocess.run([str(py), "-m", "compileall", "-q", "twoplustwo"], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    libs = [n for n in FRESH if n == "twoplustwo" or n in names]
    times: dict[str, list[float]] = {n: [] for n in libs}
    for _ in range(FRESH_RUNS):
        for n in libs:
            out = subprocess.run([str(py), "-c", _PROBE.format(code=FRESH[n])], cwd=ROOT, env=env, check=True,
                                 stdout=subprocess.PIPE, text=True).stdout
            times[n].append(float(out))
    return [{"library": n, "seconds": sorted(t)[len(t) // 2], "runs": len(t)} for n, t in times.items()]


def available(py: Path, name: str, install: bool) -> bool:
    """Whether ``name`` imports in the peers' virtualenv, pip-installing it there first if allowed."""
    if subprocess.run([str(py), "-m", "pip", "show", name], capture_output=True).returncode == 0:
        return True
    if install:
        say(f"peers: pip install {name} (into {py.parent.parent} only)")
        cmd = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", name]
        got = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if got.returncode == 0:
            return available(py, name, False)
        say(f"peers: {name} could not be installed: {(got.stderr.strip().splitlines() or ['?'])[-1]}")
    say(f"peers: {name} skipped")
    return False


def batch_loops() -> tuple[str, ...]:
    """The C core's batch loops this processor has (``_core.BATCH_LOOPS``), or none without the extension."""
    from twoplustwo.kernels.choice import extension

    core = extension()
    return tuple(core.BATCH_LOOPS) if core is not None else ()


def compiled_peers() -> dict[str, object]:
    """The driver's figures (each with twoplustwo's ratio to OMPEval), one run per batch loop this processor
    has (``$TWOPLUSTWO_BATCH_LOOP`` set for the twoplustwo side, the best loop last), or why there are none."""
    if not COMPILED.is_file():
        say(f"peers: {COMPILED.parent} is not there, so the compiled engines are skipped")
        return {"runs": [], "note": f"not measured: {COMPILED.parent} was not beside the checkout"}
    runs = []
    for loop in batch_loops() or ("",):
        say(f"peers: building and running the compiled engines ({COMPILED})" + (f", the {loop} loop" if loop else ""))
        env = {**os.environ, LOOP_VAR: loop} if loop else dict(os.environ)
        got = subprocess.run([sys.executable, str(COMPILED)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True,
                             timeout=1800)
        lines = [json.loads(line) for line in got.stdout.splitlines() if line.startswith("{")]
        figures = [r for r in lines if "figure" in r]
        summary = next((r for r in lines if "summary" in r), {})
        if got.returncode != 0 or not figures:
            runs.append({"loop": loop, "figures": figures,
                         "note": f"the driver failed (exit {got.returncode}); {summary}"})
        else:
            runs.append({"loop": loop, "figures": figures, "summary": summary.get("summary", ""),
                         "agree_all": summary.get("agree_all")})
    m = machine()
    return {"runs": runs, "machine": f"{m['cpu']} ({m['cores']} cores), {m['date']}"}


def threads_figures() -> list[dict[str, object]]:
    """What a second thread adds to the compiled engines' figures (:mod:`bench.threads`, its own process)."""
    say("peers: the compiled engines' figures on 1 and 2 threads")
    got = subprocess.run([sys.executable, "-m", "bench.threads"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                         check=True, timeout=1800)
    figures: list[dict[str, object]] = json.loads(got.stdout)
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=ROOT / ".venv-peers", help="default: %(default)s")
    parser.add_argument("--no-install", action="store_true", help="use only what the virtualenv already has")
    args = parser.parse_args(argv)
    py = args.venv / "bin" / "python"
    if not py.exists():
        say(f"peers: creating {args.venv}")
        subprocess.run([sys.executable, "-m", "venv", str(args.venv)], check=True)
    names = [name for name in PEERS if available(py, name, not args.no_install)]
    if not available(py, "numpy", not args.no_install) or not names:
        print("bench-peers skipped: numpy or every peer is missing from the peers' virtualenv")
        return 0
    say(f"peers: measuring twoplustwo, {', '.join(names)} in {args.venv}")
    # Run from the checkout, so that twoplustwo imports from it; nothing of this environment leaks in.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    cmd = [str(py), "-m", "bench.peer_worker", *names]
    report = json.loads(subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, check=True).stdout)
    say("peers: import + first evaluate in fresh interpreters")
    fresh = fresh_starts(py, env, names)
    report["notes"] += [f"not installed, so not measured: {p}" for p in PEERS if p not in names]
    results = {
        "machine": machine() | {"numpy": report["numpy"]},
        "per_call_about": f"random 7-card hands, seed {SEED} (those of the runtime's single-hand figures), as each "
        f"library's cards made beforehand; one call per hand in a plain loop, best of {REPEATS}; checksum of the "
        "results mapped to higher-is-stronger (7463 - Cactus Kev rank for phevaluator and treys)",
        "per_call": report["per_call"],
        "equity_about": f"AsAh vs KdKc over all {BOARDS:,} boards in a Python loop, both hands evaluated per board; "
        "seconds for all boards; counts: AsAh's wins / ties / losses on the boards run",
        "equity": report["equity"],
        "fresh_about": f"a fresh interpreter's import and first evaluate of one 7-card hand, median of {FRESH_RUNS} "
        "alternating runs, bytecode compiled beforehand",
        "fresh": fresh,
        "omaha_about": "single PLO4 calls from Python on the same seeded deals (4 hole cards, 5 board cards), best of "
        f"{REPEATS}; checksum of the values mapped to higher-is-stronger",
        "omaha": report["omaha"],
        "notes": report["notes"],
        "compiled_about": "python3 ../shared/compiled-peers/run.py: OMPEval and holdem-hand-evaluator built with "
        "-O3 -march=native, the same inputs, one thread, best of 5 rounds, once per batch loop this processor has "
        "($TWOPLUSTWO_BATCH_LOOP set for twoplustwo); ratio = twoplustwo's speed over OMPEval's",
        "compiled": compiled_peers(),
        "threads_about": "the compiled engines' inputs (10 M random hands seeded by the bench, the driver's ranges and "
        "Monte Carlo) on 1 and 2 threads of twoplustwo, alternating rounds, best of 5, answers compared",
        "threads": threads_figures(),
    }
    PEERS_RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return render.main()


if __name__ == "__main__":
    sys.exit(main())
