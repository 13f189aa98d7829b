"""The service CLI's rules, in the one place every command of ``cli`` uses them.

1. Targets: platform-env and cluster commands take a name bare or as ``--name`` (the flag wins;
   two bare names are refused); app commands take ``--app_name``, asked for at a terminal and
   named in the error without one (`add_target`, `target`, `add_app_name`, `app_name`).
2. Long flags only: a short flag is refused in one line (`short_flag`, read before argparse).
3. ``--json`` on every read prints the raw payload (`add_read`, `Invocation.show`).
4. ``--yes`` takes the defaults and never prompts; without a terminal nothing prompts, the
   command fails naming the flag to add (`Invocation.ask`, `Invocation.confirm`).
5. The organization: ``--org``, then ``CLI_ORG``, then the default ``cli setup`` stored, then a
   prompt at a terminal (`Invocation.org`).
6. Credentials, earlier wins, each setting on its own: ``--api-url``; the environment
   (``CLI_API_URL``, ``CLI_API_KEY``, then the library's ``ALTOSTRATUS_API_URL``,
   ``ALTOSTRATUS_API_KEY``); the session ``cli auth`` stores (``credentials.json``); the
   configuration ``cli setup`` stores (``config.json``), both in ``$CLI_CONFIG_DIR`` (default
   ``~/.cli``) (`resolve_credentials`).

Every failure is one line and exit status 1 (`command`); a declined confirmation is a success.
The files are written whole (a temporary file renamed over the old one), only once the
command's calls have succeeded (`write_file`).
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import getpass
import json
import os
import re
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from altostratus.cli._failure import fail, fail_with

if TYPE_CHECKING:
    from altostratus.client import Client

SESSION_FILE = "credentials.json"
CONFIG_FILE = "config.json"
_SHORT = re.compile(r"^-[^-\d.]")


class Refused(Exception):
    """An argument refused, or an answer the command may not ask for: one line, status 1."""


def short_flag(argv: Sequence[str]) -> str | None:
    """The first short flag of ``argv`` (``-j``), before any ``--``; None when there is none."""
    for token in argv:
        if token == "--":
            return None
        if _SHORT.match(token):
            return token
    return None


# The files.


def config_dir(environ: Mapping[str, str]) -> Path:
    """``$CLI_CONFIG_DIR``, or ``~/.cli``."""
    folder = environ.get("CLI_CONFIG_DIR", "").strip()
    return Path(folder) if folder else Path.home() / ".cli"


def read_file(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``; empty when there is no such file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise Refused(f"cannot read {path}: {error.strerror}") from None
    try:
        data = json.loads(text)
    except ValueError:
        raise Refused(f"{path} is not valid JSON; fix or remove it") from None
    if not isinstance(data, dict):
        raise Refused(f"{path} does not hold a JSON object; fix or remove it")
    return data


def write_file(path: Path, data: Mapping[str, Any]) -> None:
    """Replace ``path`` with ``data`` whole, readable by its owner only."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(dict(data), file, indent=2, sort_keys=True)
            file.write("\n")
        os.chmod(temporary, 0o600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def remove_file(path: Path) -> bool:
    """Remove ``path``; whether there was one."""
    try:
        path.unlink()
    except FileNotFoundError:
        return False
    return True


# Credentials.


@dataclass(frozen=True, repr=False)
class Credentials:
    """The API's address and key, and where each came from (``--api-url``, ``environment``,
    ``session``, ``configuration``, ``default``)."""

    api_url: str
    api_key: str = field(repr=False)
    url_from: str
    key_from: str

    def __repr__(self) -> str:
        return f"Credentials(api_url={self.api_url!r}, key from {self.key_from})"


def resolve_credentials(api_url: str | None, environ: Mapping[str, str]) -> Credentials:
    """Each setting from the earliest layer that sets it (see the module)."""
    from altostratus.client._settings import DEFAULT_API_URL

    folder = config_dir(environ)
    layers: list[tuple[str, Mapping[str, Any]]] = [
        ("--api-url", {"api_url": api_url}),
        (
            "environment",
            {
                "api_url": _first(environ.get("CLI_API_URL"), environ.get("ALTOSTRATUS_API_URL")),
                "api_key": _first(environ.get("CLI_API_KEY"), environ.get("ALTOSTRATUS_API_KEY")),
            },
        ),
        ("session", read_file(folder / SESSION_FILE)),
        ("configuration", read_file(folder / CONFIG_FILE)),
    ]
    url, url_from = _layered("api_url", layers) or (DEFAULT_API_URL, "default")
    key, key_from = _layered("api_key", layers) or ("", "nowhere")
    return Credentials(url, key, url_from, key_from)


def stored_org(environ: Mapping[str, str]) -> str | None:
    """The default organization ``cli setup`` stored."""
    return _first(read_file(config_dir(environ) / CONFIG_FILE).get("org"))


def _layered(name: str, layers: list[tuple[str, Mapping[str, Any]]]) -> tuple[str, str] | None:
    for where, values in layers:
        value = _first(values.get(name))
        if value is not None:
            return value, where
    return None


def _first(*values: object) -> str | None:
    for value in values:
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


NO_KEY = (
    "no API key: set CLI_API_KEY or ALTOSTRATUS_API_KEY (for the local emulator: export "
    "CLI_API_KEY=local-dev-key), log in with `cli auth` (credentials.json in $CLI_CONFIG_DIR, "
    "default ~/.cli), or store one with `cli setup --api-key KEY`"
)


# The flags every command of a kind declares.


def add_service_flags(parser: argparse.ArgumentParser, *, org: bool = True) -> None:
    """``--api-url`` and ``--yes`` on every command that calls the service; ``--org`` on those
    working in an organization."""
    parser.add_argument("--api-url", help="the API's base URL (default: as the credentials say)")
    if org:
        parser.add_argument(
            "--org", help="the organization (default: CLI_ORG, then the one `cli setup` stored)"
        )
    parser.add_argument(
        "--yes", action="store_true", help="take the defaults and confirm; never prompt"
    )


def add_read(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print the raw payload")


def add_target(parser: argparse.ArgumentParser, noun: str) -> None:
    """The target of a platform-env or cluster command: bare, or ``--name`` (which wins)."""
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"the {noun}'s name")
    parser.add_argument("--name", help=f"the {noun}'s name (wins over a bare name)")


def target(args: argparse.Namespace, noun: str) -> str:
    names: list[str] = list(args.names)
    if args.name:
        return str(args.name)
    if len(names) > 1:
        shown = ", ".join(names)
        raise Refused(f"{len(names)} names given ({shown}); give one {noun}, bare or as --name")
    if not names or not names[0].strip():
        raise Refused(f"which {noun}? give its name, bare or as --name")
    return names[0]


def add_app_name(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--app_name", metavar="APP", help="the application's name")


# One run of a command.


class Invocation:
    """What a command works with: its arguments, the environment, the terminal (whether it may
    prompt), the credentials and the organization."""

    def __init__(
        self,
        args: argparse.Namespace,
        environ: Mapping[str, str] | None = None,
        stdin: IO[str] | None = None,
    ) -> None:
        self.args = args
        self.environ = os.environ if environ is None else environ
        self.stdin = sys.stdin if stdin is None else stdin
        self.org_used: str | None = None

    @property
    def yes(self) -> bool:
        return bool(getattr(self.args, "yes", False))

    @property
    def interactive(self) -> bool:
        """Whether the command may prompt: at a terminal, without ``--yes``."""
        if self.yes:
            return False
        try:
            return self.stdin.isatty()
        except (AttributeError, ValueError):
            return False

    def ask(
        self, question: str, flag: str, *, secret: bool = False, default: str | None = None
    ) -> str:
        """The answer to ``question`` typed at the terminal (``default`` when left empty);
        with ``--yes``, ``default``; without a terminal, or with ``--yes`` and no default, a
        refusal naming ``flag``."""
        if self.yes and default is not None:
            return default
        if not self.interactive:
            why = "with --yes" if self.yes else "without a terminal"
            raise Refused(f"{question.rstrip(': ?').lower()} is needed: pass {flag} ({why})")
        shown = f"{question.rstrip(': ')} [{default}]: " if default is not None else question
        try:
            answer = getpass.getpass(shown) if secret else input(shown)
        except EOFError:
            answer = ""
        if not answer.strip() and default is not None:
            return default
        if not answer.strip():
            raise Refused(f"no answer given: pass {flag}")
        return answer.strip()

    def confirm(self, question: str) -> bool:
        """``--yes``: yes; at a terminal: the answer (no unless ``y`` or ``yes``); without a
        terminal: a refusal naming ``--yes``."""
        if self.yes:
            return True
        if not self.interactive:
            raise Refused(f"{question.rstrip(' ?')}: confirm with --yes (no terminal to ask at)")
        try:
            answer = input(f"{question} [y/N] ")
        except EOFError:
            answer = ""
        return answer.strip().lower() in ("y", "yes")

    def credentials(self) -> Credentials:
        return resolve_credentials(getattr(self.args, "api_url", None), self.environ)

    def org(self) -> str:
        """``--org``, ``CLI_ORG``, the stored default, or a prompt at a terminal."""
        org = _first(
            getattr(self.args, "org", None),
            self.environ.get("CLI_ORG"),
            stored_org(self.environ),
        )
        if org is None:
            if not self.interactive:
                raise Refused(
                    "no organization: pass --org, set CLI_ORG, or store a default with "
                    "`cli setup --org ORG`"
                )
            org = self.ask("Organization: ", "--org")
        self.org_used = org
        return org

    def app_name(self, default: str | None = None) -> str:
        """``--app_name``, or a prompt at a terminal (``default``, if any, with ``--yes``)."""
        name = _first(getattr(self.args, "app_name", None))
        if name is not None:
            return name
        return self.ask("Application name: ", "--app_name", default=default)

    def client(self, credentials: Credentials | None = None) -> Client:
        """A client of the API the credentials name; no key is a refusal saying how to set one."""
        from altostratus.client import Client

        credentials = credentials or self.credentials()
        if not credentials.api_key:
            raise Refused(NO_KEY)
        return Client(api_key=credentials.api_key, api_url=credentials.api_url, max_retries=2)

    def show(self, payload: Any, text: Callable[[Any], str]) -> None:
        """A read's answer: the raw payload with ``--json``, else ``text(payload)``."""
        if getattr(self.args, "json", False):
            print(json.dumps(payload, indent=2, sort_keys=True))
        else:
            print(text(payload))


Run = Callable[[Invocation], int]


def command(run: Run) -> Callable[[argparse.Namespace], int]:
    """``run`` as a command: a refusal or a failed call is one line and status 1; a 404 hints
    at the application's name and the organization when one was used."""

    @functools.wraps(run)
    def wrapped(args: argparse.Namespace) -> int:
        from altostratus.client.errors import AltostratusError

        invocation = Invocation(args)
        try:
            return run(invocation)
        except Refused as refusal:
            return fail(str(refusal))
        except AltostratusError as error:
            url = None
            with contextlib.suppress(Refused):
                url = invocation.credentials().api_url
            return fail_with(error, api_url=url, org=invocation.org_used)

    return wrapped


def columns(rows: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    """``rows`` as a table of ``names``; ``(none)`` for no row."""
    if not rows:
        return "(none)"
    cells = [[_cell(row.get(name)) for name in names] for row in rows]
    widths = [max(len(name), *(len(line[i]) for line in cells)) for i, name in enumerate(names)]
    lines = ["  ".join(name.ljust(w) for name, w in zip(names, widths, strict=True)).rstrip()]
    lines += [
        "  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip() for line in cells
    ]
    return "\n".join(lines)


def fields_text(record: Mapping[str, Any]) -> str:
    """One record as ``name: value`` lines."""
    width = max((len(name) for name in record), default=0)
    return "\n".join(f"{name:<{width}}  {_cell(value)}" for name, value in record.items())


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        return ",".join(_cell(item) for item in value) or "-"
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True)
    return str(value)
