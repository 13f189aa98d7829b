"""What a migration reads: the resources of a source's state, in one shape for both tools.

Both readers give each resource its Terraform type (``civo_network``; a bridged provider's
``civo:index/network:Network`` is the same resource under another name) and its attributes under
their Terraform names (``cidr_v4``, ``ingress_rule``), so one table maps both. A value the source
marks secret (Terraform's ``sensitive_values``, Pulumi's secret envelopes) is read as ``SECRET``,
never as its text: what holds it cannot be written into a program by mistake.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class SourceError(ValueError):
    """The source cannot be read as a state of either tool; the message says why."""


class _Secret:
    """A secret value of the source: its text is never kept."""

    def __repr__(self) -> str:
        return "SECRET"


SECRET: Any = _Secret()
"""Stands for every value the source marks secret."""


@dataclass(frozen=True)
class SourceResource:
    """One resource of the source's state."""

    address: str
    """Where the source tool finds it: a Terraform address or a Pulumi URN."""
    type: str
    """The Terraform type (``civo_firewall``), or the Pulumi type token of another provider."""
    label: str
    """How the report and the program's comments name it: the Terraform address, or the
    Pulumi type and name."""
    name: str
    """The resource's name in the source: a Terraform address's name (module and index
    included, ``cache-this``, ``edge-0``), a Pulumi resource name."""
    id: str
    values: dict[str, Any]
    """Attributes under their Terraform names; secret ones are ``SECRET``."""
    depends_on: tuple[str, ...] = ()
    """Addresses of the resources it depends on, as the source records them."""
    secret_id: bool = False
    """The source marks its id sensitive: ``id`` is then empty, and it is not adopted."""

    @property
    def service_kind(self) -> str | None:
        """``firewall`` for ``civo_firewall``; None for other providers' resources."""
        return self.type.removeprefix("civo_") if self.type.startswith("civo_") else None

    def text(self, attribute: str) -> str | None:
        """The attribute as non-empty text, else None (Terraform writes unset text as "")."""
        value = self.values.get(attribute)
        return value if isinstance(value, str) and value else None


@dataclass
class Source:
    """A state: its managed resources, and what it only reads (lookups)."""

    tool: str
    """``terraform`` or ``pulumi``."""
    title: str
    """What the state is, for the program and the report: ``the Pulumi stack payments/prod``."""
    resources: list[SourceResource] = field(default_factory=list)
    lookups: list[SourceResource] = field(default_factory=list)


def is_secret(value: Any) -> bool:
    """Whether the value is, or holds, a secret of the source."""
    if value is SECRET:
        return True
    if isinstance(value, dict):
        return any(is_secret(item) for item in value.values())
    if isinstance(value, list):
        return any(is_secret(item) for item in value)
    return False
