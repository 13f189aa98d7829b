"""The translation on its own: what each fixture's program declares, refers to and leaves out,
and what the report says, with the service's values stood in by their placeholders' names."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

import altostratus as alto
from altostratus.migrate import (
    SECRET,
    Migration,
    Reference,
    SourceError,
    migrate,
    program_source,
    read_source,
    report_text,
)

from .estates import placeholders, templated

TERRAFORM = "terraform-show.json"
PULUMI = "pulumi-stack-export.json"


def stand_ins(fixture: str) -> dict[str, str]:
    """Each value the service assigns, as ``<key>``: what the program must hold, or not."""
    return {key: f"<{key}>" for key in placeholders(fixture)}


def translated(fixture: str) -> Migration:
    return migrate(read_source(templated(fixture, stand_ins(fixture))))


def declared(migration: Migration) -> dict[str, tuple[str, str, str]]:
    """``{variable: (resource, resource name, id)}``."""
    return {d.variable: (d.resource, d.name, d.id) for d in migration.declarations}


def inputs(migration: Migration, variable: str) -> dict[str, Any]:
    (declaration,) = [d for d in migration.declarations if d.variable == variable]
    return {
        name: f"{value.target.variable}.{value.attribute}"
        if isinstance(value, Reference)
        else value
        for name, value in declaration.inputs.items()
    }


def test_each_resource_of_the_terraform_state_is_adopted_by_its_id() -> None:
    migration = translated(TERRAFORM)
    assert declared(migration) == {
        "main": ("Network", "main", "<net_main.id>"),
        "cache_this": ("Network", "cache-this", "<net_cache.id>"),
        "db": ("Firewall", "db", "<fw_db.id>"),
        "db_ingress_postgres": ("FirewallRule", "db-ingress-postgres", "<fw_db.postgres.id>"),
        "web": ("Firewall", "web", "<fw_web.id>"),
        "web_ingress_http": ("FirewallRule", "web-ingress-http", "<fw_web.http.id>"),
        "web_ingress_https": ("FirewallRule", "web-ingress-https", "<fw_web.https.id>"),
        "web_ingress_ssh_office": ("FirewallRule", "web-ingress-ssh-office", "<fw_web.ssh.id>"),
        "web_ingress_no_mysql": ("FirewallRule", "web-ingress-no-mysql", "<fw_web.mysql.id>"),
        "web_egress_all_out": ("FirewallRule", "web-egress-all-out", "<fw_web.all_out.id>"),
        "cache_this_firewall": ("Firewall", "cache-this", "<fw_cache.id>"),
        "cache_this_ingress_redis": (
            "FirewallRule",
            "cache-this-ingress-redis",
            "<fw_cache.redis.id>",
        ),
        "cache_this_ingress_ping": (
            "FirewallRule",
            "cache-this-ingress-ping",
            "<fw_cache.ping.id>",
        ),
        "edge_0": ("ReservedIp", "edge-0", "<ip_edge_0.id>"),
        "edge_1": ("ReservedIp", "edge-1", "<ip_edge_1.id>"),
        "www": ("ReservedIp", "www", "<ip_www.id>"),
        "uploader": ("ObjectStoreCredential", "uploader", "<cred_uploader.id>"),
        "logs": ("ObjectStore", "logs", "<store_logs.id>"),
        "media": ("ObjectStore", "media", "<store_media.id>"),
    }


def test_terraform_inputs_come_from_the_state_and_references_are_python_references() -> None:
    migration = translated(TERRAFORM)
    assert inputs(migration, "main") == {
        "label": "shop-main",
        "region": "LON1",
        "cidr_v4": "10.40.0.0/24",
        "nameservers_v4": ["8.8.8.8", "1.1.1.1"],
    }
    assert inputs(migration, "web") == {
        "name": "shop-web",
        "network_id": "main.id",
        "region": "LON1",
        "create_default_rules": False,
    }
    assert inputs(migration, "cache_this_firewall")["network_id"] == "cache_this.id"
    assert inputs(migration, "web_ingress_ssh_office") == {
        "firewall_id": "web.id",
        "protocol": "tcp",
        "start_port": "22",
        "cidr": ["198.51.100.7/32", "203.0.113.0/24"],
        "direction": "ingress",
        "label": "ssh-office",
        "action": "allow",
        "region": "LON1",
    }
    egress = inputs(migration, "web_egress_all_out")
    assert (egress["start_port"], egress["end_port"], egress["direction"]) == (
        "1",
        "65535",
        "egress",
    )
    assert inputs(migration, "web_ingress_no_mysql")["action"] == "deny"
    ping = inputs(migration, "cache_this_ingress_ping")
    assert ping["protocol"] == "icmp" and "start_port" not in ping and ping["region"] == "FRA1"
    assert inputs(migration, "www") == {"name": "shop-www", "region": "LON1"}
    assert inputs(migration, "uploader") == {"name": "shop-uploader", "region": "LON1"}
    assert inputs(migration, "media") == {
        "name": "shop-media",
        "region": "LON1",
        "max_size_gb": 500,
        "access_key_id": "uploader.access_key_id",
    }
    assert "access_key_id" not in inputs(migration, "logs")  # its owner is not in the state

    program = program_source(migration, "migration-report.md")
    assert (
        '    alto.FirewallArgs(\n        name="shop-web",\n        network_id=main.id,' in program
    )
    assert "access_key_id=uploader.access_key_id," in program
    compile(program, "__main__.py", "exec")


def test_default_rules_stay_with_their_firewall_and_the_others_are_declared() -> None:
    migration = translated(TERRAFORM)
    rule_ids = {d.id for d in migration.declarations if d.resource == "FirewallRule"}
    assert not {"<fw_db.tcp.id>", "<fw_db.udp.id>", "<fw_db.icmp.id>"} & rule_ids
    assert inputs(migration, "db")["create_default_rules"] is True
    assert any(
        "civo_firewall.db: the service's 3 default rules" in note for note in migration.notes
    )


def test_what_is_not_carried_is_listed_with_what_it_uses_and_what_uses_it() -> None:
    migration = translated(TERRAFORM)
    left = {
        item.resource.label: (
            item.reason,
            sorted(r.label for r in item.uses),
            sorted(r.label for r in item.used_by),
        )
        for item in migration.left
    }
    assert left == {
        "civo_instance.api": (
            "altostratus has no instance resource",
            ["civo_firewall.web", "civo_network.main", "civo_ssh_key.deploy"],
            [],
        ),
        "civo_kubernetes_cluster.k8s": (
            "altostratus has no kubernetes cluster resource",
            ["civo_firewall.db", "civo_network.main"],
            ["civo_kubernetes_node_pool.extra"],
        ),
        "civo_kubernetes_node_pool.extra": (
            "altostratus has no kubernetes node pool resource",
            ["civo_kubernetes_cluster.k8s"],
            [],
        ),
        "civo_ssh_key.deploy": (
            "altostratus has no ssh key resource",
            [],
            ["civo_instance.api"],
        ),
    }
    report = report_text(migration, "__main__.py")
    assert (
        "- `civo_kubernetes_cluster.k8s`, id `0c6f2b9e-52d1-4b71-a7c6-1f3e8d2c9a40`: altostratus "
        "has no kubernetes cluster resource. It uses `civo_firewall.db` (adopted), "
        "`civo_network.main` (adopted): keep what the program adopts while it does. Used by "
        "`civo_kubernetes_node_pool.extra` (not carried)." in report
    )
    assert (
        "- `data.civo_loadbalancer.ingress`: read it with "
        '`alto.get_load_balancer(id="e1f4a7b2-6c3d-4e58-9a0b-7d2c1f8e3a65")`' in report
    )
    assert "- `data.civo_disk_image.ubuntu`\n" in report
    assert "terraform state rm \\\n  'civo_object_store.media' \\\n" in report
    assert "  'civo_reserved_ip.edge[0]' \\\n" in report
    assert report.rstrip().endswith("  'civo_network.main'\n```")


def secrets_of(fixture: str, values: dict[str, str]) -> list[str]:
    """Every secret the fixture holds: what the tools mark, and the credential's secret key."""
    document = json.loads(templated(fixture, values))
    found: list[str] = [values[k] for k in values if k.endswith("secret_access_key")]

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            if "ciphertext" in value:
                found.append(value["ciphertext"])
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(document)
    for resource in document.get("values", {}).get("root_module", {}).get("resources", []):
        for key, marked in resource.get("sensitive_values", {}).items():
            if marked is True:
                found.append(resource["values"][key])
    return found


@pytest.mark.parametrize("fixture", [TERRAFORM, PULUMI])
def test_no_secret_of_the_source_reaches_the_program_or_the_report(fixture: str) -> None:
    values = stand_ins(fixture)
    migration = migrate(read_source(templated(fixture, values)))
    written = program_source(migration, "r.md") + report_text(migration, "__main__.py")
    secrets = secrets_of(fixture, values)
    assert len(secrets) >= 3
    assert [secret for secret in secrets if secret in written] == []
    # Nor the credentials' access keys: the adoption reads them, the store refers to them.
    keys = [v for k, v in values.items() if k.endswith(("access_key_id", "owner_key"))]
    assert keys and [key for key in keys if key in written] == []


def test_the_bridged_stack_is_read_under_the_terraform_providers_names() -> None:
    migration = translated(PULUMI)
    assert declared(migration) == {
        "payments_net": ("Network", "payments-net", "<net_payments.id>"),
        "payments_dr": ("Network", "payments-dr", "<net_dr.id>"),
        "payments_fw": ("Firewall", "payments-fw", "<fw_payments.id>"),
        "payments_fw_ingress_https": (
            "FirewallRule",
            "payments-fw-ingress-https",
            "<fw_payments.https.id>",
        ),
        "payments_fw_ingress_metrics": (
            "FirewallRule",
            "payments-fw-ingress-metrics",
            "<fw_payments.metrics.id>",
        ),
        "payments_fw_ingress_3": ("FirewallRule", "payments-fw-ingress-3", "<fw_payments.app.id>"),
        "payments_fw_egress_dns": (
            "FirewallRule",
            "payments-fw-egress-dns",
            "<fw_payments.dns.id>",
        ),
        "payments_dr_fw": ("Firewall", "payments-dr-fw", "<fw_dr.id>"),
        "payments_ip": ("ReservedIp", "payments-ip", "<ip_payments.id>"),
        "payments_backup_key": ("ObjectStoreCredential", "payments-backup-key", "<cred_backup.id>"),
        "payments_backups": ("ObjectStore", "payments-backups", "<store_backups.id>"),
    }
    assert inputs(migration, "payments_net")["nameservers_v4"] == ["8.8.8.8", "8.8.4.4"]
    assert inputs(migration, "payments_dr")["region"] == "NYC1"
    # The bridged provider's automatic name is the record's name: given as it is.
    assert inputs(migration, "payments_dr_fw") == {
        "name": "payments-dr-fw-4e1c2a7",
        "network_id": "payments_dr.id",
        "region": "NYC1",
        "create_default_rules": True,
    }
    metrics = inputs(migration, "payments_fw_ingress_metrics")
    assert (metrics["start_port"], metrics["end_port"]) == ("9100", "9102")
    assert inputs(migration, "payments_fw_egress_dns")["protocol"] == "udp"
    assert inputs(migration, "payments_backups")["access_key_id"] == (
        "payments_backup_key.access_key_id"
    )
    report = report_text(migration, "__main__.py")
    assert (
        "- `civo:index/network:Network default-net`: read it with "
        '`alto.Network.get("default-net", "<net_default.id>")`' in report
    )
    assert (
        "- `random:index/randomPassword:RandomPassword db-password`, id `none`: not a resource "
        "of the service's provider." in report
    )
    assert (
        "pulumi state delete --stack 'prod' "
        "'urn:pulumi:prod::payments::civo:index/objectStore:ObjectStore::payments-backups'\n"
        in report
    )
    assert "first make what stays in the old program refer to the adopted resources by id" in (
        report
    )


def test_the_bridged_dependencies_are_read_from_the_export() -> None:
    left = {
        item.resource.name: (
            sorted(r.name for r in item.uses),
            sorted(r.name for r in item.used_by),
        )
        for item in translated(PULUMI).left
    }
    assert left["payments-worker"] == (["payments-fw", "payments-net"], ["payments-worker-a"])
    assert left["payments-worker-a"] == (["payments-domain", "payments-worker"], [])
    assert left["payments-k8s"] == (["payments-fw", "payments-net"], [])


@pytest.mark.parametrize("fixture", [TERRAFORM, PULUMI])
def test_every_input_written_is_an_input_of_its_resource(fixture: str) -> None:
    for declaration in translated(fixture).declarations:
        args = getattr(alto, f"{declaration.resource}Args")
        assert set(declaration.inputs) <= {field.name for field in dataclasses.fields(args)}
        resource = getattr(alto, declaration.resource)
        assert callable(resource.adopt)


# -- edge cases, from small states ---------------------------------------------------------


def terraform_state(*resources: dict[str, Any]) -> str:
    entries = []
    for resource in resources:
        kind, name = resource.pop("address").split(".")
        entries.append(
            {
                "address": f"{kind}.{name}",
                "mode": "managed",
                "type": kind,
                "name": name,
                "values": resource,
                "sensitive_values": resource.pop("sensitive", {}),
            }
        )
    return json.dumps({"format_version": "1.0", "values": {"root_module": {"resources": entries}}})


def test_an_address_assigned_to_an_instance_keeps_its_assignment_as_text() -> None:
    migration = migrate(
        read_source(
            terraform_state(
                {"address": "civo_instance.vm", "id": "i-1", "hostname": "vm"},
                {"address": "civo_reserved_ip.vm", "id": "ip-1", "name": "vm-ip", "region": "LON1"},
                {
                    "address": "civo_instance_reserved_ip_assignment.vm",
                    "id": "a-1",
                    "instance_id": "i-1",
                    "reserved_ip_id": "ip-1",
                },
            )
        )
    )
    assert inputs(migration, "vm")["assign_to_id"] == "i-1"
    assert (
        "civo_reserved_ip.vm: `assign_to_id` names civo_instance.vm (not carried); its id is "
        "written as text" in migration.notes
    )
    reasons = {item.resource.label: item.reason for item in migration.left}
    assert reasons["civo_instance_reserved_ip_assignment.vm"].startswith("an assignment")


def test_a_network_outside_the_state_is_written_as_its_id() -> None:
    migration = migrate(
        read_source(
            terraform_state(
                {"address": "civo_firewall.fw", "id": "f-1", "name": "fw", "network_id": "n-9"}
            )
        )
    )
    assert inputs(migration, "fw")["network_id"] == "n-9"
    assert any("perhaps the region's default network" in note for note in migration.notes)
    assert any("the state names no region" in note for note in migration.notes)


def test_rules_that_cannot_be_declared_are_reported() -> None:
    rule = {"action": "allow", "cidr": ["0.0.0.0/0"], "protocol": "tcp"}
    migration = migrate(
        read_source(
            terraform_state(
                {
                    "address": "civo_firewall.fw",
                    "id": "f-1",
                    "name": "fw",
                    "network_id": "n-1",
                    "create_default_rules": False,
                    "ingress_rule": [
                        {**rule, "id": "r-1", "port_range": "all", "label": "any"},
                        {**rule, "id": "r-2", "port_range": "80-70"},
                        {**rule, "id": "", "port_range": "443", "label": "web"},
                        {**rule, "id": "r-4", "port_range": "1-65535"},
                    ],
                }
            )
        )
    )
    assert [(d.resource, d.id) for d in migration.declarations] == [
        ("Firewall", "f-1"),
        ("FirewallRule", "r-4"),  # the shape of a default rule, but the firewall has none
    ]
    notes = "\n".join(migration.notes)
    assert "ingress rule \"any\" has the port range 'all', which a rule cannot take" in notes
    assert "ingress rule 2 has the port range '80-70'" in notes
    assert 'ingress rule "web" has no id in the state: not carried' in notes


def test_an_input_the_state_marks_sensitive_is_not_written() -> None:
    migration = migrate(
        read_source(
            terraform_state(
                {
                    "address": "civo_network.app",
                    "id": "n-1",
                    "label": "payroll",
                    "region": "LON1",
                    "sensitive": {"label": True},
                }
            )
        )
    )
    assert "label" not in inputs(migration, "app")
    assert "payroll" not in program_source(migration, "r.md")
    assert any("`label` is secret in the source" in note for note in migration.notes)


def test_variables_are_identifiers_unique_in_the_program() -> None:
    migration = migrate(
        read_source(
            terraform_state(
                {"address": "civo_network.class", "id": "n-1", "label": "a"},
                {"address": "civo_firewall.class", "id": "f-1", "name": "a", "network_id": "n-1"},
                {"address": "civo_reserved_ip.1st", "id": "i-1", "name": "first"},
                {"address": "civo_reserved_ip.alto", "id": "i-2", "name": "alto"},
            )
        )
    )
    assert declared(migration) == {
        "class_": ("Network", "class", "n-1"),
        "class_firewall": ("Firewall", "class", "f-1"),
        "reserved_ip_1st": ("ReservedIp", "1st", "i-1"),
        "alto_": ("ReservedIp", "alto", "i-2"),
    }
    compile(program_source(migration, "r.md"), "__main__.py", "exec")


def test_a_bridged_resource_without_a_region_takes_its_providers() -> None:
    provider = "urn:pulumi:dev::p::pulumi:providers:civo::fra"
    export = {
        "version": 3,
        "deployment": {
            "resources": [
                {
                    "urn": provider,
                    "custom": True,
                    "id": "p-1",
                    "type": "pulumi:providers:civo",
                    "inputs": {"region": "FRA1"},
                },
                {
                    "urn": "urn:pulumi:dev::p::civo:index/reservedIp:ReservedIp::ip",
                    "custom": True,
                    "id": "ip-1",
                    "type": "civo:index/reservedIp:ReservedIp",
                    "inputs": {"name": "ip"},
                    "outputs": {"name": "ip", "id": "ip-1"},
                    "provider": f"{provider}::p-1",
                },
            ]
        },
    }
    source = read_source(json.dumps(export))
    assert source.title == "the Pulumi stack p/dev"
    assert inputs(migrate(source), "ip") == {"name": "ip", "region": "FRA1"}


def test_secret_envelopes_are_read_as_secrets() -> None:
    envelope = {"4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270"}
    export = {
        "deployment": {
            "resources": [
                {
                    "urn": "urn:pulumi:dev::p::civo:index/network:Network::n",
                    "custom": True,
                    "id": "n-1",
                    "type": "civo:index/network:Network",
                    "outputs": {
                        "label": {**envelope, "plaintext": '"hidden"'},
                        "cidrV4": "10.1.0.0/24",
                    },
                }
            ]
        }
    }
    (resource,) = read_source(json.dumps(export)).resources
    assert resource.values == {"label": SECRET, "cidr_v4": "10.1.0.0/24"}


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("not json", "the source is not JSON"),
        ('{"resources": []}', "neither `pulumi stack export` output"),
        ('{"format_version": "1.2", "planned_values": {}}', "the source is a Terraform plan"),
        ('{"format_version": "0.1", "values": {}}', "Terraform's JSON format '0.1' is not known"),
        ('{"deployment": {}}', "the Pulumi export has no deployment.resources list"),
    ],
)
def test_a_source_of_neither_tool_is_refused_saying_why(text: str, reason: str) -> None:
    with pytest.raises(SourceError) as refused:
        read_source(text)
    assert reason in str(refused.value) and "\n" not in str(refused.value)


def test_a_standalone_rule_of_older_providers_is_adopted_under_its_firewall() -> None:
    migration = migrate(
        read_source(
            terraform_state(
                {
                    "address": "civo_firewall.fw",
                    "id": "f-1",
                    "name": "fw",
                    "network_id": "n-1",
                    "create_default_rules": False,
                    "region": "PHX1",
                },
                {
                    "address": "civo_firewall_rule.https",
                    "id": "r-1",
                    "firewall_id": "f-1",
                    "protocol": "tcp",
                    "start_port": "443",
                    "end_port": "443",
                    "cidr": ["0.0.0.0/0"],
                    "direction": "ingress",
                    "label": "",
                    "action": "allow",
                    "region": "PHX1",
                },
            )
        )
    )
    assert inputs(migration, "https") == {
        "firewall_id": "fw.id",
        "protocol": "tcp",
        "start_port": "443",
        "end_port": "443",
        "cidr": ["0.0.0.0/0"],
        "direction": "ingress",
        "action": "allow",
        "region": "PHX1",
    }


def test_module_and_instance_keys_make_the_resource_name() -> None:
    entry = {
        "address": 'module.edge["eu-west"].module.ips.civo_reserved_ip.this[0]',
        "mode": "managed",
        "type": "civo_reserved_ip",
        "name": "this",
        "index": 0,
        "values": {"id": "ip-1", "name": "edge-ip", "region": "FRA1"},
    }
    state = {
        "format_version": "1.0",
        "values": {
            "root_module": {
                "child_modules": [
                    {
                        "address": 'module.edge["eu-west"]',
                        "child_modules": [
                            {"address": 'module.edge["eu-west"].module.ips', "resources": [entry]}
                        ],
                    }
                ]
            }
        },
    }
    migration = migrate(read_source(json.dumps(state)))
    assert declared(migration) == {
        "edge_eu_west_ips_this_0": ("ReservedIp", "edge-eu-west-ips-this-0", "ip-1")
    }
    report = report_text(migration, "__main__.py")
    assert "  'module.edge[\"eu-west\"].module.ips.civo_reserved_ip.this[0]'\n```" in report
