"""Base classes: tolerant when reading answers, strict when building requests.

Reading follows one policy, because the service's answers vary by endpoint and over time (its
official clients' fixtures leave out fields the spec shows, and add others): a record requires
only what identifies it, its ``id``; every other field reads as None when the answer leaves it
out, unknown fields are ignored, and the names the official clients read are accepted beside the
spec's (``max_size`` for ``max_size_gb``). A create or update answer that is the whole record
where the spec shows a short one reads as well: those answer models extend the record's.
"""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, field_validator

T = TypeVar("T")


class ResponseModel(BaseModel):
    """A record as the API answers it: unknown fields are ignored, numbers are read as text."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)


class RequestModel(BaseModel):
    """An object sent to the API: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class Page(ResponseModel, Generic[T]):
    """One page of a paginated list; an absent or null ``items`` reads as no items."""

    page: int = 1
    per_page: int | None = None
    pages: int = 1
    items: list[T] = []

    @field_validator("items", mode="before")
    @classmethod
    def _null_is_empty(cls, value: object) -> object:
        return [] if value is None else value
