"""The account commands: ``setup``, ``auth`` (``--status``), ``logout``, ``whoami``, ``regions``
and ``update``. ``setup`` and ``auth`` write their file only once the key has been checked
against the service (``whoami``): a failure leaves the files as they were."""

from __future__ import annotations

import time
import webbrowser
from datetime import datetime, timezone
from typing import Any

from altostratus.cli._rules import (
    CONFIG_FILE,
    SESSION_FILE,
    Credentials,
    Invocation,
    Refused,
    add_read,
    add_service_flags,
    columns,
    command,
    config_dir,
    read_file,
    remove_file,
    write_file,
)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "setup",
        help="store the API URL, key and default organization",
        description=(
            "Check the key against the service, then store the API URL, the key and the default "
            "organization in config.json ($CLI_CONFIG_DIR, default ~/.cli). What is not given "
            "is asked for at a terminal; --yes takes the defaults (the URL in use, the key's "
            "first organization)."
        ),
    )
    add_service_flags(parser)
    parser.add_argument("--api-key", help="the API key (asked for, hidden, at a terminal)")
    parser.set_defaults(run=setup)

    parser = commands.add_parser(
        "auth",
        help="log in through the browser and store the session",
        description=(
            "Log in: open the page the service names, enter the code shown, and the session "
            "is stored in credentials.json ($CLI_CONFIG_DIR, default ~/.cli). --status reports "
            "whether the stored session is valid."
        ),
    )
    add_service_flags(parser, org=False)
    add_read(parser)
    parser.add_argument(
        "--status", action="store_true", help="report whether the session is valid; log in not"
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="print the page to open; do not open it"
    )
    parser.set_defaults(run=auth)

    parser = commands.add_parser("logout", help="forget the browser session")
    parser.set_defaults(run=logout)

    parser = commands.add_parser("whoami", help="show the identity, roles and organizations")
    add_read(parser)
    add_service_flags(parser, org=False)
    parser.set_defaults(run=whoami)

    parser = commands.add_parser("regions", help="the regions an application can deploy to")
    add_read(parser)
    add_service_flags(parser, org=False)
    parser.set_defaults(run=regions)

    parser = commands.add_parser(
        "update",
        help="print the commands that refresh a cached MCP server (changes nothing)",
    )
    parser.set_defaults(run=update)


@command
def setup(invocation: Invocation) -> int:
    args = invocation.args
    found = invocation.credentials()
    url = args.api_url or invocation.ask("API URL: ", "--api-url", default=found.api_url)
    key = args.api_key or invocation.ask("API key: ", "--api-key", secret=True)
    checked = Credentials(url, key, "setup", "setup")
    with invocation.client(checked) as client:
        identity = client.account.whoami()
    names = [org.name for org in identity.organizations]
    org = args.org or invocation.ask(
        "Default organization: ", "--org", default=names[0] if names else None
    )
    if org not in names:
        raise Refused(f"the key belongs to no organization {org!r}: it has {', '.join(names)}")
    path = config_dir(invocation.environ) / CONFIG_FILE
    write_file(path, {"api_url": client.settings.api_url, "api_key": key, "org": org})
    print(f"Stored the API URL, the key of {identity.email} and the organization {org} in {path}.")
    return 0


@command
def auth(invocation: Invocation) -> int:
    if invocation.args.status:
        return _status(invocation)
    from altostratus.client import Client
    from altostratus.client.errors import BadRequestError

    url = invocation.credentials().api_url
    with Client(api_url=url, require_key=False, max_retries=2) as client:
        login = client.login.start()
        page = login.verification_uri_complete or login.verification_uri
        print(f"Open {page} and enter the code {login.user_code} to log in.", flush=True)
        if invocation.interactive and not invocation.args.no_browser:
            webbrowser.open(page)
        ends = time.monotonic() + login.expires_in
        while True:
            try:
                session = client.login.session(login.device_code)
                break
            except BadRequestError as error:
                if error.code != "authorization_pending" or time.monotonic() >= ends:
                    raise Refused(f"the login did not complete: {error.reason}") from None
            time.sleep(max(login.interval, 1))
        api_url = client.settings.api_url
    path = config_dir(invocation.environ) / SESSION_FILE
    stored = {
        "api_url": api_url,
        "api_key": session.api_key,
        "org": session.organization,
        "email": session.email,
        "logged_in_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
    }
    write_file(path, {k: v for k, v in stored.items() if v is not None})
    print(f"Logged in as {session.email} ({session.organization}); the session is in {path}.")
    return 0


def _status(invocation: Invocation) -> int:
    path = config_dir(invocation.environ) / SESSION_FILE
    session = read_file(path)
    if not session.get("api_key"):
        raise Refused(f"not logged in (no session in {path}): log in with `cli auth`")
    url = str(session.get("api_url") or invocation.credentials().api_url)
    stored = Credentials(url, str(session["api_key"]), "session", "session")
    with invocation.client(stored) as client:
        identity = client.account.whoami()
    payload = identity.model_dump(mode="json", exclude_none=True)
    invocation.show(payload, lambda _: f"The session is valid: {identity.email} at {url}.")
    return 0


@command
def logout(invocation: Invocation) -> int:
    path = config_dir(invocation.environ) / SESSION_FILE
    if remove_file(path):
        print(f"Forgot the session ({path} removed).")
    else:
        print("No session to forget.")
    return 0


@command
def whoami(invocation: Invocation) -> int:
    with invocation.client() as client:
        identity = client.account.whoami()
    payload = identity.model_dump(mode="json", exclude_none=True)

    def text(_: Any) -> str:
        orgs = ", ".join(f"{o.name} ({o.role})" for o in identity.organizations) or "none"
        return "\n".join(
            [
                f"email          {identity.email}",
                f"roles          {', '.join(identity.roles) or 'none'}",
                f"organizations  {orgs}",
            ]
        )

    invocation.show(payload, text)
    return 0


@command
def regions(invocation: Invocation) -> int:
    with invocation.client() as client:
        found = [r.model_dump(mode="json", exclude_none=True) for r in client.regions.list()]
    invocation.show(found, lambda rows: columns(rows, ("code", "name", "country", "default")))
    return 0


#: What ``cli update`` prints: the MCP server runs from the package, so refreshing the package
#: (or the cache a runner keeps of it) refreshes the server.
UPDATE_COMMANDS = (
    "python -m pip install --upgrade 'altostratus[cli]'",
    "uvx --refresh --from 'altostratus[cli]' cli mcp",
    "pipx upgrade altostratus",
)


@command
def update(invocation: Invocation) -> int:
    print("# Refresh the package the MCP server (cli mcp) runs from; use the line for your setup:")
    for line in UPDATE_COMMANDS:
        print(line)
    print("# Then restart the MCP client so that it starts the server again.")
    return 0
