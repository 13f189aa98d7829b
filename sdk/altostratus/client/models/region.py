from __future__ import annotations

from pydantic import field_validator

from altostratus.client.models._base import ResponseModel


class Region(ResponseModel):
    """A region of the service; ``code`` identifies it (``LON1``), as ``region=`` takes it."""

    code: str
    name: str | None = None
    """Its display name: ``London 1``."""
    country: str | None = None
    """ISO 3166 country code: ``GB``."""
    default: bool | None = None
    """Whether this is the account's default region."""
    type: str | None = None
    out_of_capacity: bool | None = None
    country_name: str | None = None
    """The country's name: ``United Kingdom``."""
    features: dict[str, bool] | None = None
    """What the region offers (``object_store``, ``loadbalancer``, ...), each true or false."""

    @field_validator("features", mode="before")
    @classmethod
    def _listed_names(cls, value: object) -> object:
        """A list of feature names is each of them offered."""
        if isinstance(value, list) and all(isinstance(name, str) for name in value):
            return dict.fromkeys(value, True)
        return value

    def offers(self, feature: str) -> bool:
        """Whether the region lists ``feature``; a region answered without features offers
        everything (as the spec's regions do)."""
        return self.features is None or bool(self.features.get(feature))
