"""The real engine's adapter: the same ``Stack`` operations run by the Pulumi CLI through the
Automation API, for ``Stack(engine="pulumi")``.

``automation`` drives the CLI (``AutomationStack``: a local file backend in a temporary
directory, the stack's configuration and references); ``events`` reads what the engine reports
(its events and ``pulumi stack export``) into ``StepEvent`` and ``Result``. It shares nothing
with the runner wing but the records of ``altostratus.testing``'s results.

This wing is not public API: ``altostratus.testing`` is. The names below are the seam the
package's own tests reach it through, loaded on first use (see ``altostratus._exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from altostratus._exports import lazy_exports

if TYPE_CHECKING:
    from altostratus._pulumi_format import SECRET_SIGNATURE as SECRET_SIGNATURE
    from altostratus.testing.real.automation import AutomationStack as AutomationStack
    from altostratus.testing.real.events import EngineEvents as EngineEvents
    from altostratus.testing.real.events import check_failure as check_failure
    from altostratus.testing.real.events import exported_resource as exported_resource
else:
    __all__, __getattr__, __dir__ = lazy_exports(globals())
