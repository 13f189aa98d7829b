"""``cli quota``: the account's plan, allowance and usage."""

from __future__ import annotations

from typing import Any

from altostratus.cli._rules import Invocation, add_read, add_service_flags, command


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "quota",
        help="show the account's quota: limits and usage",
        description=(
            "Show the account's quota: each limit and its usage. Credentials resolve in the "
            "CLI's layers: --api-url, the environment (CLI_API_URL, CLI_API_KEY), the session "
            "of `cli auth`, the configuration of `cli setup`."
        ),
    )
    add_read(parser)
    add_service_flags(parser, org=False)
    parser.set_defaults(run=run)


@command
def run(invocation: Invocation) -> int:
    with invocation.client() as client:
        quota = client.quota.get()
    invocation.show(quota.model_dump(mode="json", exclude_none=True), format_table)
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
