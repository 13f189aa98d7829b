"""What every collection shares: the default region, calling, parsing answers, paging."""

from __future__ import annotations

from typing import Any, TypeVar
from urllib.parse import quote

from pydantic import BaseModel, ValidationError

from altostratus.client._http import HTTPClient
from altostratus.client.errors import APIError
from altostratus.client.models._base import Page

M = TypeVar("M", bound=BaseModel)

PER_PAGE = 100


def segment(value: str) -> str:
    """An id made safe to place in a path."""
    return quote(value, safe="")


def fields(**values: Any) -> dict[str, Any]:
    """A request body or query holding only the values that were given."""
    return {name: value for name, value in values.items() if value is not None}


class Collection:
    def __init__(self, http: HTTPClient, region: str) -> None:
        self._http = http
        self._default_region = region

    def _region(self, region: str | None) -> str:
        return (region or self._default_region).upper()

    def _query(self, region: str | None) -> dict[str, Any]:
        return {"region": self._region(region)}

    def _send(
        self,
        method: str,
        path: str,
        *,
        query: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
    ) -> Any:
        return self._http.request(method, path, params=query or None, body=body)

    def _one(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        query: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
    ) -> M:
        return _parse(model, self._send(method, path, query=query, body=body), method, path)

    def _many(self, model: type[M], path: str, *, query: dict[str, Any] | None = None) -> list[M]:
        data = self._send("GET", path, query=query)
        if not isinstance(data, list):
            raise _unexpected("a JSON array was expected", "GET", path)
        return [_parse(model, item, "GET", path) for item in data]

    def _all_pages(self, model: type[M], path: str, region: str) -> list[M]:
        """Every item of a paginated list, walking the pages in order."""
        items: list[M] = []
        page_number = 1
        while True:
            query = {"region": region, "page": page_number, "per_page": PER_PAGE}
            page = _parse(Page[Any], self._send("GET", path, query=query), "GET", path)
            items.extend(_parse(model, item, "GET", path) for item in page.items)
            if not page.items or page_number >= page.pages:
                return items
            page_number += 1


def _parse(model: type[M], data: Any, method: str, path: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        detail = exc.errors()[0]
        where = ".".join(str(part) for part in detail["loc"]) or "answer"
        raise _unexpected(f"{where}: {detail['msg']}", method, path) from exc


def _unexpected(detail: str, method: str, path: str) -> APIError:
    return APIError(
        200, "invalid_response", f"unexpected answer, {detail}", method=method, path=path
    )
