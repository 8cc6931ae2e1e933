"""The builder's program and Ctrl-C: one KeyboardInterrupt, later SIGINTs ignored while it tidies up, none lost."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_an_interrupt_lost_in_a_weakref_callback_leaves_the_program_interruptible() -> None:
    # Import's module locks have weakref callbacks: a KeyboardInterrupt raised inside one is only
    # reported, and the builder, which ignores SIGINTs after its first, once built on to the end.
    code = """
        import signal, weakref
        from twoplustwo_builder.__main__ import take_interrupts

        take_interrupts()

        class Held:
            pass

        held = Held()
        ref = weakref.ref(held, lambda _: signal.raise_signal(signal.SIGINT))
        del held  # the callback's KeyboardInterrupt is lost
        try:
            signal.raise_signal(signal.SIGINT)  # as the twoplustwo command sends again
            print("ignored")
        except KeyboardInterrupt:
            print("interrupted")
        try:
            signal.raise_signal(signal.SIGINT)  # while it tidies up: ignored
            print("tidied up")
        except KeyboardInterrupt:
            print("cut short")
    """
    proc = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)  # fmt: skip
    assert (proc.stdout, proc.stderr) == ("interrupted\ntidied up\n", "")


def test_sigints_during_the_exit_leave_the_exit_code_130() -> None:
    # The twoplustwo command passes on a SIGINT every half second until the builder exits. Python's exit
    # puts back the default SIGINT action, so on a loaded machine one landing then killed the builder after
    # it had said what it left, and the command said "interrupted" a second time. Here SIGINTs come without
    # pause from the moment the program's main runs until the process is gone.
    code = """
        import sys, time
        from twoplustwo_builder import __main__ as builder

        def main():
            try:
                print("running", flush=True)
                while True:
                    time.sleep(0.01)
            except KeyboardInterrupt:
                print("build interrupted", file=sys.stderr)
                return 130

        builder.main = main
        sys.exit(builder.program())
    """
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT)  # fmt: skip
        try:
            assert proc.stdout is not None and proc.stdout.readline() == "running\n"
            give_up = time.monotonic() + 120
            while proc.poll() is None and time.monotonic() < give_up:
                proc.send_signal(signal.SIGINT)
                time.sleep(0.0005)
            _, err = proc.communicate(timeout=120)
        finally:
            proc.kill()
        assert (proc.returncode, err) == (130, "build interrupted\n")
