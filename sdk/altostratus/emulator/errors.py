"""The emulator's errors, each carrying the answer the service gives for it.

::

    EmulatorError (status, code, reason)
     ├── BadRequest            400  parameter_<name>_invalid / _missing, region_unavailable,
     │                              region_feature_unavailable
     ├── Unauthorized          401  authentication_invalid_key (no key), database_account_not_found
     ├── Forbidden             403  quota_limit_reached, admin calls from elsewhere than loopback
     ├── NotFound              404  database_<kind>_not_found, not_found
     ├── MethodNotAllowed      405  method_not_allowed
     ├── Conflict              409  database_<kind>_duplicate_name, _inuse, _deleting, ...
     ├── UnsupportedMediaType  415  unsupported_media_type
     ├── RateLimited           429  rate_limited (with retry_after seconds)
     └── InjectedFault         any  a fault asked for through the admin endpoints

Handlers raise them; the application turns each into the one error body
``{"result": "failed", "code": ..., "reason": ...}``.
"""

from __future__ import annotations


class EmulatorError(Exception):
    status = 500
    default_code = "internal_error"

    def __init__(self, reason: str, code: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code or self.default_code
        self.headers: dict[str, str] = {}

    def body(self) -> dict[str, str]:
        return {"result": "failed", "code": self.code, "reason": self.reason}


class BadRequest(EmulatorError):
    status = 400
    default_code = "bad_request"


class Unauthorized(EmulatorError):
    status = 401
    default_code = "authentication_invalid_key"


class Forbidden(EmulatorError):
    status = 403
    default_code = "forbidden"


class NotFound(EmulatorError):
    status = 404
    default_code = "not_found"


class MethodNotAllowed(EmulatorError):
    status = 405
    default_code = "method_not_allowed"

    def __init__(self, reason: str, allowed: list[str]) -> None:
        super().__init__(reason)
        self.headers["Allow"] = ", ".join(allowed)


class Conflict(EmulatorError):
    status = 409
    default_code = "conflict"


class PayloadTooLarge(EmulatorError):
    status = 413
    default_code = "request_too_large"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.headers["Connection"] = "close"  # the body was not read: the connection ends


class UnsupportedMediaType(EmulatorError):
    status = 415
    default_code = "unsupported_media_type"


class RateLimited(EmulatorError):
    status = 429
    default_code = "rate_limited"

    def __init__(self, reason: str, retry_after: int) -> None:
        super().__init__(reason)
        self.headers["Retry-After"] = str(retry_after)


class InjectedFault(EmulatorError):
    def __init__(self, status: int, retry_after: int | None = None) -> None:
        code = {429: "rate_limited", 401: "authentication_invalid_key"}.get(status)
        if code is None:
            code = "internal_error" if status >= 500 else "injected_fault"
        super().__init__(f"Injected fault: the emulator was told to answer {status}", code)
        self.status = status
        if retry_after is not None:
            self.headers["Retry-After"] = str(retry_after)


def invalid(name: str, reason: str) -> BadRequest:
    """A parameter that is present but malformed or not allowed."""
    return BadRequest(reason, f"parameter_{name}_invalid")


def missing(name: str) -> BadRequest:
    return BadRequest(f"The parameter {name} is required", f"parameter_{name}_missing")


def feature_unavailable(label: str, region: str, feature: str) -> BadRequest:
    """A create of a kind the region's ``features`` do not offer, worded as the CLI refuses it."""
    return BadRequest(
        f"You can't create {_article(label)} {label} in the {region} region: "
        f"it does not offer {feature}",
        "region_feature_unavailable",
    )


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def not_found(kind: str, label: str) -> NotFound:
    """``kind`` is the code's word (``firewall_rule``), ``label`` the reader's."""
    return NotFound(f"The {label} was not found", f"database_{kind}_not_found")


def duplicate_name(kind: str, label: str, name: str) -> Conflict:
    return Conflict(
        f"A {label} named {name!r} already exists in this region",
        f"database_{kind}_duplicate_name",
    )


def in_use(kind: str, reason: str) -> Conflict:
    return Conflict(reason, f"database_{kind}_inuse")


def being_deleted(kind: str, label: str) -> Conflict:
    """A change to, or a reference to, a record whose deletion is under way."""
    return Conflict(f"The {label} is being deleted", f"database_{kind}_deleting")
