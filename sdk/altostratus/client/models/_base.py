"""Base classes: tolerant when reading answers, strict when building requests."""

from __future__ import annotations

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict

T = TypeVar("T")


class ResponseModel(BaseModel):
    """A record as the API answers it: unknown fields are ignored, numbers are read as text."""

    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)


class RequestModel(BaseModel):
    """An object sent to the API: unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")


class Page(ResponseModel, Generic[T]):
    """One page of a paginated list."""

    page: int = 1
    per_page: int | None = None
    pages: int = 1
    items: list[T] = []
