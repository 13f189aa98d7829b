"""Seeded, exported and loaded emulator state: fixed ids answered, one-line refusals."""

from __future__ import annotations

import base64
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import boto3
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import Client as WSGIClient

from altostratus.client import Client
from altostratus.emulator import ControlRefused, Emulator, SeedError
from altostratus.emulator.serving.limits import MAX_STATE_BYTES
from tests.support.doc_pages import section

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


@pytest.mark.parametrize(
    ("account", "named"),
    [
        ({"\n": None}, r"^accounts\[0\]: '\\n' is not an account field or resource kind$"),
        ({1: "x", "a": "y"}, r"^accounts\[0\]: 1 is not an account field or resource kind$"),
        ({"quota": {"net\u2028work": 3}}, r"^accounts\[0\]\.quota: 'net\\u2028work' is not a"),
        (
            {"networks": [{"id": "a\nb", "label": "x"}, {"id": "a\nb", "label": "y"}]},
            r"^accounts\[0\]\.networks\[1\] \(id a\\nb\): another record has this id$",
        ),
    ],
)
def test_what_the_seed_itself_names_stays_on_one_line(account: dict[Any, Any], named: str) -> None:
    """A key or an id of the seed's own making is quoted or escaped, never a line break."""
    with pytest.raises(SeedError) as refused:
        Emulator(seed={"accounts": [account]})
    assert len(str(refused.value).splitlines()) == 1
    assert re.search(named, str(refused.value)), str(refused.value)


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


BIG = bytes(range(256)) * 100  # past the 16 KiB a text parameter may hold, and not UTF-8
BALANCED: dict[str, Any] = {
    "accounts": [
        {
            **SEED["accounts"][0],
            "quota": {"network_count": 1100, "public_ip_address": 20},
            "networks": [
                *SEED["accounts"][0]["networks"],
                *({"id": f"net-{n}", "label": f"n{n}"} for n in range(1001)),
            ],
            "object_stores": [
                {
                    **SEED["accounts"][0]["object_stores"][0],
                    "objects": {
                        "hello.txt": "hello",
                        "big.bin": {"base64": base64.b64encode(BIG).decode()},
                        "long.txt": "x" * 20_000,
                    },
                }
            ],
            "load_balancers": [
                {
                    "id": "lb-web",
                    "name": "web",
                    "network_id": "net-app",
                    "firewall_id": "fw-app",
                    "backends": [
                        {
                            "ip": "10.9.0.10",
                            "protocol": "TCP",
                            "source_port": 80,
                            "target_port": 8080,
                            "health_check_port": 8081,
                        },
                    ],
                }
            ],
            "reserved_ips": [
                {"id": "ip-web", "name": "web", "assign_to_id": "lb-web"},
                {"id": "ip-spare", "name": "spare"},
            ],
        },
        SEED["accounts"][1],
    ]
}


def answers_of(client: Client) -> list[Any]:
    return [
        client.load_balancers.get("lb-web").backends,
        client.reserved_ips.get("ip-web").assigned_to,
        client.firewalls.get("fw-app").rules_count,
        sorted(n.id for n in client.networks.list() if not n.default),
        client.webhooks.get("hook-1").events,
        client.object_store_credentials.get("cred-ci").access_key_id,
    ]


def test_an_export_of_every_kind_and_a_thousand_records_loads_back_to_the_same_answers() -> None:
    with Emulator(seed=BALANCED) as first:
        exported = first.export_state()
        answers = answers_of(Client(api_key=first.api_key, api_url=first.api_url))
    account = exported["accounts"][0]
    assert len(account["networks"]) == 1002
    assert account["reserved_ips"][0]["assign_to_id"] == "lb-web"
    assert answers[1] is not None and answers[1].id == "lb-web"
    with Emulator() as second:
        second.load_state(exported)
        client = Client(api_key=second.api_key, api_url=second.api_url)
        assert answers_of(client) == answers
        objects = objects_of(second, client)
        assert objects["big.bin"] == BIG and objects["long.txt"] == b"x" * 20_000
        assert second.export_state() == exported


def test_a_state_body_past_its_bound_is_refused_as_too_large(loader: Emulator) -> None:
    client = WSGIClient(loader.app)
    answer = client.put(
        "/_emulator/state",
        base_url=loader.api_url,
        data=b" " * (MAX_STATE_BYTES + 1),
        content_type="application/json",
    )
    assert answer.status_code == 413
    assert answer.get_json()["reason"] == f"The body is larger than {MAX_STATE_BYTES} bytes"


HOSTILE = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(["!!!", "AAE", "\ud800", "", "net-app", "lb-web", "10.9.0.0/24"])
    | st.sampled_from([{"base64": "AAE"}, {"base64": 5}, {"base64": "!!"}, {"": "x" * 1025}]),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def places(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, by keys and indices."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, (*at, index))
    return found


def replaced(value: Any, at: tuple[Any, ...], new: Any) -> Any:
    if not at:
        return new
    copy: Any = dict(value) if isinstance(value, dict) else list(value)
    copy[at[0]] = replaced(copy[at[0]], at[1:], new) if at[1:] else new
    return copy


SMALL: dict[str, Any] = {
    "accounts": [
        {
            **{k: v for k, v in BALANCED["accounts"][0].items() if k != "networks"},
            "networks": SEED["accounts"][0]["networks"],
        },
        SEED["accounts"][1],
    ]
}


@pytest.fixture(scope="module")
def loader() -> Iterator[Emulator]:
    with Emulator() as emulator:
        yield emulator


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_no_state_body_makes_the_emulator_fail(loader: Emulator, data: st.DataObject) -> None:
    """A seed with one place replaced by anything (a wrong type, invalid base64, a lone
    surrogate) is loaded or refused in one line: never a 500."""
    where = data.draw(st.sampled_from(places(SMALL)))
    body = replaced(SMALL, where, data.draw(HOSTILE))
    try:
        loader.load_state(body)
    except ControlRefused as refused:
        assert 400 <= refused.status < 500, (where, refused)
        assert refused.reason and "\n" not in refused.reason


@pytest.mark.parametrize(
    ("place", "value", "named"),
    [
        (("objects", "raw.bin"), {"base64": "AAE"}, "objects['raw.bin'].base64: not valid base64"),
        (("objects", "raw.bin"), {"base64": 5}, "objects['raw.bin'].base64: not valid base64"),
        (("objects", "raw.bin"), "\ud800", "objects['raw.bin']: holds a lone surrogate"),
        (("objects",), ["a"], "objects: an object of key: text"),
        (("name",), ["a"], "400 parameter_name_invalid"),
        (("region",), 5, "region: a region's slug"),
    ],
)
def test_a_bad_store_entry_is_a_400_naming_it(
    loader: Emulator, place: tuple[str, ...], value: Any, named: str
) -> None:
    body = replaced(SEED, ("accounts", 0, "object_stores", 0, *place), value)
    with pytest.raises(ControlRefused) as refused:
        loader.load_state(body)
    assert refused.value.status == 400 and refused.value.code == "seed_invalid"
    assert refused.value.reason.startswith("accounts[0].object_stores[0]")
    assert named in refused.value.reason


def test_a_balancers_own_firewall_goes_with_it_after_an_export_is_loaded_back() -> None:
    with Emulator() as first:
        client = Client(api_key=first.api_key, api_url=first.api_url)
        network = client.networks.create(label="web")
        balancer = client.load_balancers.create(
            name="web",
            network_id=network.id,
            backends=[
                {"ip": "10.0.0.5", "protocol": "TCP", "source_port": 80, "target_port": 8080}
            ],
        )
        own = balancer.firewall_id
        exported = first.export_state()
    (entry,) = exported["accounts"][0]["load_balancers"]
    assert entry["firewall_made"] is True and entry["firewall_id"] == own
    with Emulator() as second:
        second.load_state(exported)
        client = Client(api_key=second.api_key, api_url=second.api_url)
        assert client.load_balancers.get(balancer.id).firewall_id == own
        assert second.export_state() == exported
        client.load_balancers.delete(balancer.id)
        assert own not in [firewall.id for firewall in client.firewalls.list()]


@pytest.mark.parametrize(
    ("mark", "message"),
    [
        ("yes", "firewall_made: true or false"),
        (True, "firewall_made: names no firewall_id"),
    ],
)
def test_a_bad_firewall_made_mark_is_one_line_naming_it(mark: object, message: str) -> None:
    seed = {
        "accounts": [
            {
                "name": "default",
                "networks": [{"id": "net-a", "label": "a"}],
                "load_balancers": [
                    {
                        "id": "lb-a",
                        "name": "a",
                        "network_id": "net-a",
                        "backends": [
                            {
                                "ip": "10.0.0.5",
                                "protocol": "TCP",
                                "source_port": 80,
                                "target_port": 8080,
                            }
                        ],
                        "firewall_made": mark,
                    }
                ],
            }
        ]
    }
    with pytest.raises(
        SeedError, match=r"accounts\[0\]\.load_balancers\[0\] \(id lb-a\)\." + message
    ):
        Emulator(seed=seed).start()
