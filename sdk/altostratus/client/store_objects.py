"""Counting the objects of a store through its S3 endpoint (the API has no count).

The count is ``ListObjectsV2`` (``GET /<bucket>?list-type=2``), page after page, signed with
Signature V4 by a credential of the store. Nothing else of S3 is spoken here: users give the
store's outputs to boto3.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from datetime import datetime, timezone
from urllib.parse import quote, urlsplit
from xml.etree import ElementTree

from altostratus.client._http import HTTPClient
from altostratus.client.errors import APIError, InvalidResponseError, error_from_response

_EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
_S3 = "{http://s3.amazonaws.com/doc/2006-03-01/}"
_MAX_PAGES = 10_000


def count_objects(
    http: HTTPClient,
    endpoint: str,
    access_key_id: str,
    secret: str,
    region: str,
    most: int | None = None,
) -> int:
    """The number of objects in the bucket at ``endpoint`` (``<S3 address>/<bucket>``), or
    ``most`` once at least that many are seen: a page of at most 1000 keys per request, so the
    count of a large bucket costs a request per thousand objects unless ``most`` bounds it."""
    count, token = 0, ""
    for _ in range(_MAX_PAGES):
        page_size = 1000 if most is None else max(1, min(1000, most - count))
        query = {"list-type": "2", "max-keys": str(page_size)}
        if token:
            query["continuation-token"] = token
        status, body = http.get_elsewhere(
            _url(endpoint, query), _signed(endpoint, query, access_key_id, secret, region)
        )
        if not 200 <= status < 300:
            raise _s3_error(status, body, endpoint)
        page = _page(body, status, endpoint)
        count += sum(1 for _ in page.iter(f"{_S3}Contents"))
        if most is not None and count >= most:
            return most
        token = page.findtext(f"{_S3}NextContinuationToken") or ""
        if page.findtext(f"{_S3}IsTruncated") != "true":
            return count
        if not token:
            reason = "the store's listing says it is truncated but names no next page"
            raise InvalidResponseError(
                status, "unexpected_listing", reason, method="GET", path=endpoint
            )
    reason = "the listing never ends"
    raise InvalidResponseError(200, "endless_listing", reason, method="GET", path=endpoint)


def _canonical_query(query: dict[str, str]) -> str:
    return "&".join(
        f"{quote(key, safe='-_.~')}={quote(value, safe='-_.~')}"
        for key, value in sorted(query.items())
    )


def _url(endpoint: str, query: dict[str, str]) -> str:
    return f"{endpoint.rstrip('/')}?{_canonical_query(query)}"


def _signed(
    endpoint: str, query: dict[str, str], access_key_id: str, secret: str, region: str
) -> dict[str, str]:
    """The headers of a Signature V4 GET with an empty body (AWS's "Signature Version 4")."""
    parts = urlsplit(endpoint)
    now = datetime.now(timezone.utc)
    amz_date, day = now.strftime("%Y%m%dT%H%M%SZ"), now.strftime("%Y%m%d")
    headers = {"host": parts.netloc, "x-amz-content-sha256": _EMPTY_SHA256, "x-amz-date": amz_date}
    names = ";".join(sorted(headers))
    canonical = "\n".join(
        [
            "GET",
            quote(parts.path.rstrip("/") or "/", safe="/-_.~"),
            _canonical_query(query),
            "".join(f"{name}:{headers[name]}\n" for name in sorted(headers)),
            names,
            _EMPTY_SHA256,
        ]
    )
    scope = f"{day}/{region}/s3/aws4_request"
    digest = hashlib.sha256(canonical.encode()).hexdigest()
    to_sign = f"AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{digest}"
    key = f"AWS4{secret}".encode()
    for part in (day, region, "s3", "aws4_request"):
        key = hmac.new(key, part.encode(), hashlib.sha256).digest()
    signature = hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()
    authorization = (
        f"AWS4-HMAC-SHA256 Credential={access_key_id}/{scope}, "
        f"SignedHeaders={names}, Signature={signature}"
    )
    return {**headers, "authorization": authorization}


def _page(body: bytes, status: int, endpoint: str) -> ElementTree.Element:
    """The answer's ``ListBucketResult`` in S3's namespace; anything else (not XML, HTML, XML of
    another shape or namespace) is an ``InvalidResponseError``, never a page of no objects."""
    try:
        page = ElementTree.fromstring(body)
    except ElementTree.ParseError as exc:
        reason = f"the store's listing is not XML ({exc})"
        raise InvalidResponseError(
            status, "invalid_xml", reason, method="GET", path=endpoint
        ) from None
    if page.tag != f"{_S3}ListBucketResult":
        tag = page.tag.replace(_S3, "")[:60]
        reason = f"the store's listing is not an S3 ListBucketResult (its root is <{tag}>)"
        raise InvalidResponseError(
            status, "unexpected_listing", reason, method="GET", path=endpoint
        )
    return page


def _s3_error(status: int, body: bytes, endpoint: str) -> APIError:
    """S3's ``<Error><Code>…<Message>…`` answer, mapped by the client's one table by its status
    and with S3's code and message as the error's code and reason."""
    code = message = ""
    try:
        root = ElementTree.fromstring(body)
        code, message = root.findtext("Code") or "", root.findtext("Message") or ""
    except ElementTree.ParseError:
        pass
    content = json.dumps({"code": code, "reason": message}).encode()
    answer = _S3Answer(status, {"content-type": "application/json"}, content)
    return error_from_response(answer, method="GET", path=endpoint)


@dataclass(frozen=True)
class _S3Answer:
    status_code: int
    headers: dict[str, str]
    content: bytes
