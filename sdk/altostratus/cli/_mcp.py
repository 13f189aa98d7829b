"""``cli mcp``: a read-only MCP server over stdio (the official ``mcp`` SDK, extra ``cli``).

Its tools are the command line's reads, each a call of the client's (`TOOLS`); none changes
anything. It calls the API with an MCP key, from ``CLI_MCP_KEY`` (an MCP client passes it in its
server entry's ``env``), never with the session's or the stored key; the key is checked once
(``whoami``) before the server answers, so a wrong one ends the command in one line. The
organization of the tools that work in one is their ``org`` argument, else the rules' (``--org``,
``CLI_ORG``, the stored default); nothing prompts, standard input being the protocol's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from altostratus.cli._rules import Credentials, Invocation, Refused, add_service_flags, command

if TYPE_CHECKING:
    from altostratus.client import Client

NO_MCP_KEY = (
    "no MCP key: set CLI_MCP_KEY to an MCP key from the API keys page (for the local "
    "emulator, its API key: export CLI_MCP_KEY=local-dev-key)"
)
NO_SDK = "the MCP server needs the mcp package: pip install 'altostratus[cli]'"


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "mcp",
        help="start a read-only MCP server over stdio (key: CLI_MCP_KEY)",
        description=(
            "Serve the command line's reads as MCP tools over stdio, authenticated with the MCP "
            "key in CLI_MCP_KEY. Needs the cli extra (pip install 'altostratus[cli]')."
        ),
    )
    add_service_flags(parser)
    parser.set_defaults(run=run)


def _dump(value: Any) -> Any:
    if isinstance(value, list):
        return [_dump(item) for item in value]
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json", exclude_none=True)
    return value


Read = Callable[..., Any]


def tools(client: Client, org: Callable[[str | None], str]) -> dict[str, tuple[str, Read]]:
    """Each tool's name, description and call; ``org(given)`` resolves an organization."""

    def in_org(call: Callable[..., Any]) -> Read:
        def read(org_name: str | None = None) -> Any:
            return call(org(org_name))

        return read

    def named(call: Callable[..., Any]) -> Read:
        def read(name: str, org_name: str | None = None) -> Any:
            return call(org(org_name), name)

        return read

    return {
        "whoami": ("The key's identity, roles and organizations", client.account.whoami),
        "quota": ("The account's limits and usage", client.quota.get),
        "regions": ("The service's regions", client.regions.list),
        "environments": (
            "The organization's application-hosting environments",
            in_org(client.app_environments.list),
        ),
        "app_list": ("The organization's applications", in_org(client.apps.list)),
        "app_status": (
            "An application's phase, URL, image and recent builds",
            named(client.apps.get),
        ),
        "app_logs": (
            "An application's runtime logs so far",
            named(lambda o, n: client.apps.logs(o, n)),
        ),
        "app_build_logs": (
            "An application's latest build's logs so far",
            named(lambda o, n: client.apps.logs(o, n, build=True)),
        ),
        "app_env_list": ("An application's variables", named(client.apps.variables)),
        "platform_env_list": (
            "The platform environments of the key's organization",
            client.platform_environments.list,
        ),
        "platform_env_get": ("A platform environment", named(client.platform_environments.get)),
        "cluster_list": ("The organization's managed clusters", in_org(client.clusters.list)),
        "platform_app_list": (
            "The organization's platform applications",
            in_org(client.platform_applications.list),
        ),
        "platform_app_get": ("A platform application", named(client.platform_applications.get)),
        "platform_app_deployment_list": (
            "The deployments of the platform applications",
            in_org(client.application_deployments.list),
        ),
        "platform_app_deployment_get": (
            "A platform application's deployment",
            named(client.application_deployments.get),
        ),
    }


@command
def run(invocation: Invocation) -> int:
    try:
        import anyio
        from mcp.server import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:
        raise Refused(NO_SDK) from None
    key = invocation.environ.get("CLI_MCP_KEY", "").strip()
    if not key:
        raise Refused(NO_MCP_KEY)
    url = invocation.credentials().api_url
    with invocation.client(Credentials(url, key, "CLI_MCP_KEY", "CLI_MCP_KEY")) as client:
        client.account.whoami()  # a wrong key ends here, in one line

        def org(given: str | None) -> str:
            if given:
                return given
            try:
                return invocation.org()
            except Refused as refusal:
                raise ToolError(f"{refusal}; or give the tool's org_name") from None

        server: MCPServer[Any] = MCPServer(
            "altostratus",
            instructions="Read-only tools over the service's API: nothing here changes anything.",
        )
        for name, (description, read) in tools(client, org).items():
            server.add_tool(_tool(read, anyio, ToolError), name=name, description=description)
        server.run("stdio")
    return 0


def _tool(read: Read, anyio: Any, failed: type[Exception]) -> Callable[..., Any]:
    """``read`` as an MCP tool: run in a worker thread (the client blocks), answering the raw
    payload as JSON text; a failed call is the tool's error, in the client's one line."""
    import inspect

    async def tool(**arguments: Any) -> str:
        from altostratus.client.errors import AltostratusError

        try:
            found = await anyio.to_thread.run_sync(lambda: read(**arguments))
        except AltostratusError as error:
            raise failed(str(error)) from None
        return json.dumps(_dump(found), indent=2, sort_keys=True)

    tool.__signature__ = inspect.signature(read).replace(  # type: ignore[attr-defined]
        return_annotation=str
    )
    return tool
