"""/v2/objectstore/credentials (note the singular ``objectstore``)."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.call import SUCCESS, Call, RouteTable
from altostratus.emulator.params import page_params
from altostratus.emulator.routes.object_stores import SIZE
from altostratus.emulator.state.credentials import Credential

ROUTES = RouteTable()


def _credential(call: Call, credential_id: str) -> Credential:
    return call.state.credentials.get(call.account_id, call.region, credential_id)


@ROUTES.add("GET", "/objectstore/credentials", "List credentials", "CredentialPage", paged=True)
def list_credentials(call: Call) -> dict[str, Any]:
    page, per_page = page_params(call.query)
    credentials = call.state.credentials
    return credentials.page(call.account_id, call.region, page, per_page, lambda c: c.describe())


@ROUTES.add("GET", "/objectstore/credentials/{id}", "Retrieve a credential", "Credential")
def get_credential(call: Call, credential_id: str) -> dict[str, Any]:
    return _credential(call, credential_id).describe()


@ROUTES.add(
    "POST", "/objectstore/credentials", "Create a credential", "Credential", "CredentialCreate"
)
def create_credential(call: Call) -> dict[str, Any]:
    fields = {
        "name": call.params.required_text("name"),
        "access_key_id": call.params.text("access_key_id", allow_empty=False),
        "secret_access_key_id": call.params.text("secret_access_key_id", allow_empty=False),
        "max_size_gb": call.params.integer("max_size_gb", **SIZE),
    }
    credentials = call.state.credentials
    credential = credentials.create(call.account_id, call.region, call.effects, fields)
    return credential.describe()


@ROUTES.add(
    "PATCH",
    "/objectstore/credentials/{id}",
    "Update a credential",
    "Credential",
    "CredentialUpdate",
)
def update_credential(call: Call, credential_id: str) -> dict[str, Any]:
    changes: dict[str, Any] = {}
    max_size_gb = call.params.integer("max_size_gb", **SIZE)
    if max_size_gb is not None:
        changes["max_size_gb"] = max_size_gb
    for name in ("access_key_id", "secret_access_key_id"):
        value = call.params.text(name, allow_empty=False)
        if value is not None:
            changes[name] = value
    credential = _credential(call, credential_id)
    call.state.credentials.update(credential, call.effects, changes)
    return credential.describe()


@ROUTES.add("DELETE", "/objectstore/credentials/{id}", "Delete a credential", "Result")
def delete_credential(call: Call, credential_id: str) -> dict[str, Any]:
    call.state.credentials.delete(_credential(call, credential_id), call.effects)
    return dict(SUCCESS)
