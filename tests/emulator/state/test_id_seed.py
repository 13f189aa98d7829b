"""An id seed makes every generated id, bucket suffix, access key and secret reproducible."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from typing import Any

import pytest

import altostratus as alto
from altostratus.cli._emulator import configure_parser
from altostratus.cli._serve import _emulator
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack


def generated(emulator: Emulator) -> dict[str, Any]:
    """What the service makes up for a few records, made one after the other."""
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        network = api.networks.create(label="app", cidr_v4="10.50.0.0/24")
        credential = api.object_store_credentials.create(name="keys")
        store = api.object_stores.create(name="files", access_key_id=credential.access_key_id)
        hook = api.webhooks.create(url="http://127.0.0.1:9/", events=["network.created"])
        defaults = sorted(n.id for n in api.networks.list() if n.default)
        api.webhooks.test(hook.id)
    assert emulator.dispatcher.wait_idle()
    deliveries = [(d["event_id"], d["resource_id"]) for d in emulator.deliveries()]
    return {
        "network": network.id,
        "defaults": defaults,
        "credential": (credential.id, credential.access_key_id, credential.secret_access_key),
        "store": store.id,
        "bucket": emulator.state.object_stores.records[store.id].bucket,
        "webhook": (hook.id, hook.secret),
        "account": emulator.add_account("second")["api_key"],
        "deliveries": deliveries,
    }


def test_the_same_seed_gives_the_same_values_in_every_emulator_and_after_each_reset() -> None:
    with Emulator(id_seed=7, objectstore_ready_seconds=0) as first:
        made = generated(first)
        first.reset()
        assert generated(first) == made
    with Emulator(id_seed=7, objectstore_ready_seconds=0) as second:
        assert generated(second) == made
    with Emulator(id_seed=8, objectstore_ready_seconds=0) as other:
        different = generated(other)
    with Emulator(objectstore_ready_seconds=0) as unseeded:
        random = generated(unseeded)
    for key, value in made.items():
        assert different[key] != value and random[key] != value, key
    assert made["bucket"].startswith("files-") and len(made["bucket"]) == len("files-") + 6
    assert len(made["credential"][1]) == 20 and len(made["credential"][2]) == 40


def test_a_program_run_twice_gets_the_same_ids() -> None:
    def program() -> None:
        network = alto.Network("app", cidr_v4="10.51.0.0/24")
        firewall = alto.Firewall("edge", network_id=network.id)
        alto.FirewallRule(
            "https", firewall_id=firewall.id, protocol="tcp", port_range="443", cidr=["0.0.0.0/0"]
        )

    def ids(emulator: Emulator) -> dict[str, str]:
        stack = Stack(program, emulator=emulator)
        try:
            result = stack.up()
        finally:
            stack.close()
        return {name: res.id for name, res in result.resources.items()}

    with Emulator(id_seed=1234) as emulator:
        first = ids(emulator)
        emulator.reset()
        assert ids(emulator) == first
    assert len(first) >= 3


def test_an_id_seed_cannot_go_with_a_state_dir(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="an id_seed or a state_dir, not both"):
        Emulator(id_seed=1, state_dir=tmp_path)


def test_the_flag_and_its_variable_reach_the_emulator() -> None:
    parser = argparse.ArgumentParser()
    configure_parser(parser, environ={"ALTOSTRATUS_EMULATOR_ID_SEED": "42"})
    args = parser.parse_args(["--port", "0", "--s3-port", "0"])
    assert args.id_seed == 42
    assert _emulator(args).id_seed == 42
    assert parser.parse_args(["--id-seed", "5"]).id_seed == 5
    assert configure_parser_default() is None


def configure_parser_default() -> int | None:
    parser = argparse.ArgumentParser()
    configure_parser(parser, environ={})
    value: int | None = parser.parse_args([]).id_seed
    return value


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (["--id-seed", "seven"], "--id-seed: 'seven' is not an integer"),
        (["--id-seed", "1", "--state-dir", "."], "--id-seed cannot go with --state-dir"),
    ],
)
def test_a_bad_id_seed_fails_in_one_line(flags: list[str], expected: str) -> None:
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", "emulator", "--port", "0", "--s3-port", "0", *flags],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "ALTOSTRATUS_EMULATOR_ID_SEED": ""},
    )
    err = answer.stderr.strip()
    assert answer.returncode != 0 and len(err.splitlines()) == 1, err
    assert expected in err
