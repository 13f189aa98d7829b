"""Where the API key, the API address and the region come from."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from altostratus.client.errors import ConfigurationError

DEFAULT_API_URL = "http://127.0.0.1:8787"
DEFAULT_REGION = "LON1"

_MISSING_KEY = (
    "no API key: pass api_key, run `pulumi config set --secret altostratus:apiKey <key>`, "
    "set ALTOSTRATUS_API_KEY or CLI_API_KEY, or store a session with `cli auth` "
    "(credentials.json in $CLI_CONFIG_DIR, default ~/.cli)"
)


@dataclass(frozen=True)
class Settings:
    """Resolved settings of a client. The key never appears in the repr."""

    api_key: str = field(repr=False)
    api_url: str
    region: str


def resolve_settings(
    api_key: str | None = None,
    api_url: str | None = None,
    region: str | None = None,
    *,
    stack_config: Mapping[str, str] | None = None,
    environ: Mapping[str, str] | None = None,
    require_key: bool = True,
) -> Settings:
    """Resolve each setting on its own; the earliest layer that sets it wins.

    1. the arguments;
    2. the Pulumi stack config: `altostratus:apiKey`, `altostratus:apiUrl`, `altostratus:region`;
    3. `ALTOSTRATUS_API_KEY`, `ALTOSTRATUS_API_URL`, `ALTOSTRATUS_REGION`;
    4. the service CLI's variables `CLI_API_KEY`, `CLI_API_URL`;
    5. the service CLI's session file `credentials.json` in `$CLI_CONFIG_DIR` (default `~/.cli`);
    6. defaults: the local emulator's address and region `LON1`.

    Empty values count as unset. Without a key, `ConfigurationError` names every way to set one,
    unless `require_key` is false (the key is then the empty string).
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
    return Settings(
        api_key=key or "",
        api_url=(url or DEFAULT_API_URL).rstrip("/"),
        region=region_code(chosen_region or DEFAULT_REGION),
    )


def region_code(region: str) -> str:
    """A region as the API names it (``lon1`` is ``LON1``): every layer that takes a region from
    a user (settings, calls, resource inputs, lookups) reads it through here."""
    return region.strip().upper()


def _first(*values: object) -> str | None:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


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
