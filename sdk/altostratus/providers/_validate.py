"""Validators and normalisers of resource inputs, used by ``check`` and ``diff``.

A validator takes a value that is known (not a preview's unknown) and returns the reason it is
invalid, or None. Numbers arrive from the engine as floats; whole floats count as integers.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from pulumi.output import Unknown
from pulumi.runtime import rpc

from altostratus.client._settings import region_code

Validator = Callable[[Any], "str | None"]

_REGION_CODE = re.compile(r"[A-Z][A-Z0-9]{0,15}")
"""A region code as the service spells them (``LON1``, and codes such as ``LOCAL`` that a target
may serve besides): which codes exist is the target's to say, and it refuses an unknown one."""
_PRIVATE_V4 = tuple(
    ipaddress.IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16")
)
# A store's bucket is "<name>-<6 characters>", so the name follows S3's bucket rules, shortened.
_STORE_NAME = re.compile(r"^[a-z0-9](?:[a-z0-9.-]{0,54}[a-z0-9])?$")
_ACCESS_KEY = re.compile(r"^[A-Za-z0-9._-]{3,128}$")
"""An access key as the service takes it: the generated ones are 20 upper-case letters and
digits; chosen ones may be shorter or spelled otherwise (``"1234567890"``, ``"my-access-key"``,
as the Terraform provider's tests choose them)."""
_SECRET_KEY = re.compile(r"^[A-Za-z0-9/+=]{40}$")
MAX_SIZE_GB = 1_000_000


def is_unknown(value: Any) -> bool:
    """A value the engine does not know yet (preview): the sentinel text or Unknown()."""
    return isinstance(value, Unknown) or (isinstance(value, str) and value == rpc.UNKNOWN)


def contains_unknown(value: Any) -> bool:
    if is_unknown(value):
        return True
    if isinstance(value, dict):
        return any(contains_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(contains_unknown(v) for v in value)
    return False


def as_int(value: Any) -> int | None:
    """The integer a value stands for (7 or 7.0), else None; booleans are not integers."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def text(value: Any) -> str | None:
    if not isinstance(value, str):
        return f"must be text, not {type(value).__name__}"
    return None if value.strip() else "must not be empty"


def optional_text(value: Any) -> str | None:
    return None if isinstance(value, str) else f"must be text, not {type(value).__name__}"


def boolean(value: Any) -> str | None:
    return None if isinstance(value, bool) else "must be true or false"


class OneOf:
    """A validator of one of ``allowed`` (exact spelling); ``allowed`` is kept for reading."""

    def __init__(self, *allowed: str) -> None:
        self.allowed = allowed

    def __call__(self, value: Any) -> str | None:
        if isinstance(value, str) and value in self.allowed:
            return None
        return f"must be one of {', '.join(self.allowed)}, not {value!r}"


def one_of(*allowed: str) -> Validator:
    return OneOf(*allowed)


def positive_int(value: Any) -> str | None:
    number = as_int(value)
    return None if number is not None and number > 0 else "must be a positive whole number"


def port_number(value: Any) -> str | None:
    number = as_int(value)
    return None if number is not None and 1 <= number <= 65535 else "must be a port, 1 to 65535"


def port_text(value: Any) -> str | None:
    if not isinstance(value, str):
        return 'must be text holding a port, such as "22"'
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value) <= 65535:
        return f"must hold a port from 1 to 65535, not {value!r}"
    return None


def port_range(value: Any) -> str | None:
    """A port or a range of ports as the Terraform provider's rules write them: "80", "80-443"."""
    if not isinstance(value, str):
        return 'must be text holding a port or a range, such as "80" or "80-443"'
    start, dash, end = value.partition("-")
    reason = port_text(start.strip()) or (port_text(end.strip()) if dash else None)
    if reason is not None:
        return f'must be a port or a range of ports 1 to 65535 ("80", "80-443"), not {value!r}'
    if dash and int(end) < int(start):
        return f"must not end below its start, not {value!r}"
    return None


def region(value: Any) -> str | None:
    """A region code in any case (``lon1`` is ``LON1``); an unknown code is the API's to refuse."""
    if isinstance(value, str) and _REGION_CODE.fullmatch(region_code(value)):
        return None
    return (
        "must be a region code: a letter, then up to 15 letters or digits "
        f"(such as LON1), not {value!r}"
    )


def private_cidr(value: Any) -> str | None:
    if not isinstance(value, str):
        return "must be CIDR text such as 10.20.0.0/24"
    try:
        network = ipaddress.IPv4Network(value, strict=False)
    except ValueError:
        return f"must be an IPv4 CIDR such as 10.20.0.0/24, not {value!r}"
    if not any(network.subnet_of(private) for private in _PRIVATE_V4):
        return f"must be a private (RFC 1918) range, not {value!r}"
    if str(network) != value.strip():
        return f"has host bits set: {value!r} is the range {network}"
    if not 8 <= network.prefixlen <= 29:
        return f"must have a prefix from /8 to /29, not /{network.prefixlen}"
    return None


def cidr_list(value: Any) -> str | None:
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not items:
        return "must be a CIDR text or a non-empty list of them"
    for item in items:
        if is_unknown(item):
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except (TypeError, ValueError):
            return f"holds {item!r}, which is not a CIDR such as 10.0.0.0/8"
    return None


def ip_list(value: Any) -> str | None:
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list):
        return "must be a list of IPv4 addresses"
    for item in items:
        if is_unknown(item):
            continue
        try:
            ipaddress.IPv4Address(item.strip() if isinstance(item, str) else item)
        except (TypeError, ValueError):
            return f"holds {item!r}, which is not an IPv4 address"
    return None


def http_url(value: Any) -> str | None:
    if not isinstance(value, str):
        return "must be an http or https URL"
    try:
        parts = urlsplit(value)
        host = parts.hostname
        parts.port  # noqa: B018 (a malformed port raises here)
    except ValueError:
        return f"must be an http or https URL, not {value!r}"
    if parts.scheme not in ("http", "https") or not host:
        return f"must be an http or https URL with a host, not {value!r}"
    return None


def store_name(value: Any) -> str | None:
    reason = text(value)
    if reason is not None:
        return reason
    if not _STORE_NAME.match(value) or any(pair in value for pair in ("..", ".-", "-.")):
        return (
            "must be 1 to 56 lowercase letters, digits, hyphens or dots, starting and ending "
            f"with a letter or digit, not {value!r}"
        )
    if value.startswith("xn--") or re.fullmatch(r"[0-9.]+", value):
        return f"cannot form an S3 bucket name: {value!r}"
    return None


def size_gb(value: Any) -> str | None:
    number = as_int(value)
    if number is None or not 1 <= number <= MAX_SIZE_GB:
        return f"must be a whole number of gigabytes from 1 to {MAX_SIZE_GB}"
    return None


def access_key(value: Any) -> str | None:
    if isinstance(value, str) and _ACCESS_KEY.match(value):
        return None
    return "must be 3 to 128 letters, digits, dots, hyphens or underscores"


def secret_key(value: Any) -> str | None:
    if isinstance(value, str) and _SECRET_KEY.match(value):
        return None
    return "must be 40 letters, digits or the characters / + ="


def list_of(item: Validator, *, allowed_empty: bool = False) -> Validator:
    def validate(value: Any) -> str | None:
        if not isinstance(value, list) or (not value and not allowed_empty):
            return "must be a non-empty list"
        for index, element in enumerate(value):
            reason = None if contains_unknown(element) else item(element)
            if reason is not None:
                return f"[{index}] {reason}"
        return None

    return validate


def ipv4_address(value: Any) -> str | None:
    try:
        ipaddress.IPv4Address(value)
    except (TypeError, ValueError):
        return f"must be an IPv4 address, not {value!r}"
    return None
