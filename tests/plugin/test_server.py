"""The provider plugin's servicer called as the engine calls it, in this process, against the
session's emulator: names on the wire, configuration and its differences, checks, import ids,
the version check, and the console script's one line when a dependency is missing."""

from __future__ import annotations

import dataclasses
import inspect
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import struct_pb2
from pulumi.runtime import rpc
from pulumi.runtime.proto import provider_pb2

from altostratus import lookups
from altostratus._version import package_version
from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.plugin import names, server
from altostratus.providers import _config, _threads
from altostratus.providers._inputs import inputs_of
from altostratus.providers._validate import is_unknown
from tools.codegen import _nested_args, _resources

URN = "urn:pulumi:dev::project::altostratus:index:{kind}::{name}"


class Aborted(Exception):
    pass


class Context:
    """The part of a gRPC servicer context the servicer uses."""

    def abort(self, code: Any, details: str) -> None:
        raise Aborted(details)


def struct(values: dict[str, Any]) -> struct_pb2.Struct:
    made = struct_pb2.Struct()
    made.update(values)
    return made


def plain(values: struct_pb2.Struct) -> dict[str, Any]:
    return dict(rpc.deserialize_properties(values, keep_unknowns=True))


@pytest.fixture
def servicer(fresh_emulator: Emulator) -> Iterator[server.Servicer]:
    served = server.Servicer(None)
    config = {"apiKey": fresh_emulator.api_key, "apiUrl": fresh_emulator.api_url}
    served.Configure(provider_pb2.ConfigureRequest(args=struct(config)), Context())
    yield served
    _config.configure({})


def test_every_declared_name_goes_to_the_wire_and_back() -> None:
    declared = set()
    for resource in _resources():
        declared |= {field.name for field in inputs_of(resource._args_class)}
        declared |= set(resource._output_names)
    for nested in _nested_args():
        declared |= {field.name for field in dataclasses.fields(nested)}
    for name in lookups.__all__:
        if name.startswith("get_") and not name.endswith("_output"):
            declared |= set(inspect.signature(getattr(lookups, name)).parameters)
    assert {name for name in declared if names.snake(names.camel(name)) != name} == set()


def test_nested_inputs_are_renamed_and_maps_keep_their_keys() -> None:
    properties = names.resource_properties("altostratus:index:Firewall")
    given = {
        "network_id": "n1",
        "ingress_rules": [{"start_port": "22", "protocol": "tcp"}],
        "__name_prefix": "edge",
    }
    wire = names.to_wire(given, properties)
    assert wire == {
        "networkId": "n1",
        "ingressRules": [{"startPort": "22", "protocol": "tcp"}],
        "__name_prefix": "edge",
    }
    assert names.from_wire(wire, properties) == given
    balancer = names.resource_properties("altostratus:index:LoadBalancer")
    assert names.from_wire({"features": {"someKey": True}}, balancer) == {
        "features": {"someKey": True}
    }


def test_plugin_info_is_the_package_version(servicer: server.Servicer) -> None:
    assert servicer.GetPluginInfo(None, Context()).version == package_version()


@pytest.mark.parametrize(
    ("new_url", "replaces"),
    [
        ("{url}/", []),
        ("{url}/v2", []),
        ("{url}/v2/", []),
        ("http://127.0.0.1:9/v2", ["apiUrl"]),
    ],
)
def test_only_another_service_url_replaces(
    servicer: server.Servicer, new_url: str, replaces: list[str]
) -> None:
    url = "http://127.0.0.1:8080"
    olds = struct({"apiUrl": url, "apiKey": "a", "region": "LON1"})
    news = struct({"apiUrl": new_url.format(url=url), "apiKey": "a", "region": "LON1"})
    answer = servicer.DiffConfig(provider_pb2.DiffRequest(olds=olds, news=news), Context())
    assert list(answer.replaces) == replaces
    expected = (
        provider_pb2.DiffResponse.DIFF_SOME if replaces else provider_pb2.DiffResponse.DIFF_NONE
    )
    assert answer.changes == expected


def test_another_key_or_region_updates_the_provider(servicer: server.Servicer) -> None:
    olds = struct({"apiUrl": "http://h/v2", "apiKey": "a", "region": "LON1"})
    news = struct({"apiUrl": "http://h/v2", "apiKey": "b", "region": "FRA1"})
    answer = servicer.DiffConfig(provider_pb2.DiffRequest(olds=olds, news=news), Context())
    assert answer.changes == provider_pb2.DiffResponse.DIFF_SOME
    assert list(answer.replaces) == []
    assert sorted(answer.diffs) == ["apiKey", "region"]


def test_an_unknown_setting_is_a_warning_naming_it(
    servicer: server.Servicer, monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []
    monkeypatch.setattr(servicer, "warn", lambda message, urn="": said.append(message))
    request = provider_pb2.CheckRequest(news=struct({"apiKey": "a", "regoin": "LON1"}))
    answer = servicer.CheckConfig(request, Context())
    assert list(answer.failures) == []
    assert len(said) == 1
    assert said[0].startswith("altostratus:regoin is not a setting of the altostratus provider")


def test_an_sdk_of_another_version_fails_naming_both(servicer: server.Servicer) -> None:
    request = provider_pb2.CheckRequest(news=struct({"version": "0.0.1"}))
    (failure,) = servicer.CheckConfig(request, Context()).failures
    assert "version 0.0.1" in failure.reason
    assert f"version {package_version()}" in failure.reason


AUTONAMING = provider_pb2.CheckRequest.AutonamingOptions


def _autonamed_check(
    servicer: server.Servicer,
    kind: str,
    mode: Any,
    proposed: str,
    news: dict[str, Any] | None = None,
    olds: dict[str, Any] | None = None,
) -> Any:
    request = provider_pb2.CheckRequest(
        urn=URN.format(kind=kind, name="app"),
        type=f"altostratus:index:{kind}",
        olds=struct(olds or {}),
        news=struct(news or {}),
        autonaming=AUTONAMING(proposed_name=proposed, mode=mode),
    )
    return servicer.Check(request, Context())


def test_the_engines_autonaming_names_what_the_program_leaves_unnamed(
    servicer: server.Servicer,
) -> None:
    """``pulumi:autonaming`` in the stack's configuration: the engine proposes each name."""
    answer = servicer.Configure(provider_pb2.ConfigureRequest(args=struct({})), Context())
    assert answer.supports_autonaming_configuration
    ip = _autonamed_check(servicer, "ReservedIp", AUTONAMING.ENFORCE, "dev-app-4f2a")
    assert (list(ip.failures), plain(ip.inputs)["name"]) == ([], "dev-app-4f2a")
    network = _autonamed_check(servicer, "Network", AUTONAMING.PROPOSE, "dev-app")
    assert plain(network.inputs)["label"] == "dev-app"
    # Proposed, a store's name is taken into a bucket's alphabet; enforced, it must be one.
    store = _autonamed_check(servicer, "ObjectStore", AUTONAMING.PROPOSE, "Dev_App")
    assert plain(store.inputs)["name"] == "dev-app"
    (refused,) = _autonamed_check(servicer, "ObjectStore", AUTONAMING.ENFORCE, "Dev_App").failures
    assert refused.property == "name"
    assert "(the name pulumi:autonaming proposed: 'Dev_App')" in refused.reason
    # A name the program gives wins; an update keeps the name the resource has.
    given = _autonamed_check(servicer, "ReservedIp", AUTONAMING.ENFORCE, "x", {"name": "mine"})
    assert plain(given.inputs)["name"] == "mine"
    olds = {"name": "dev-app-4f2a", "__name_prefix": "app", "region": "LON1"}
    kept = _autonamed_check(servicer, "ReservedIp", AUTONAMING.ENFORCE, "dev-app-9c1d", {}, olds)
    assert plain(kept.inputs)["name"] == "dev-app-4f2a"


def test_autonaming_disabled_asks_the_program_for_the_name(servicer: server.Servicer) -> None:
    (failure,) = _autonamed_check(servicer, "Firewall", AUTONAMING.DISABLE, "").failures
    assert failure.property == "name"
    assert failure.reason == (
        "name is required: automatic names are disabled for this resource (pulumi:autonaming)"
    )
    named = _autonamed_check(servicer, "Firewall", AUTONAMING.DISABLE, "", {"name": "edge"})
    assert (list(named.failures), plain(named.inputs)["name"]) == ([], "edge")


def test_a_check_names_the_input_as_the_schema_does_and_names_after_the_urn(
    servicer: server.Servicer,
) -> None:
    request = provider_pb2.CheckRequest(
        urn=URN.format(kind="Network", name="app"),
        type="altostratus:index:Network",
        olds=struct({}),
        news=struct({"cidrV4": "8.8.8.0/24"}),
    )
    answer = servicer.Check(request, Context())
    (failure,) = answer.failures
    assert failure.property == "cidrV4"
    assert failure.reason.startswith("cidrV4 (cidr_v4 in Python) ")
    fine = provider_pb2.CheckRequest(
        urn=URN.format(kind="Network", name="app"),
        type="altostratus:index:Network",
        olds=struct({}),
        news=struct({"cidrV4": "10.1.0.0/24", "ipv4Enabled": rpc.UNKNOWN}),
    )
    inputs = plain(servicer.Check(fine, Context()).inputs)
    assert inputs["label"] == "app"
    assert inputs["cidrV4"] == "10.1.0.0/24"
    assert is_unknown(inputs["ipv4Enabled"])


def test_a_failure_is_one_line(servicer: server.Servicer, fresh_emulator: Emulator) -> None:
    request = provider_pb2.DeleteRequest(
        urn=URN.format(kind="Network", name="app"),
        type="altostratus:index:Network",
        id="no-such-network",
        properties=struct({"region": "NOPE9"}),
    )
    with pytest.raises(Aborted) as failed:
        servicer.Delete(request, Context())
    assert "\n" not in str(failed.value)
    assert "network" in str(failed.value)


def test_a_firewall_rule_is_imported_by_its_firewall_and_rule_ids(
    servicer: server.Servicer, client: Client
) -> None:
    network = client.networks.create(label="app", region="LON1")
    firewall = client.firewalls.create(network_id=network.id, name="edge", region="LON1")
    rule = client.firewall_rules.create(
        firewall.id,
        protocol="tcp",
        start_port="22",
        cidr="10.0.0.0/8",
        direction="ingress",
        action="allow",
        label="ssh",
        region="LON1",
    )
    request = provider_pb2.ReadRequest(
        urn=URN.format(kind="FirewallRule", name="ssh"),
        type="altostratus:index:FirewallRule",
        id=f"{firewall.id}:{rule.id}",
    )
    answer = servicer.Read(request, Context())
    assert answer.id == str(rule.id)
    inputs = plain(answer.inputs)
    assert inputs["firewallId"] == str(firewall.id)
    assert inputs["startPort"] == "22"


def test_a_credential_secret_is_sent_as_a_secret(servicer: server.Servicer) -> None:
    request = provider_pb2.CreateRequest(
        urn=URN.format(kind="ObjectStoreCredential", name="deploy"),
        type="altostratus:index:ObjectStoreCredential",
        properties=struct({"name": "deploy", "region": "LON1"}),
    )
    answer = servicer.Create(request, Context())
    outputs = dict(rpc.deserialize_properties(answer.properties))
    assert rpc.is_rpc_secret(outputs["secretAccessKeyId"])
    assert not rpc.is_rpc_secret(outputs["name"])


def test_a_lookup_is_answered_by_invoke(
    servicer: server.Servicer, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In the plugin's process the lookups read the provider's configuration."""
    monkeypatch.setattr(_threads, "_plugin", True)
    network = client.networks.create(label="looked-up", region="LON1")
    request = provider_pb2.InvokeRequest(
        tok="altostratus:index:getNetwork", args=struct({"label": "looked-up"})
    )
    answer = dict(
        rpc.deserialize_properties(getattr(servicer.Invoke(request, Context()), "return"))
    )
    assert answer["id"] == str(network.id)
    assert answer["label"] == "looked-up"
    assert "freeIpCount" in answer


def test_a_missing_dependency_is_one_line_naming_the_install_command(tmp_path: Path) -> None:
    broken = tmp_path / "grpc"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ImportError(\"No module named 'grpc'\")\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    script = Path(sys.executable).parent / "pulumi-resource-altostratus"
    answer = subprocess.run(
        [str(script)], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert answer.returncode == 1
    assert answer.stdout == ""
    (line,) = answer.stderr.splitlines()
    assert "No module named 'grpc'" in line
    assert 'python -m pip install --upgrade "altostratus"' in line


def test_settings_of_another_provider_replace_nothing(servicer: server.Servicer) -> None:
    """The dynamic provider's settings (none of the plugin's keys): a stack moving to the plugin
    is diffed resource by resource, not replaced whole."""
    olds = struct({"version": "3.274.1"})
    news = struct({"apiUrl": "http://127.0.0.1:9", "apiKey": "a"})
    answer = servicer.DiffConfig(provider_pb2.DiffRequest(olds=olds, news=news), Context())
    assert list(answer.replaces) == []


def test_only_the_firewall_rule_is_imported_by_a_compound_id() -> None:
    compound = {
        token
        for token, spec in names.schema()["resources"].items()
        if "<firewall_id>:<rule_id>" in spec["description"]
    }
    assert compound == {"altostratus:index:FirewallRule"}
    kinds = server.Servicer(None)._kinds
    store = kinds["altostratus:index:ObjectStore"]
    assert store.located("a:b", {}) == ("a:b", {})
    rule = kinds["altostratus:index:FirewallRule"]
    assert rule.located("a:b", {}) == ("b", {"firewall_id": "a"})


def test_a_failure_carries_its_traceback_under_debug(
    servicer: server.Servicer, fresh_emulator: Emulator
) -> None:
    config = {"apiKey": fresh_emulator.api_key, "apiUrl": fresh_emulator.api_url, "debug": True}
    servicer.Configure(provider_pb2.ConfigureRequest(args=struct(config)), Context())
    request = provider_pb2.DeleteRequest(
        urn=URN.format(kind="Network", name="app"),
        type="altostratus:index:Network",
        id="no-such-network",
        properties=struct({"region": "NOPE9"}),
    )
    with pytest.raises(Aborted) as failed:
        servicer.Delete(request, Context())
    first, *rest = str(failed.value).splitlines()
    assert "network" in first
    assert rest[0] == "Traceback (most recent call last):"


def test_the_deprecated_variables_configure_as_the_engine_spells_them(
    fresh_emulator: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    """An engine that sends no ``args`` keys ``variables`` as ``altostratus:config:<key>``."""
    served = server.Servicer(None)
    variables = {
        "altostratus:config:apiKey": fresh_emulator.api_key,
        "altostratus:config:apiUrl": fresh_emulator.api_url,
        "altostratus:config:providerThreads": "8",
    }
    try:
        served.Configure(provider_pb2.ConfigureRequest(variables=variables), Context())
        request = provider_pb2.ReadRequest(
            id="no-such-network",
            urn=URN.format(kind="Network", name="app"),
            type="altostratus:index:Network",
            properties=struct({"label": "app", "region": "LON1"}),
        )
        assert served.Read(request, Context()).id == ""  # gone, read with the key given
        assert "is not a setting" not in capsys.readouterr().err
    finally:
        _config.configure({})


def test_a_setting_refused_fails_the_configure_in_one_line(servicer: server.Servicer) -> None:
    request = provider_pb2.ConfigureRequest(args=struct({"providerThreads": 2}))
    with pytest.raises(Aborted) as failed:
        servicer.Configure(request, Context())
    assert str(failed.value) == (
        "could not configure the provider: altostratus:providerThreads must be a whole number "
        "from 4 up, not '2'"
    )
