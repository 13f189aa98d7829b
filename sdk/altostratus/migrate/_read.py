"""Telling the two tools' states apart."""

from __future__ import annotations

import json

from altostratus.migrate import _pulumi_state, _terraform_state
from altostratus.migrate._checks import MAX_DEPTH, check_depth
from altostratus.migrate._source import Source, SourceError


def read_source(text: str) -> Source:
    """The state in ``text``: the output of ``pulumi stack export`` (with or without
    ``--show-secrets``) or of ``terraform show -json``."""
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SourceError(f"the source is not JSON ({error})") from None
    except ValueError:  # a number of more digits than Python converts
        raise SourceError("the source holds a number of more than 4300 digits") from None
    except RecursionError:
        raise SourceError(
            f"the source nests deeper than {MAX_DEPTH} levels, which neither tool writes"
        ) from None
    check_depth(document)
    if isinstance(document, dict) and "deployment" in document:
        return _pulumi_state.read(document)
    if isinstance(document, dict) and "format_version" in document:
        return _terraform_state.read(document)
    raise SourceError(
        "the source is neither `pulumi stack export` output (it has no deployment) nor "
        "`terraform show -json` output (it has no format_version)"
    )
