"""``altostratus quota``: the account's limits and usage."""

from __future__ import annotations

import argparse
import json
from typing import Any

from altostratus.cli._failure import NO_KEY, fail, fail_with


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "quota",
        help="show the account's quota: limits and usage",
        description=(
            "Show the account's quota. Credentials resolve as the client's do: "
            "ALTOSTRATUS_API_KEY, CLI_API_KEY, then the service CLI's credentials.json."
        ),
    )
    parser.add_argument("--json", action="store_true", help="print the raw payload")
    parser.add_argument("--api-url", help="the API's base URL (default: as configured)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    # The client (httpx, pydantic) is imported here, not with the CLI: the other commands,
    # the emulator's above all, start without it.
    from altostratus.client import Client, resolve_settings
    from altostratus.client.errors import AltostratusError

    try:
        settings = resolve_settings(api_url=args.api_url, require_key=False)
    except AltostratusError as error:
        return fail_with(error)
    if not settings.api_key:
        return fail(NO_KEY)
    try:
        with Client(api_url=settings.api_url, max_retries=2) as client:
            quota = client.quota.get()
    except AltostratusError as error:
        return fail_with(error, api_url=settings.api_url)
    payload = quota.model_dump(mode="json", exclude_none=True)
    if args.json:
        print(json.dumps(payload, indent=2, sort_keys=True))
        return 0
    print(format_table(payload))
    return 0


def format_table(payload: dict[str, Any]) -> str:
    """Rows of ``<name> limit usage`` for every ``<name>_limit``/``<name>_usage`` pair."""
    names = sorted(key[: -len("_limit")] for key in payload if key.endswith("_limit"))
    width = max([len("resource"), *(len(name) for name in names)])
    lines = [f"{'resource':<{width}}  {'usage':>7}  {'limit':>7}"]
    for name in names:
        usage = payload.get(f"{name}_usage", "")
        lines.append(f"{name:<{width}}  {usage!s:>7}  {payload[f'{name}_limit']!s:>7}")
    return "\n".join(lines)
