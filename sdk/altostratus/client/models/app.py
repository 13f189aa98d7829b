"""The records of the command line's own ``/api/v1`` calls: the key's identity, ``cli auth``'s
device login, the applications of ``cli deploy`` and their hosting environments. The spec shows
none of them; the fields are the product's decision (docs/command-line-client.md). Fields the
service adds are kept (``model_extra``), so ``--json`` prints what was answered."""

from __future__ import annotations

from pydantic import ConfigDict

from altostratus.client.models._base import ResponseModel


class _Kept(ResponseModel):
    model_config = ConfigDict(extra="allow", coerce_numbers_to_str=True)


class Organization(_Kept):
    name: str
    role: str | None = None


class Identity(_Kept):
    """Who the key is: its user, roles and organizations."""

    id: str
    email: str | None = None
    account_id: str | None = None
    roles: list[str] = []
    organizations: list[Organization] = []


class DeviceLogin(_Kept):
    """A login started: the code to show, the page to open, how often to ask for the session."""

    device_code: str
    user_code: str
    verification_uri: str
    verification_uri_complete: str | None = None
    expires_in: int = 600
    interval: int = 5


class LoginSession(_Kept):
    """A login approved: the key to call with, and the organization and user it is."""

    api_key: str
    organization: str | None = None
    email: str | None = None


class AppBuild(_Kept):
    number: int
    started_at: str | None = None
    reason: str | None = None
    status: str | None = None


class App(_Kept):
    """An application: ``phase`` is ``building``, ``deploying`` or ``running``."""

    name: str
    id: str | None = None
    organization: str | None = None
    environment: str | None = None
    runtime: str | None = None
    phase: str | None = None
    url: str | None = None
    image: str | None = None
    builds: list[AppBuild] = []
    created_at: str | None = None


class LogLine(_Kept):
    at: str
    message: str
    stream: str | None = None


class AppEnvironment(_Kept):
    """A hosting environment; ``built_in`` for the organization's ``default``."""

    name: str
    organization: str | None = None
    region: str | None = None
    cluster: str | None = None
    built_in: bool = False
    created_at: str | None = None
