"""``python -m twoplustwo``: the same command as the ``twoplustwo`` script.

>>> import subprocess, sys
>>> subprocess.run([sys.executable, "-m", "twoplustwo", "--version"], capture_output=True, text=True).stdout.split()[0]
'twoplustwo'
"""

from __future__ import annotations

import sys

from twoplustwo.cli import main

__all__: list[str] = []

if __name__ == "__main__":
    sys.exit(main())
