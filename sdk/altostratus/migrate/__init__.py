"""Moving a whole stack in: a bridged-provider stack or a Terraform state as a Pulumi program
that adopts every resource of altostratus's kinds, and a report of what it could not carry.

``read_source`` reads ``pulumi stack export`` or ``terraform show -json`` output; ``migrate``
translates it (``Migration``: the declarations, what is left, notes); ``program_source`` and
``report_text`` are the files' text, and ``write_project`` writes them with the project files a
folder lacks; each takes the front end the program uses (``FRONT_ENDS``: the dynamic
resources, or the provider plugin). Nothing here calls the service or imports Pulumi: the
program's ``adopt`` checks each record when it runs. ``altostratus migrate`` is the command
around it.
"""

from __future__ import annotations

from altostratus.migrate._checks import MAX_DEPTH
from altostratus.migrate._declarations import Declaration, Reference
from altostratus.migrate._files import PROGRAM, REPORT, ProgramExists, write_project
from altostratus.migrate._plan import Left, Migration, migrate
from altostratus.migrate._program import FRONT_ENDS, FrontEnd, program_source
from altostratus.migrate._read import read_source
from altostratus.migrate._report import report_text
from altostratus.migrate._source import SECRET, Source, SourceError, SourceResource

__all__ = [
    "FRONT_ENDS",
    "MAX_DEPTH",
    "PROGRAM",
    "REPORT",
    "SECRET",
    "Declaration",
    "FrontEnd",
    "Left",
    "Migration",
    "ProgramExists",
    "Reference",
    "Source",
    "SourceError",
    "SourceResource",
    "migrate",
    "program_source",
    "read_source",
    "report_text",
    "write_project",
]
