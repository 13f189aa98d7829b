"""Seeded, exported and loaded emulator state: fixed ids answered, one-line refusals."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import boto3
import pytest
import yaml
from doc_pages import section

from altostratus.client import Client
from altostratus.emulator import ControlRefused, Emulator, SeedError

SEED: dict[str, Any] = {
    "accounts": [
        {
            "name": "default",
            "quota": {"network_count": 20},
            "networks": [{"id": "net-app", "label": "app", "cidr_v4": "10.9.0.0/24"}],
            "firewalls": [
                {
                    "id": "fw-app",
                    "name": "app",
                    "network_id": "net-app",
                    "create_default_rules": False,
                    "rules": [{"protocol": "tcp", "start_port": 22, "cidr": ["10.0.0.0/8"]}],
                }
            ],
            "object_store_credentials": [
                {
                    "id": "cred-ci",
                    "name": "ci",
                    "access_key_id": "AKSEEDCI000000000000",
                    "secret_access_key_id": "seededSecretKey0000000000000000000000000",
                }
            ],
            "object_stores": [
                {
                    "id": "store-assets",
                    "name": "assets",
                    "access_key_id": "AKSEEDCI000000000000",
                    "objects": {"hello.txt": "hello", "raw.bin": {"base64": "AAEC/w=="}},
                }
            ],
            "webhooks": [
                {"id": "hook-1", "url": "http://127.0.0.1:9/h", "events": ["network.created"]}
            ],
        },
        {
            "name": "team-b",
            "api_key": "team-b-key",
            "networks": [{"id": "net-b", "label": "b", "region": "FRA1"}],
        },
    ]
}


def objects_of(emulator: Emulator, client: Client) -> dict[str, bytes]:
    store = client.object_stores.get("store-assets")
    endpoint, _, bucket = str(store.objectstore_endpoint).rpartition("/")
    s3 = boto3.client(
        "s3",
        endpoint_url=endpoint,
        aws_access_key_id="AKSEEDCI000000000000",
        aws_secret_access_key="seededSecretKey0000000000000000000000000",
        region_name="us-east-1",
    )
    keys = [item["Key"] for item in s3.list_objects_v2(Bucket=bucket)["Contents"]]
    return {key: s3.get_object(Bucket=bucket, Key=key)["Body"].read() for key in keys}


def test_a_seeded_emulator_answers_the_declared_ids() -> None:
    with Emulator(seed=SEED) as emulator:
        assert emulator.requests() == []  # the seed's own calls are not in the log
        client = Client(api_key=emulator.api_key, api_url=emulator.api_url)
        assert client.networks.get("net-app").cidr == "10.9.0.0/24"
        (rule,) = client.firewalls.get("fw-app").rules or []
        assert (rule.protocol, rule.start_port) == ("tcp", "22")
        assert client.object_store_credentials.get("cred-ci").name == "ci"
        assert objects_of(emulator, client) == {"hello.txt": b"hello", "raw.bin": b"\0\1\2\xff"}
        assert client.webhooks.get("hook-1").url == "http://127.0.0.1:9/h"
        assert client.quota.get().network_count_limit == 20
        team_b = Client(api_key="team-b-key", api_url=emulator.api_url)
        assert team_b.networks.get("net-b", region="FRA1").label == "b"

        client.networks.create(label="extra")
        emulator.reset()  # back to the seed
        assert [n.label for n in client.networks.list() if not n.default] == ["app"]


def test_export_then_load_into_a_fresh_emulator_gives_the_same_answers() -> None:
    with Emulator(seed=SEED) as first:
        exported = first.export_state()
    assert yaml.safe_load(yaml.safe_dump(exported)) == exported  # writable as a seed file
    with Emulator() as second:
        second.load_state(exported)
        client = Client(api_key=second.api_key, api_url=second.api_url)
        assert client.networks.get("net-app").label == "app"
        assert client.firewalls.get("fw-app").rules_count == 1
        assert objects_of(second, client)["raw.bin"] == b"\0\1\2\xff"
        assert second.export_state() == exported


def test_a_bad_entry_is_one_line_naming_it(tmp_path: Path) -> None:
    bad = {"accounts": [{"networks": [{"id": "n1", "label": "a", "cidr_v4": "8.8.8.0/24"}]}]}
    with pytest.raises(SeedError) as refused:
        Emulator(seed=bad)
    message = str(refused.value)
    assert message.startswith("accounts[0].networks[0] (id n1): 4") and "\n" not in message
    assert "cidr_v4" in message

    with Emulator() as emulator, pytest.raises(ControlRefused) as answered:
        emulator.load_state(bad)
    assert answered.value.code == "seed_invalid" and answered.value.reason == message

    seed = tmp_path / "seed.yaml"
    seed.write_text(yaml.safe_dump({"accounts": [{"colour": "red"}]}))
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", "emulator", "--port", "0", "--s3-port", "0",
         "--seed", str(seed)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    err = answer.stderr.strip()
    assert answer.returncode == 1 and len(err.splitlines()) == 1, err
    assert "accounts[0]: colour is not an account field or resource kind" in err


def test_a_duplicate_id_is_refused() -> None:
    seed = {"accounts": [{"networks": [{"id": "x", "label": "a"}, {"id": "x", "label": "b"}]}]}
    with pytest.raises(SeedError, match=r"^accounts\[0\]\.networks\[1\] \(id x\): another"):
        Emulator(seed=seed)


def test_the_documented_seed_loads_as_documented() -> None:
    text = section("docs/emulator.md", "## Seeding and snapshots: `--seed`")
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    with Emulator(seed=yaml.safe_load(block)) as emulator:
        client = Client(api_key=emulator.api_key, api_url=emulator.api_url)
        assert client.object_stores.get("store-assets").name == "assets"
    bad = {"accounts": [{"networks": [{"id": "n", "label": "a"}, {"id": "net-b", "cidr_v4": 1}]}]}
    with pytest.raises(SeedError) as refused:
        Emulator(seed=bad)
    assert str(refused.value).startswith("accounts[0].networks[1] (id net-b): 400 parameter_")
