"""What every collection shares: the region, calling, parsing answers, paging; and the ``list``,
``get`` and ``delete`` calls of the collections that live in a region."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Generic, TypeVar
from urllib.parse import quote

from pydantic import BaseModel, ValidationError

from altostratus.client._http import HTTPClient
from altostratus.client._settings import region_code
from altostratus.client.errors import APITimeoutError, InvalidResponseError, OutcomeUnknownError
from altostratus.client.models._base import Page

M = TypeVar("M", bound=BaseModel)

PER_PAGE = 100
MAX_PAGES = 1000
MAX_ITEMS = 100_000
"""The most a paged list is walked for: its pages (of ``PER_PAGE`` records asked for) and its
records; a list naming more is refused (``endless_listing``), not walked or cut short."""
SUCCESS_STATUS = 200
"""The status an answer of the wrong shape is reported with: the HTTP layer hands the collections
the decoded body only, having refused every failure status, and the service answers every
success with 200."""


def segment(value: str) -> str:
    """An id made safe to place in a path."""
    return quote(value, safe="")


def fields(**values: Any) -> dict[str, Any]:
    """A request body or query holding only the values that were given."""
    return {name: value for name, value in values.items() if value is not None}


class Collection:
    """Calls of one collection. A ``_regional`` one's calls name a region, the call's ``region``
    or else the client's: in the query of every call (as the spec has it), and in the body of
    every call that sends one, unless ``body_region`` is false (a balancer's update, whose body
    the spec lists without it). The others send none."""

    _regional: ClassVar[bool] = True

    def __init__(self, http: HTTPClient, region: str) -> None:
        self._http = http
        self._default_region = region

    def _send(
        self,
        method: str,
        path: str,
        *,
        region: str | None = None,
        query: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
        body_region: bool = True,
        ends: float | None = None,
    ) -> Any:
        if self._regional:
            code = region_code(region or self._default_region)
            query = {"region": code, **(query or {})}
            body = {**body, "region": code} if body is not None and body_region else body
        return self._http.request(method, path, params=query or None, body=body, ends=ends)

    def _one(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        region: str | None = None,
        query: dict[str, Any] | None = None,
        body: dict[str, Any] | None = None,
        body_region: bool = True,
    ) -> M:
        """The record an answer carries. A create (POST) answered with a success that is not
        the record (not JSON, empty, the wrong shape, too large) may still have made it: that
        is an `OutcomeUnknownError`, as when the answer is lost, so the caller looks first."""
        try:
            data = self._send(
                method, path, region=region, query=query, body=body, body_region=body_region
            )
            return _parse(model, data, method, path)
        except InvalidResponseError as error:
            if method != "POST":
                raise
            raise OutcomeUnknownError(method=method, path=path, cause=error) from error

    def _many(
        self,
        model: type[M],
        path: str,
        *,
        region: str | None = None,
        query: dict[str, Any] | None = None,
    ) -> list[M]:
        data = self._send("GET", path, region=region, query=query)
        if not isinstance(data, list):
            raise _unexpected("a JSON array was expected", "GET", path)
        return _distinct(_parse(model, item, "GET", path) for item in data)

    def _all_pages(self, model: type[M], path: str, region: str | None) -> list[M]:
        """Every item of a paginated list, walking the pages in order up to the last one the
        latest answer names. A page may be empty before the last (its records deleted while the
        list is walked): the walk goes on, so no record that exists throughout is missed.

        The walk is bounded: it ends by the client's ``deadline`` as a whole, retries included
        (an ``APITimeoutError`` past it), and a list naming more than ``MAX_PAGES`` pages or
        holding more than ``MAX_ITEMS`` items is an ``InvalidResponseError``
        (``endless_listing``), never walked on. A record answered twice is one record."""
        items: list[M] = []
        ends = self._http.monotonic() + self._http.deadline
        page_number = 1
        while True:
            if page_number > 1 and self._http.monotonic() >= ends:
                raise APITimeoutError(
                    f"the list did not end within the deadline of {self._http.deadline:g} s "
                    f"({page_number - 1} pages read)",
                    method="GET",
                    path=path,
                )
            query = {"page": page_number, "per_page": PER_PAGE}
            answer = self._send("GET", path, region=region, query=query, ends=ends)
            page = _parse(Page[Any], answer, "GET", path)
            if page.pages > MAX_PAGES or len(items) + len(page.items) > MAX_ITEMS:
                raise _endless(path, page.pages)
            items.extend(_parse(model, item, "GET", path) for item in page.items)
            if page_number >= page.pages:
                return _distinct(items)
            page_number += 1


class RegionalCollection(Collection, Generic[M]):
    """Records of one region under ``_path``, answered as ``_model``; ``_paginated`` lists walk
    every page. Calls without ``region`` use the client's."""

    _path: ClassVar[str]
    _model: type[M]
    _paginated: ClassVar[bool] = False

    def list(self, *, region: str | None = None) -> list[M]:
        if self._paginated:
            return self._all_pages(self._model, self._path, region)
        return self._many(self._model, self._path, region=region)

    def get(self, id: str, *, region: str | None = None) -> M:
        return self._one(self._model, "GET", self._item(id), region=region)

    def delete(self, id: str, *, region: str | None = None) -> None:
        self._send("DELETE", self._item(id), region=region)

    def _item(self, id: str) -> str:
        return f"{self._path}/{segment(id)}"


def _parse(model: type[M], data: Any, method: str, path: str) -> M:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        detail = exc.errors()[0]
        where = ".".join(str(part) for part in detail["loc"]) or "answer"
        raise _unexpected(f"{where}: {detail['msg']}", method, path) from exc


def _distinct(records: Iterable[M]) -> list[M]:
    """The records with each id once, in the order first answered: a list that repeats a record
    (an offset page shifted by a create meanwhile, or a broken answer) names it once."""
    seen: set[object] = set()
    kept: list[M] = []
    for record in records:
        key = getattr(record, "id", None)
        if key is not None:
            if key in seen:
                continue
            seen.add(key)
        kept.append(record)
    return kept


def _endless(path: str, pages: int) -> InvalidResponseError:
    reason = (
        f"the list is longer than a list is walked for (it names {pages} pages; at most "
        f"{MAX_PAGES} pages and {MAX_ITEMS} records are read)"
    )
    return InvalidResponseError(SUCCESS_STATUS, "endless_listing", reason, method="GET", path=path)


def _unexpected(detail: str, method: str, path: str) -> InvalidResponseError:
    return InvalidResponseError(
        SUCCESS_STATUS,
        "invalid_response",
        f"unexpected answer, {detail}",
        method=method,
        path=path,
    )
