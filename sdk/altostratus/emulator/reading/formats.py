"""The formats of the service's values (an address, a CIDR, a port range, a backend, an event
name, a DNS label, ...), one parser for each, named by the parameter: the readers of ``bodies``
take them, and every failure names the parameter (``parameter_<name>_invalid``).

The text parsers take the text of a field (``parse_cidr("cidr", text)``); the others take the
JSON value of an array or object field (in a form body, its JSON text read).
"""

from __future__ import annotations

import ipaddress
import re
from ipaddress import IPv4Address, IPv4Network
from typing import Any, TypedDict

from altostratus.emulator.errors import invalid
from altostratus.emulator.reading.params import parse_integer, port_number
from altostratus.emulator.reading.schemas import BACKEND_FIELDS
from altostratus.emulator.vocabulary import BACKEND_PROTOCOLS, EVENT_NAMES
from altostratus.emulator.webhooks.sending import url_problem

PRIVATE_RANGES = tuple(IPv4Network(n) for n in ("10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16"))


def parse_ipv4(name: str, text: str) -> str:
    try:
        return str(IPv4Address(text.strip()))
    except ValueError:
        raise invalid(name, f"{text!r} is not an IPv4 address") from None


def parse_http_url(name: str, text: str) -> str:
    """A URL a delivery can be sent to (``url_problem``: http or https, a host, a port, no
    path under the admin prefix), or a 400 saying why not."""
    problem = url_problem(text)
    if problem is not None:
        raise invalid(name, f"The parameter {name} cannot be used: {problem}")
    return text


def parse_ports(name: str, text: str) -> tuple[int, int | None]:
    """``<start>`` (one port) or ``<start>-<end>`` (a range, checked with the protocol later):
    ``(start, end)``, end None for one port."""
    start, dash, end = text.partition("-")
    ports = [port_number(part) for part in ([start, end] if dash else [start])]
    if None in ports:
        raise invalid(
            name, f"The parameter {name} must be <start> or <start>-<end>, ports from 1 to 65535"
        )
    low, *high = ports
    assert low is not None
    return low, high[0] if high else None


def parse_cidr(name: str, text: str) -> str:
    """Any IPv4 or IPv6 CIDR block (a bare address is a single-host block); answered as given."""
    try:
        ipaddress.ip_network(text.strip(), strict=False)
    except ValueError:
        raise invalid(name, f"{text!r} is not a CIDR block") from None
    return text.strip()


def parse_private_cidr(name: str, text: str) -> IPv4Network:
    """An RFC 1918 range with room for a gateway and hosts (prefix /8 to /29)."""
    try:
        network = IPv4Network(text.strip(), strict=True)
    except ValueError:
        raise invalid(name, f"{text!r} is not an IPv4 range in CIDR notation") from None
    if not any(network.subnet_of(r) for r in PRIVATE_RANGES):
        raise invalid(name, f"{text!r} is not a private (RFC 1918) range")
    if not 8 <= network.prefixlen <= 29:
        raise invalid(name, "The range's prefix length must be between /8 and /29")
    return network


class _BackendChecks(TypedDict, total=False):
    health_check_port: int


class Backend(_BackendChecks):
    """A balancer's backend as written; ``health_check_port`` only when one is set."""

    ip: str
    protocol: str
    source_port: int
    target_port: int


_BACKEND_REQUIRED = {"ip", "source_port", "target_port"}
_BACKEND_ALLOWED = {*BACKEND_FIELDS, "health_check_port"}


def parse_backends(name: str, value: Any) -> tuple[Backend, ...]:
    """Each ``ip`` and two ports, ``protocol`` (TCP or UDP; TCP when left out or empty) and,
    optionally, ``health_check_port`` (0 or empty is none, the official Go client's unset
    value); no other field."""
    if not isinstance(value, list):
        raise invalid(name, f"The parameter {name} must be an array of backend objects")
    backends = []
    for item in value:
        if not isinstance(item, dict) or not _BACKEND_REQUIRED <= set(item) <= _BACKEND_ALLOWED:
            raise invalid(
                name,
                "Each backend holds ip, source_port and target_port, and may hold protocol and"
                " health_check_port",
            )
        protocol = item.get("protocol") or "TCP"
        if not isinstance(protocol, str) or protocol.upper() not in BACKEND_PROTOCOLS:
            raise invalid(name, "A backend's protocol must be TCP or UDP")
        if not isinstance(item["ip"], str):
            raise invalid(name, "A backend's ip must be an IPv4 address")
        ports: dict[str, int] = {}
        for key in ("source_port", "target_port", "health_check_port"):
            sent = item.get(key)
            if key == "health_check_port" and (sent in (None, "") or parse_integer(sent) == 0):
                continue
            number = port_number(sent)
            if number is None:
                raise invalid(name, f"A backend's {key} must be a port from 1 to 65535")
            ports[key] = number
        backend = Backend(
            ip=parse_ipv4(name, item["ip"]),
            protocol=protocol.upper(),
            source_port=ports["source_port"],
            target_port=ports["target_port"],
        )
        if "health_check_port" in ports:
            backend["health_check_port"] = ports["health_check_port"]
        backends.append(backend)
    return tuple(backends)


BALANCER_OPTIONS = ("server_timeout", "client_timeout")


def parse_balancer_options(name: str, value: Any) -> dict[str, int | str]:
    """A balancer's ``options``: ``server_timeout`` and ``client_timeout``, each a number of
    seconds or a duration as text (``"60s"``), kept as sent; an empty or zero one is none, and
    other keys are ignored, as the service ignores them."""
    if not isinstance(value, dict):
        raise invalid(name, f"The parameter {name} must be an object")
    options: dict[str, int | str] = {}
    for key in BALANCER_OPTIONS:
        sent = value.get(key)
        if sent in (None, "", 0):
            continue
        if isinstance(sent, bool) or not isinstance(sent, (int, str)):
            raise invalid(name, f"{name}.{key} must be a number of seconds or a duration")
        if isinstance(sent, int) and sent < 0:
            raise invalid(name, f"{name}.{key} cannot be negative")
        options[key] = sent
    return options


def parse_events(name: str, value: Any) -> tuple[str, ...]:
    """The subscribed event names, without repeats."""
    if not isinstance(value, list) or not value or not all(isinstance(e, str) for e in value):
        raise invalid(name, f"The parameter {name} must be a non-empty array of event names")
    unknown = [e for e in value if e not in EVENT_NAMES]
    if unknown:
        raise invalid(name, f"Unknown event name(s): {', '.join(unknown)}")
    return tuple(dict.fromkeys(value))


_DNS_LABEL = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


def parse_dns_label(name: str, text: str) -> str:
    """A platform record's name, as Kubernetes names a namespace's objects: 1 to 63 lower-case
    letters, digits and ``-``, starting and ending with a letter or digit."""
    if not _DNS_LABEL.match(text):
        raise invalid(
            name,
            f"The parameter {name} must be 1 to 63 lower-case letters, digits and '-', "
            f"starting and ending with a letter or digit, not {text!r}",
        )
    return text


def parse_dns_labels(name: str, value: object) -> tuple[str, ...]:
    """An array of distinct ``parse_dns_label`` names, in their order."""
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise invalid(name, f"The parameter {name} must be an array of names")
    found: list[str] = []
    for item in value:
        label = parse_dns_label(name, item)
        if label not in found:
            found.append(label)
    return tuple(found)


_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,127}$")


def parse_variables(name: str, value: object) -> tuple[tuple[str, str], ...]:
    """An object of environment variables (``{"K": "v"}``): names of letters, digits and ``_``
    not starting with a digit, text values; sorted by name."""
    if not isinstance(value, dict):
        raise invalid(name, f"The parameter {name} must be an object of NAME: value")
    found = []
    for key, text in value.items():
        if not isinstance(key, str) or not _VARIABLE.match(key):
            raise invalid(name, f"{key!r} is not a variable name (letters, digits and _)")
        if not isinstance(text, str):
            raise invalid(name, f"The value of {key} must be text")
        found.append((key, text))
    return tuple(sorted(found))
