"""Object store credentials: S3 key pairs, unique keys across the service, ownership of stores."""

from __future__ import annotations

import re
import string
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.errors import Conflict, in_use, invalid
from altostratus.emulator.reading.bodies import CredentialCreate, CredentialUpdate
from altostratus.emulator.state.base import Effects, Record, Store, entry, new_id
from altostratus.emulator.state.ids import random_text

_KEY = re.compile(r"^[A-Za-z0-9._-]{3,128}$")
"""A chosen access key (generated ones are 20 upper-case letters and digits)."""
_SECRET = re.compile(r"^[A-Za-z0-9/+=]{40}$")
DEFAULT_CREDENTIAL_SIZE_GB = 500


def _random(alphabet: str, length: int) -> str:
    return random_text(alphabet, length)


@dataclass
class Credential(Record):
    name: str
    access_key_id: str
    secret_access_key_id: str
    max_size_gb: int

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "access_key_id": self.access_key_id,
            "secret_access_key_id": self.secret_access_key_id,
            "max_size_gb": self.max_size_gb,
            "suspended": False,
            "status": "ready",
        }


class Credentials(Store[Credential, CredentialCreate, CredentialUpdate]):
    kind = "objectstore_credential"
    label = "object store credential"
    feature = "object_store"
    indexed = ("name", "access_key_id")

    def answer_inputs(self, record: Record) -> Hashable:
        return ()  # the answer shows the record's own fields only

    def seed_entry(self, credential: Credential) -> dict[str, Any]:
        return entry(
            credential,
            name=credential.name,
            access_key_id=credential.access_key_id,
            secret_access_key_id=credential.secret_access_key_id,
            max_size_gb=credential.max_size_gb,
        )

    def by_key(self, access_key_id: str) -> Credential | None:
        found = self.records.find("access_key_id", access_key_id)
        return found[0] if found else None

    def _check_key(self, access_key_id: str, exclude_id: str | None = None) -> None:
        if not _KEY.match(access_key_id):
            raise invalid(
                "access_key_id",
                "access_key_id must be 3 to 128 letters, digits, dots, hyphens or underscores",
            )
        holder = self.by_key(access_key_id)
        if holder is not None and holder.id != exclude_id:
            raise Conflict(
                "The access_key_id is already in use",
                "database_objectstore_credential_duplicate_access_key_id",
            )

    @staticmethod
    def _check_secret(secret: str) -> None:
        if not _SECRET.match(secret):
            raise invalid(
                "secret_access_key_id",
                "secret_access_key_id must be 40 letters, digits or the characters / + =",
            )

    def create(
        self, account_id: str, region: str, effects: Effects, fields: CredentialCreate
    ) -> Credential:
        """The key pair is made where ``access_key_id`` or ``secret_access_key_id`` is absent."""
        self.require_feature(region)
        name, access_key_id, secret = fields.name, fields.access_key_id, fields.secret_access_key_id
        max_size_gb = fields.max_size_gb
        self.check_name_free(account_id, region, name)
        if access_key_id is None:
            access_key_id = _random(string.ascii_uppercase + string.digits, 20)
            while self.by_key(access_key_id) is not None:
                access_key_id = _random(string.ascii_uppercase + string.digits, 20)
        self._check_key(access_key_id)
        if secret is None:
            secret = _random(string.ascii_letters + string.digits, 40)
        self._check_secret(secret)
        credential = Credential(
            id=new_id(),
            account_id=account_id,
            region=region,
            name=name,
            access_key_id=access_key_id,
            secret_access_key_id=secret,
            max_size_gb=DEFAULT_CREDENTIAL_SIZE_GB if max_size_gb is None else max_size_gb,
        )
        self.records[credential.id] = credential
        effects.emit(account_id, "objectstorecredential.created", credential.id)
        return credential

    def update(self, credential: Credential, effects: Effects, changes: CredentialUpdate) -> None:
        if changes.access_key_id is not None:
            self._check_key(changes.access_key_id, credential.id)
        if changes.secret_access_key_id is not None:
            self._check_secret(changes.secret_access_key_id)
        if changes.max_size_gb is not None:
            credential.max_size_gb = changes.max_size_gb
        if changes.access_key_id is not None:
            credential.access_key_id = changes.access_key_id
        if changes.secret_access_key_id is not None:
            credential.secret_access_key_id = changes.secret_access_key_id
        effects.emit(credential.account_id, "objectstorecredential.updated", credential.id)

    def check_delete(self, credential: Credential) -> None:
        owned = self.state.object_stores.records.find("owner_id", credential.id)
        if owned:
            raise in_use(
                "objectstore_credential",
                f"The credential still owns object store {owned[0].name!r} ({owned[0].id})",
            )

    def remove(self, credential: Credential, effects: Effects) -> None:
        del self.records[credential.id]
        effects.emit(credential.account_id, "objectstorecredential.deleted", credential.id)
