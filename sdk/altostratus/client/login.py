from __future__ import annotations

from altostratus.client._collection import Collection, fields
from altostratus.client.models import DeviceLogin, LoginSession


class LoginAPI(Collection):
    """``cli auth``'s device login (``/api/v1/auth``): calls that need no key; no region."""

    _regional = False

    def start(self) -> DeviceLogin:
        return self._one(DeviceLogin, "POST", "/api/v1/auth/device", body={})

    def session(self, device_code: str) -> LoginSession:
        """The session once the login is approved; a `BadRequestError` with the code
        ``authorization_pending`` before, ``expired_token`` after it expired."""
        body = fields(device_code=device_code)
        return self._one(LoginSession, "POST", "/api/v1/auth/token", body=body)
