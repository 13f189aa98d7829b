"""``python -m altostratus.emulator``: serve the emulator until Ctrl-C or SIGTERM.

The same command as ``altostratus emulator``; its flags are declared in ``altostratus.cli``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from altostratus.cli import main as cli_main


def main(argv: Sequence[str] | None = None) -> int:
    return cli_main(["emulator", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
