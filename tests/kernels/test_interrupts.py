"""Ctrl-C in a long exact enumeration: the work stops, the pool stays usable, the process exits at once.

``equity(["random", "random"], method="exact")`` takes a minute where the
C backend counts deals, and hours where boards are listed. Each case runs
it in a child interpreter that reports the moment its workers start
scoring deals (a wrapper around :func:`twoplustwo.odds.exact.score_step` and
:func:`twoplustwo.odds.counting.count_showdowns`, the steps the two routes spend
their time in), so that SIGINT arrives in the middle of the enumeration
however loaded the machine is, never while the child is still importing
or checking its input. A regression makes the child hang, which the
timeout turns into a failure.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Seconds from SIGINT to the child's exit, a next call included; a
# regression takes hours. Generous for a loaded 2-core machine: the
# measured figure is about 0.1 s.
PROMPT = 10.0
# Give up on a child that never reaches its enumeration or never exits.
TIMEOUT = 30.0

# Announce the first scoring step on stdout, from whichever thread runs it.
WATCH = """
    import sys, threading
    from twoplustwo.odds import counting, exact

    _told = threading.Lock()

    def _watch(step):
        def watched(*args):
            if _told.acquire(blocking=False):
                print("scoring", flush=True)
            return step(*args)
        return watched

    exact.score_step = _watch(exact.score_step)
    counting.count_showdowns = _watch(counting.count_showdowns)
"""


def interrupt(code: str) -> tuple[subprocess.CompletedProcess[str], float]:
    """Run ``code`` after :data:`WATCH`; SIGINT once it scores. The result and the seconds from SIGINT to exit."""
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(WATCH) + textwrap.dedent(code)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # blocks until the child scores, or exits
        assert first == "scoring\n", (first, proc.stderr.read() if proc.stderr else "")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=TIMEOUT)
        took = time.monotonic() - sent
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"the child was still running {TIMEOUT:.0f} s after SIGINT: {out!r} {err!r}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return subprocess.CompletedProcess(proc.args, proc.returncode, first + out, err), took


@pytest.mark.parametrize(
    ("game", "flop", "expected"),
    # The next call's wins and games for random against AK: enumerated on
    # two threads, it needs the pool the interrupted call used.
    [("holdem", "Qh 7c 2d", "7422361 17123040"), ("short-deck", "Qh 7c 6d", "1611601 3020640")],
)
def test_ctrl_c_stops_exact_enumeration_and_leaves_the_pool_usable(game: str, flop: str, expected: str) -> None:
    done, took = interrupt(
        f"""
        import twoplustwo as tp

        try:
            tp.equity(["random", "random"], method="exact", game={game!r}, threads=2, quiet=True)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
        hero, _ = tp.equity(["random", "AK"], board={flop!r}, method="exact", game={game!r}, threads=2)
        print(hero.wins, hero.games, flush=True)
        """
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[1:] == ["interrupted", expected, ""], done.stdout
    assert took < PROMPT, f"{took:.1f} s from SIGINT to exit"


def test_ctrl_c_in_the_cli_exits_130_with_one_line() -> None:
    done, took = interrupt(
        """
        from twoplustwo.cli import main

        sys.exit(main(["equity", "random", "random", "--exact", "--quiet"]))
        """
    )
    assert done.returncode == 130, done.stderr
    assert done.stderr == "twoplustwo: error: interrupted\n"
    assert took < PROMPT, f"{took:.1f} s from SIGINT to exit"


@pytest.mark.parametrize("failing", [0, 1, 2])
def test_a_failed_part_stops_the_others_before_run_raises(failing: int) -> None:
    # With as many parts as threads the calling thread runs the last part
    # itself (part 2 of 3): a failure on a pool thread must stop it too, and
    # its own failure must stop the pool's parts.
    import threading

    from twoplustwo.kernels import pool

    stop = threading.Event()
    returned: list[str] = []

    def part(k: int) -> None:
        if k == failing:
            raise RuntimeError(f"part {k} failed")
        # The others would run for a minute unless told to stop.
        stopped = stop.wait(60)
        returned.append("stopped" if stopped else "ran out")

    t = time.monotonic()
    with pytest.raises(RuntimeError, match=f"part {failing} failed"):
        pool.run(3, part, range(3), stop=stop)
    # Before run raised: every part that started has stopped (the caller's
    # among them, unless it failed), and none runs on unseen. A pool part
    # that had not started yet is cancelled.
    seen = list(returned)
    assert set(seen) <= {"stopped"} and len(seen) >= (1 if failing < 2 else 0), seen
    time.sleep(0.2)
    assert returned == seen
    assert time.monotonic() - t < PROMPT
