"""A TypeScript program (on the SDK of ``sdk/nodejs``) and a YAML program (on no SDK) live their
whole life under the real engine through the provider plugin: a preview of creates only, ``up``,
the resources where the program put them, a preview expecting no changes, a changed setting
previewed as one in-place update and applied, ``refresh --expect-no-changes``, no secret in the
state in plain text, ``destroy`` leaving nothing.

The programs are docs/plugin-languages.md's, as written: its TypeScript section's Pulumi.yaml and
index.ts (beside the package.json and tsconfig.json of ``programs/typescript``), its YAML
section's Pulumi.yaml. The engine runs the TypeScript program through the Node.js language host
and the YAML program through pulumi-yaml's, both built by ``tools/engine/build``; it starts the
plugin (``pulumi-resource-altostratus``) from PATH. The programs' node_modules are installed
once (``tests.support.nodejs``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from tests.support.account import leftovers
from tests.support.doc_pages import ROOT, blocks
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

PROGRAMS = Path(__file__).resolve().parent / "programs"
PAGE = ROOT / "docs" / "plugin-languages.md"
FILES = {"yaml": "Pulumi.yaml", "typescript": "index.ts"}


def page_files(section: str) -> dict[str, str]:
    """The files a section of the page shows, by name."""
    return {
        FILES[block.language]: block.text
        for block in blocks(PAGE)
        if block.heading == f"## {section}" and block.language in FILES
    }


def program(language: str, work: Path, emulator: Emulator, modules: Path | None) -> Project:
    source = work / "source" / language
    source.mkdir(parents=True)
    if (PROGRAMS / language).is_dir():
        shutil.copytree(PROGRAMS / language, source, dirs_exist_ok=True)
    files = page_files({"typescript": "TypeScript", "yaml": "YAML"}[language])
    assert set(files) == ({"Pulumi.yaml", "index.ts"} if modules else {"Pulumi.yaml"})
    for name, text in files.items():
        (source / name).write_text(text, encoding="utf-8")
    project = Project(source, work, emulator)
    if modules is not None:
        (project.dir / "node_modules").symlink_to(modules, target_is_directory=True)
    return project


def secrets_of_the_service(emulator: Emulator) -> set[str]:
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as client:
        found = {c.secret_access_key_id or "" for c in client.object_store_credentials.list()}
    return {s for s in found if s} | {emulator.api_key}


@pytest.mark.parametrize("language", ["typescript", "yaml"])
def test_a_program_lives_its_whole_life_through_the_plugin(
    fresh_emulator: Emulator, tmp_path: Path, language: str, request: pytest.FixtureRequest
) -> None:
    modules = request.getfixturevalue("typescript_modules") if language == "typescript" else None
    project = program(language, tmp_path, fresh_emulator, modules)
    project.init()

    assert project.operations() == {
        "Network:app": "create",
        "Firewall:app": "create",
        "FirewallRule:https": "create",
        "FirewallRule:ssh": "create",
        "ObjectStoreCredential:ci": "create",
        "ObjectStore:assets": "create",
    }
    project("up", "--yes", "--skip-preview")

    outputs = json.loads(project("stack", "output", "--json"))
    assert outputs["secretAccessKey"] == "[secret]"
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        network = client.networks.get(outputs["networkId"])
        assert (network.label, network.cidr) == ("app", outputs["networkCidr"])
        (firewall,) = client.firewalls.list()
        assert firewall.network_id == network.id
        rules = {rule.id: rule for rule in firewall.rules or []}
        assert {r.start_port for r in rules.values()} == {"443", "22"}
        https, ssh = (rules[rule_id.split(":")[-1]] for rule_id in outputs["ruleIds"])
        assert (https.cidr, ssh.cidr) == (["0.0.0.0/0"], ["10.0.0.0/8"])
        (store,) = client.object_stores.list()
        assert store.max_size_gb == 250

    project("preview", "--expect-no-changes")
    project("config", "set", "adminCidr", "192.168.0.0/16")
    changed = {k: op for k, op in project.operations().items() if op != "same"}
    assert changed == {"FirewallRule:ssh": "update"}
    project("up", "--yes", "--skip-preview")
    project("refresh", "--yes", "--expect-no-changes", "--skip-preview")

    exported = json.dumps(project.export())
    for secret in secrets_of_the_service(fresh_emulator):
        assert secret not in exported

    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}


USING_WHAT_EXISTS = {
    "typescript": """\
import * as altostratus from "@altostratus/pulumi";

const found = altostratus.getNetworkOutput({ label: "existing" });
const read = altostratus.Network.get("read", "EXISTING_ID");
const other = new altostratus.Provider("other", {
    apiUrl: "OTHER_URL", apiKey: "OTHER_KEY", region: "FRA1",
});
const there = new altostratus.Network("there", { label: "there" }, { provider: other });

export const foundId = found.id;
export const readLabel = read.label;
export const thereId = there.id;
""",
    "yaml": """\
name: using-what-exists
runtime: yaml
variables:
  found:
    fn::invoke:
      function: altostratus:index:getNetwork
      arguments:
        label: existing
resources:
  read:
    type: altostratus:index:Network
    get:
      id: EXISTING_ID
  other:
    type: pulumi:providers:altostratus
    properties:
      apiUrl: OTHER_URL
      apiKey: OTHER_KEY
      region: FRA1
  there:
    type: altostratus:index:Network
    properties:
      label: there
    options:
      provider: ${other}
outputs:
  foundId: ${found.id}
  readLabel: ${read.label}
  thereId: ${there.id}
""",
}


@pytest.mark.parametrize("language", ["typescript", "yaml"])
def test_a_program_looks_up_reads_and_uses_a_second_account(
    fresh_emulator: Emulator, tmp_path: Path, language: str, request: pytest.FixtureRequest
) -> None:
    """A lookup and a read of a network made by hand, and a network made through an explicit
    provider in another emulator's account and region: each lands where the program says."""
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        existing = client.networks.create(label="existing")
    with Emulator() as other:
        text = USING_WHAT_EXISTS[language].replace("EXISTING_ID", existing.id)
        text = text.replace("OTHER_URL", other.api_url).replace("OTHER_KEY", other.api_key)
        source = tmp_path / "source" / "using-what-exists"
        source.mkdir(parents=True)
        if language == "typescript":
            (source / "Pulumi.yaml").write_text("name: using-what-exists\nruntime: nodejs\n")
            (source / "package.json").write_text('{"name": "using", "main": "index.ts"}\n')
            (source / "index.ts").write_text(text)
        else:
            (source / "Pulumi.yaml").write_text(text)
        project = Project(source, tmp_path, fresh_emulator)
        if language == "typescript":
            modules = request.getfixturevalue("typescript_modules")
            (project.dir / "node_modules").symlink_to(modules, target_is_directory=True)
        project.init()
        project("up", "--yes", "--skip-preview")

        outputs = json.loads(project("stack", "output", "--json"))
        assert (outputs["foundId"], outputs["readLabel"]) == (existing.id, "existing")
        with Client(api_key=other.api_key, api_url=other.api_url) as client:
            (there,) = [n for n in client.networks.list(region="FRA1") if not n.default]
        assert (there.id, there.label) == (outputs["thereId"], "there")
        project("destroy", "--yes", "--skip-preview")
        with Client(api_key=other.api_key, api_url=other.api_url) as client:
            assert [n for n in client.networks.list(region="FRA1") if not n.default] == []
    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        client.networks.get(existing.id)  # read, not managed: still there
