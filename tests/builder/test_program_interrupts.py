"""The builder's program and Ctrl-C: one KeyboardInterrupt, later SIGINTs ignored while it tidies up, none lost."""

from __future__ import annotations

import subprocess
import sys
import textwrap
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
