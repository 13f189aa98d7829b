"""The names users of the bridged provider know, taken by the resources' constructors."""

from __future__ import annotations

from collections.abc import Callable

import pulumi
import pytest

import altostratus as alto
from altostratus.client import Client
from altostratus.testing import Stack

SECRET = "abcdefghijklmnopqrstuvwxyz0123456789ABCD"


def test_a_credentials_secret_given_as_secret_access_key(
    make_stack: Callable[..., Stack], client: Client
) -> None:
    def program() -> None:
        alto.ObjectStoreCredential(
            "ci",
            name="ci",
            access_key_id="my-access-key",
            secret_access_key=pulumi.Output.secret(SECRET),
        )

    make_stack(program).up()
    (credential,) = client.object_store_credentials.list()
    assert (credential.access_key_id, credential.secret_access_key) == ("my-access-key", SECRET)


def test_both_names_at_once_are_refused() -> None:
    with pytest.raises(TypeError, match="secret_access_key is another name"):
        alto.ObjectStoreCredential("ci", secret_access_key_id=SECRET, secret_access_key=SECRET)
