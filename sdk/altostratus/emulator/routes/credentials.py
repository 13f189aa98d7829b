"""/v2/objectstore/credentials (note the singular ``objectstore``)."""

from __future__ import annotations

from typing import Any

from altostratus.emulator.reading.bodies import CredentialCreate, CredentialUpdate
from altostratus.emulator.reading.params import page_params
from altostratus.emulator.routes.call import SUCCESS, Call, RouteTable
from altostratus.emulator.state.base import Encoded
from altostratus.emulator.state.credentials import Credential

ROUTES = RouteTable()


def _credential(call: Call, credential_id: str) -> Credential:
    return call.state.credentials.get(call.account_id, call.region, credential_id)


@ROUTES.add("GET", "/objectstore/credentials", "List credentials", "CredentialPage", paged=True)
def list_credentials(call: Call) -> Encoded:
    page, per_page = page_params(call.query)
    return call.state.credentials.page(call.account_id, call.region, page, per_page)


@ROUTES.add("GET", "/objectstore/credentials/{id}", "Retrieve a credential", "Credential")
def get_credential(call: Call, credential_id: str) -> Encoded:
    return call.state.credentials.answer(_credential(call, credential_id))


@ROUTES.add(
    "POST", "/objectstore/credentials", "Create a credential", "Credential", CredentialCreate
)
def create_credential(call: Call, fields: CredentialCreate) -> dict[str, Any]:
    credentials = call.state.credentials
    credential = credentials.create(call.account_id, call.region, call.effects, fields)
    return credential.describe()


@ROUTES.add(
    "PATCH",
    "/objectstore/credentials/{id}",
    "Update a credential",
    "Credential",
    CredentialUpdate,
)
def update_credential(call: Call, credential_id: str, changes: CredentialUpdate) -> dict[str, Any]:
    credential = _credential(call, credential_id)
    call.state.credentials.update(credential, call.effects, changes)
    return credential.describe()


@ROUTES.add("DELETE", "/objectstore/credentials/{id}", "Delete a credential", "Result")
def delete_credential(call: Call, credential_id: str) -> dict[str, Any]:
    call.state.credentials.delete(_credential(call, credential_id), call.effects)
    return dict(SUCCESS)
