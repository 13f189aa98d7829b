"""Where the API key, the API address, the region and the bounds of one call come from."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from altostratus.client.errors import ConfigurationError, clean_text

DEFAULT_API_URL = "http://127.0.0.1:8787"
DEFAULT_REGION = "LON1"
#: How long the retries of one call may go on (``HTTPClient.max_retry_seconds``).
DEFAULT_MAX_RETRY_SECONDS = 60.0
#: The longest one call may take, retries included: the 60 s retries may take, then one full read
#: timeout (30 s) for the last attempt.
DEFAULT_DEADLINE = 90.0
#: The largest answer read: a page of records is tens of kilobytes; anything near this is not
#: the service's answer, and reading on would only cost memory.
DEFAULT_MAX_ANSWER_BYTES = 16 * 1024 * 1024

_MISSING_KEY = (
    "no API key: pass api_key, run `pulumi config set --secret altostratus:apiKey <key>`, "
    "set ALTOSTRATUS_API_KEY or CLI_API_KEY, or store a session with `cli auth` "
    "(credentials.json in $CLI_CONFIG_DIR, default ~/.cli)"
)


@dataclass(frozen=True, repr=False)
class Settings:
    """Resolved settings of a client. The repr never shows the key, nor a password in the URL."""

    api_key: str = field(repr=False)
    api_url: str
    region: str
    deadline: float = DEFAULT_DEADLINE
    """Seconds one call may take in all, from its first attempt to the last byte of its answer,
    retries and their waits included."""
    max_answer_bytes: int = DEFAULT_MAX_ANSWER_BYTES
    """The largest answer body read, in bytes (after decompression); a larger one is refused."""

    def __repr__(self) -> str:
        return (
            f"Settings(api_url={clean_text(self.api_url)!r}, region={self.region!r}, "
            f"deadline={self.deadline!r}, max_answer_bytes={self.max_answer_bytes!r})"
        )


def resolve_settings(
    api_key: str | None = None,
    api_url: str | None = None,
    region: str | None = None,
    *,
    deadline: float | None = None,
    max_answer_bytes: int | None = None,
    stack_config: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
    require_key: bool = True,
) -> Settings:
    """Resolve each setting on its own; the earliest layer that sets it wins.

    1. the arguments;
    2. the Pulumi stack config: `altostratus:apiKey`, `altostratus:apiUrl`, `altostratus:region`,
       `altostratus:requestDeadlineSeconds`, `altostratus:maxAnswerBytes`;
    3. `ALTOSTRATUS_API_KEY`, `ALTOSTRATUS_API_URL`, `ALTOSTRATUS_REGION`,
       `ALTOSTRATUS_REQUEST_DEADLINE_SECONDS`, `ALTOSTRATUS_MAX_ANSWER_BYTES`;
    4. the service CLI's variables `CLI_API_KEY`, `CLI_API_URL`;
    5. the service CLI's session file `credentials.json` in `$CLI_CONFIG_DIR` (default `~/.cli`);
    6. defaults: the local emulator's address, region `LON1`, a deadline of 90 s and answers of
       at most 16 MiB.

    Empty values count as unset. Without a key, `ConfigurationError` names every way to set one,
    unless `require_key` is false (the key is then the empty string). A deadline or size that is
    not a positive number is a `ConfigurationError` naming where it was set.
    """
    env = os.environ if environ is None else environ
    config = stack_config or {}
    key = _first(
        api_key,
        config.get("altostratus:apiKey"),
        env.get("ALTOSTRATUS_API_KEY"),
        env.get("CLI_API_KEY"),
    )
    url = _first(
        api_url,
        config.get("altostratus:apiUrl"),
        env.get("ALTOSTRATUS_API_URL"),
        env.get("CLI_API_URL"),
    )
    if key is None or url is None:
        session = _read_session(env)
        key = _first(key, session.get("api_key"))
        url = _first(url, session.get("api_url"))
    if key is None and require_key:
        raise ConfigurationError(_MISSING_KEY)
    chosen_region = _first(region, config.get("altostratus:region"), env.get("ALTOSTRATUS_REGION"))
    seconds = _positive(
        ("deadline", deadline),
        ("altostratus:requestDeadlineSeconds", config),
        ("ALTOSTRATUS_REQUEST_DEADLINE_SECONDS", env),
    )
    size = _positive(
        ("max_answer_bytes", max_answer_bytes),
        ("altostratus:maxAnswerBytes", config),
        ("ALTOSTRATUS_MAX_ANSWER_BYTES", env),
    )
    return Settings(
        api_key=key or "",
        api_url=base_url(url or DEFAULT_API_URL),
        region=region_code(chosen_region or DEFAULT_REGION),
        deadline=DEFAULT_DEADLINE if seconds is None else seconds,
        max_answer_bytes=DEFAULT_MAX_ANSWER_BYTES if size is None else max(int(size), 1),
    )


def base_url(url: str) -> str:
    """The API's address as every call's path (``/v2/...``) is joined to it: the one place a base
    URL is read. A trailing ``/`` or ``/v2`` is dropped, so the service's documented base
    (``.../v2``) and the bare host both work; a URL that cannot be one is a `ConfigurationError`
    naming it."""
    text = url.strip().rstrip("/")
    if text.endswith("/v2"):
        text = text[: -len("/v2")].rstrip("/")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 (reading it checks it)
    except ValueError as error:
        raise ConfigurationError(
            f"the API URL {clean_text(url)!r} cannot be read ({error}); "
            f"give one such as {DEFAULT_API_URL}"
        ) from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(
            f"the API URL {clean_text(url)!r} is not an http:// or https:// URL with a host; "
            f"give one such as {DEFAULT_API_URL}"
        )
    return text


def region_code(region: str) -> str:
    """A region as the API names it (``lon1`` is ``LON1``): every layer that takes a region from
    a user (settings, calls, resource inputs, lookups) reads it through here."""
    return region.strip().upper()


def _first(*values: object) -> str | None:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def _positive(
    argument: tuple[str, float | None], *layers: tuple[str, Mapping[str, str]]
) -> float | None:
    """The first number set, from the (name, value) argument, then each (name, layer) of text;
    a value that is not a positive number is refused, naming where it was set."""
    where, raw = argument
    chosen: float | str | None = raw
    if chosen is None:
        where, chosen = next(
            ((name, layer[name]) for name, layer in layers if _first(layer.get(name))),
            ("", None),
        )
    if chosen is None:
        return None
    try:
        value = float(chosen)
    except ValueError:
        value = float("nan")
    if not 0 < value < float("inf"):
        raise ConfigurationError(f"{where} must be a positive number, not {chosen!r}")
    return value


def _read_session(env: Mapping[str, str]) -> Mapping[str, object]:
    folder = _first(env.get("CLI_CONFIG_DIR"))
    path = Path(folder) if folder else Path.home() / ".cli"
    path = path / "credentials.json"
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigurationError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigurationError(f"{path} is not valid JSON; fix or remove it") from exc
    return data if isinstance(data, dict) else {}
