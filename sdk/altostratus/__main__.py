"""``python -m altostratus``: the ``altostratus`` command."""

from altostratus.cli import entry

entry()
