"""``python -m altostratus``: the ``altostratus`` command."""

import sys

from altostratus.cli import main

sys.exit(main())
