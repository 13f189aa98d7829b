"""Nobody gets in: no key or a wrong key is refused everywhere, accounts cannot reach each
other's resources, and S3 takes only requests signed by the store's owning credential."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Callable
from functools import partial
from typing import Any

import boto3
import pytest
from botocore.config import Config
from botocore.exceptions import ClientError

from altostratus.client import Client
from altostratus.client.models import ObjectStoreCredential
from altostratus.emulator import Emulator
from altostratus.emulator.openapi import document

from .raw_http import Http

BACKEND = {"ip": "10.90.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
OPERATIONS = [
    (method.upper(), path)
    for path, operations in document()["paths"].items()
    for method in operations
]
BODIES: dict[tuple[str, str], dict[str, Any]] = {
    ("PUT", "/networks/{id}"): {"label": "taken"},
    ("PUT", "/firewalls/{id}"): {"name": "taken"},
    ("POST", "/firewalls/{firewall_id}/rules"): {"protocol": "tcp", "start_port": "22"},
    ("PUT", "/firewalls/{firewall_id}/rules/{rule_id}"): {"label": "taken"},
    ("PUT", "/loadbalancers/{id}"): {"name": "taken"},
    ("PUT", "/ips/{id}"): {"name": "taken"},
    ("POST", "/ips/{id}/actions"): {"action": "unassign"},
    ("PATCH", "/objectstores/{id}"): {"max_size_gb": 5},
    ("PATCH", "/objectstore/credentials/{id}"): {"max_size_gb": 5},
    ("PUT", "/webhooks/{id}"): {"url": "https://elsewhere.example/"},
    ("POST", "/webhooks/{id}/test"): {},
    ("PUT", "/api/v1/apps/{org}/{name}/env"): {"vars": {"TAKEN": "1"}},
}
"""A valid body for every operation on one record, so that only the account can refuse it."""


def shape(path: str) -> str:
    return re.sub(r"^/v2(/vpc)?", "", path)


def build(api: Client, emulator: Emulator) -> dict[str, str]:
    """One record of each kind, provisioned; returns their ids by path parameter and
    collection."""
    network = api.networks.create(label="mine", cidr_v4="10.90.0.0/24")
    firewall = api.firewalls.create(name="mine", network_id=network.id)
    rule = api.firewall_rules.create(firewall.id, protocol="tcp", start_port="22")
    balancer = api.load_balancers.create(name="mine", network_id=network.id, backends=[BACKEND])
    credential = api.object_store_credentials.create(name="mine")
    ids = {
        "networks": network.id,
        "firewalls": firewall.id,
        "firewall_id": firewall.id,
        "rule_id": rule.id,
        "loadbalancers": balancer.id,
        "ips": api.reserved_ips.create(name="mine").id,
        "credentials": credential.id,
        "objectstores": api.object_stores.create(
            name="mine", access_key_id=credential.access_key_id
        ).id,
        "webhooks": api.webhooks.create(url="https://hooks.example.com/mine").id,
        # The /api/v1 records live in the organization's namespace, by name.
        "ns": "default",
        "org": "default",
        "name": "mine",
    }
    api.platform_environments.create("default", "mine", clusters=["lon1-managed"])
    api.platform_applications.register("default", "mine", repository="https://example.com/m.git")
    api.application_deployments.deploy("default", "mine", environment="mine")
    api.app_environments.create("default", "mine")
    api.apps.deploy("default", "mine", runtime="go", digest="ab" * 32, environment="mine")
    emulator.advance_clock(60)
    return ids


def concrete(path: str, ids: dict[str, str]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name != "id":
            return ids[name]
        collection = path[: match.start()].rstrip("/").rsplit("/", 1)[-1]
        return ids[collection]

    return re.sub(r"{(\w+)}", fill, path)


def snapshot(api: Client) -> str:
    """Everything the account has, as text, to compare before and after."""
    firewalls = api.firewalls.list()
    parts: list[Any] = [
        api.networks.list(),
        firewalls,
        [api.firewall_rules.list(f.id) for f in firewalls],
        api.load_balancers.list(),
        api.reserved_ips.list(),
        api.object_store_credentials.list(),
        api.object_stores.list(),
        api.webhooks.list(),
        api.platform_environments.list(),
        api.platform_applications.list("default"),
        api.application_deployments.list("default"),
        api.app_environments.list("default"),
        api.apps.list("default"),
        api.apps.variables("default", "mine"),
    ]
    return repr(parts)


@pytest.mark.parametrize("key", [None, "sk-not-a-key", ""], ids=["missing", "wrong", "empty"])
def test_every_endpoint_refuses_a_missing_or_wrong_key(
    key: str | None, client: Client, fresh_emulator: Emulator
) -> None:
    ids = build(client, fresh_emulator)
    before = snapshot(client)
    http = Http(fresh_emulator.api_url, key)
    for method, path in OPERATIONS:
        body = BODIES.get((method, shape(path)), {"name": "x"}) if method != "GET" else None
        status, answer = http.call(method, concrete(path, ids), body)
        assert status == 401, (method, path, status, answer)
        code = "database_account_not_found" if key else "authentication_invalid_key"
        assert answer["code"] == code, (method, path, answer)
    assert snapshot(client) == before


def test_a_key_in_another_scheme_is_refused(client: Client, fresh_emulator: Emulator) -> None:
    http = Http(fresh_emulator.api_url, None)
    for header in (f"Basic {fresh_emulator.api_key}", fresh_emulator.api_key, "bearer"):
        status, _ = http.call("GET", "/v2/quota", headers={"Authorization": header})
        assert status == 401, header


def test_one_account_cannot_read_change_or_delete_anothers_resources(
    client: Client, fresh_emulator: Emulator
) -> None:
    ids = build(client, fresh_emulator)
    before = snapshot(client)
    other = fresh_emulator.add_account("other")
    http = Http(fresh_emulator.api_url, other["api_key"])
    tried = set()
    for method, path in OPERATIONS:
        if "{" not in path:
            continue
        body = BODIES.get((method, shape(path))) if method != "GET" else None
        status, answer = http.call(method, concrete(path, ids), body)
        assert status == 404, (method, path, status, answer)
        assert answer["code"].endswith("not_found"), (method, path, answer)
        tried.add((method, shape(path)))
    assert {k for k in BODIES} <= tried
    assert snapshot(client) == before
    with Client(api_key=other["api_key"], api_url=fresh_emulator.api_url) as theirs:
        assert [n for n in theirs.networks.list() if not n.default] == []
        assert theirs.webhooks.list() == [] and theirs.object_stores.list() == []
        status, answer = http.call(
            "POST", "/v2/vpc/firewalls", {"name": "sneaky", "network_id": ids["networks"]}
        )
        assert status == 404, answer
        ip = theirs.reserved_ips.create(name="theirs")
        status, answer = http.call(
            "POST",
            f"/v2/vpc/ips/{ip.id}/actions",
            {"action": "assign", "assign_to_id": ids["loadbalancers"]},
        )
        assert status == 404, answer
        key = client.object_store_credentials.get(ids["credentials"]).access_key_id
        status, answer = http.call("POST", "/v2/objectstores", {"name": "x", "access_key_id": key})
        assert status == 400, answer


def s3(emulator: Emulator, key_id: str, secret: str) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=emulator.s3_url,
        region_name="us-east-1",
        aws_access_key_id=key_id,
        aws_secret_access_key=secret,
        config=Config(
            s3={"addressing_style": "path"}, signature_version="s3v4", retries={"max_attempts": 1}
        ),
    )


def s3_of(emulator: Emulator, credential: ObjectStoreCredential) -> Any:
    assert credential.access_key_id and credential.secret_access_key_id
    return s3(emulator, credential.access_key_id, credential.secret_access_key_id)


def refused(call: Callable[[], Any]) -> str:
    with pytest.raises(ClientError) as error:
        call()
    status = error.value.response["ResponseMetadata"]["HTTPStatusCode"]
    assert status == 403, error.value.response
    return str(error.value.response["Error"]["Code"])


def owned_store(api: Client) -> tuple[ObjectStoreCredential, ObjectStoreCredential, str]:
    """An owner credential, a sibling credential of the same account, and the bucket of a store
    the owner owns."""
    owner = api.object_store_credentials.create(name="owner")
    sibling = api.object_store_credentials.create(name="sibling")
    store = api.object_stores.create(name="vault", access_key_id=owner.access_key_id)
    return owner, sibling, (store.objectstore_endpoint or "").rsplit("/", 1)[-1]


def test_s3_takes_only_requests_signed_by_the_owning_credential(
    client: Client, fresh_emulator: Emulator
) -> None:
    emulator = fresh_emulator
    owner, sibling, bucket = owned_store(client)
    s3_of(emulator, owner).put_object(Bucket=bucket, Key="plans.txt", Body=b"top secret")
    other = emulator.add_account("other")
    with Client(api_key=other["api_key"], api_url=emulator.api_url) as theirs:
        stranger = theirs.object_store_credentials.create(name="stranger")
        theirs.object_stores.create(name="theirs", access_key_id=stranger.access_key_id)

    forged = s3(emulator, owner.access_key_id or "", "x" * 40)
    codes = {}
    for who, peer in [
        ("stranger", s3_of(emulator, stranger)),
        ("sibling", s3_of(emulator, sibling)),
        ("forged", forged),
    ]:
        codes[who] = {
            refused(partial(peer.get_object, Bucket=bucket, Key="plans.txt")),
            refused(partial(peer.put_object, Bucket=bucket, Key="evil.txt", Body=b"x")),
            refused(partial(peer.list_objects_v2, Bucket=bucket)),
            refused(partial(peer.delete_object, Bucket=bucket, Key="plans.txt")),
            refused(partial(peer.delete_bucket, Bucket=bucket)),
        }
        url = peer.generate_presigned_url(
            "get_object", Params={"Bucket": bucket, "Key": "plans.txt"}, ExpiresIn=60
        )
        assert unsigned_status(url) == 403, who
    assert codes["stranger"] == codes["sibling"] == {"AccessDenied"}
    assert codes["forged"] == {"SignatureDoesNotMatch"}
    for method in ("GET", "PUT", "DELETE"):
        assert unsigned_status(f"{emulator.s3_url}/{bucket}/plans.txt", method) == 403
    assert unsigned_status(f"{emulator.s3_url}/{bucket}", "GET") == 403

    names = [b["Name"] for b in s3_of(emulator, stranger).list_buckets()["Buckets"]]
    assert bucket not in names and len(names) == 1
    mine = s3_of(emulator, owner)
    listed = [o["Key"] for o in mine.list_objects_v2(Bucket=bucket).get("Contents", [])]
    assert listed == ["plans.txt"]
    assert mine.get_object(Bucket=bucket, Key="plans.txt")["Body"].read() == b"top secret"
    good = mine.generate_presigned_url(
        "get_object", Params={"Bucket": bucket, "Key": "plans.txt"}, ExpiresIn=60
    )
    assert unsigned_status(good) == 200

    client.object_store_credentials.delete(sibling.id)
    assert refused(lambda: s3_of(emulator, sibling).list_buckets()) == "InvalidAccessKeyId"


def unsigned_status(url: str, method: str = "GET") -> int:
    data = b"x" if method == "PUT" else None
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_s3_takes_signature_v2_from_the_owning_credential_only(
    client: Client, fresh_emulator: Emulator
) -> None:
    emulator = fresh_emulator
    owner, sibling, bucket = owned_store(client)

    def v2(credential: ObjectStoreCredential, presigning: bool = False) -> Any:
        config = None if presigning else Config(signature_version="s3")  # boto3's defaults
        return boto3.client(
            "s3",
            endpoint_url=emulator.s3_url,
            region_name="us-east-1",
            aws_access_key_id=credential.access_key_id,
            aws_secret_access_key=credential.secret_access_key_id,
            config=config,
        )

    v2(owner).put_object(Bucket=bucket, Key="plans.txt", Body=b"top", Metadata={"my_key": "1"})
    assert v2(owner).head_object(Bucket=bucket, Key="plans.txt")["Metadata"] == {"my_key": "1"}
    assert refused(partial(v2(sibling).get_object, Bucket=bucket, Key="plans.txt")) == (
        "AccessDenied"
    )
    params = {"Bucket": bucket, "Key": "plans.txt"}
    good = v2(owner, presigning=True).generate_presigned_url("get_object", Params=params)
    theirs = v2(sibling, presigning=True).generate_presigned_url("get_object", Params=params)
    assert "Signature=" in good and "X-Amz-Signature" not in good
    assert (unsigned_status(good), unsigned_status(theirs)) == (200, 403)
