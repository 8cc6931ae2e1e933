"""The command's name: what its usage and every one of its error lines begin with.

A module of its own, importing nothing, so that the command can report an
error (a Ctrl-C while its other modules load, say) before they are loaded.

>>> PROG
'twoplustwo'
"""

from __future__ import annotations

__all__ = ["PROG"]

PROG = "twoplustwo"
