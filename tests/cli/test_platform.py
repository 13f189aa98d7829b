"""The platform commands (``cli platform-env``, ``cluster``, ``platform-app``,
``platform-app-deployment``) against the emulator, as a user runs them; stdin is no terminal."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from altostratus.cli import main
from altostratus.emulator import Emulator
from tests.support.pseudo_terminal import Terminal


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv), prog="cli")
    out, err = capsys.readouterr()
    return code, out, err


def payload(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def test_clusters_are_the_organizations_one_per_region(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    clusters = payload(capsys, "cluster", "list")
    assert isinstance(clusters, list)
    assert {"name": "lon1-managed", "region": "LON1"}.items() <= clusters[0].items()
    code, out, _ = run(capsys, "cluster", "list")
    assert code == 0 and out.split()[:4] == ["name", "region", "kubernetes_version", "status"]


def test_an_environment_is_created_attached_detached_and_deleted(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    made = payload(capsys, "platform-env", "create", "--name", "dev", "--description", "d")
    assert made == {**made, "name": "dev", "namespace": "default", "clusters": []}
    attached = payload(capsys, "platform-env", "attach", "dev", "--cluster", "lon1-managed")
    assert attached["clusters"] == ["lon1-managed"]  # type: ignore[index]
    again = payload(capsys, "platform-env", "attach", "dev", "--cluster", "fra1-managed")
    assert again["clusters"] == ["lon1-managed", "fra1-managed"]  # type: ignore[index]
    detached = payload(
        capsys, "platform-env", "detach", "--name", "dev", "--cluster", "lon1-managed"
    )
    assert detached["clusters"] == ["fra1-managed"]  # type: ignore[index]
    got = payload(capsys, "platform-env", "get", "dev")
    assert got == {**detached, "description": "d"}  # type: ignore[dict-item]
    listed = payload(capsys, "platform-env", "list")
    assert listed == [got]
    code, out, _ = run(capsys, "platform-env", "delete", "dev", "--yes")
    assert code == 0 and "Deleted" in out
    assert payload(capsys, "platform-env", "list") == []
    # Every call went to the /api/v1 paths of the spec's table.
    paths = {(entry["method"], entry["path"]) for entry in cli_env.requests()}
    assert ("PUT", "/api/v1/environment") in paths
    assert ("DELETE", "/api/v1/environment/default/dev") in paths


def test_an_unknown_cluster_is_refused_with_the_ones_there_are(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "platform-env", "create", "dev", "--cluster", "nowhere")
    assert code == 1
    (line,) = err.splitlines()
    assert "No managed cluster 'nowhere'" in line and "lon1-managed" in line


def test_a_delete_without_yes_and_without_a_terminal_names_the_flag(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "platform-env", "create", "dev")[0] == 0
    code, _, err = run(capsys, "platform-env", "delete", "dev")
    assert code == 1 and "confirm with --yes" in err
    assert len(payload(capsys, "platform-env", "list")) == 1  # type: ignore[arg-type]


def test_an_application_is_registered_deployed_and_becomes_healthy_on_the_clock(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "platform-env", "create", "prod", "--cluster", "lon1-managed")
    repository = "https://example.com/shop.git"
    made = payload(capsys, "platform-app", "register", "shop", "--repository", repository)
    assert made == {**made, "name": "shop", "branch": "main", "repository": repository}
    assert payload(capsys, "platform-app", "list") == [made]
    assert payload(capsys, "platform-app", "get", "--name", "shop") == made
    deployed = payload(capsys, "platform-app", "deploy", "shop", "--environment", "prod")
    assert deployed["status"] == "pending"  # type: ignore[index]
    cli_env.advance_clock(6)
    got = payload(capsys, "platform-app-deployment", "get", "shop")
    assert got["status"] == "progressing"  # type: ignore[index]
    cli_env.advance_clock(30)
    (listed,) = payload(capsys, "platform-app-deployment", "list")  # type: ignore[misc]
    assert (listed["status"], listed["clusters"]) == ("healthy", ["lon1-managed"])
    code, out, _ = run(capsys, "platform-app-deployment", "list")
    assert code == 0
    assert out.split()[4:] == ["shop", "prod", "HEAD", "healthy"]


def test_a_deploy_to_an_environment_without_a_cluster_says_to_attach_one(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "platform-env", "create", "bare")
    run(capsys, "platform-app", "register", "api", "--repository", "https://example.com/a.git")
    code, _, err = run(capsys, "platform-app", "deploy", "api", "--environment", "bare")
    assert code == 1 and "has no cluster attached; attach one first" in err


def test_a_404_reads_as_a_hint_to_check_the_name_and_the_organization(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "platform-env", "get", "missing")
    assert code == 1
    (line,) = err.splitlines()
    assert line.startswith("cli: error: 404")
    assert line.endswith(
        "check the app name and the organization ('default'; another one with --org or CLI_ORG)"
    )
    code, _, err = run(capsys, "cluster", "list", "--org", "elsewhere")
    assert code == 1 and "No organization 'elsewhere'" in err and "check the app name" in err


def test_without_an_organization_a_platform_command_names_the_ways_to_give_one(
    cli_env: Emulator, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("CLI_ORG")
    code, _, err = run(capsys, "cluster", "list")
    assert code == 1 and "no organization: pass --org, set CLI_ORG" in err


def test_at_a_terminal_the_organization_is_asked_for(cli_env: Emulator, tmp_path: Path) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "CLI_ORG"}
    with Terminal(["cluster", "list", "--json"], environ) as terminal:
        terminal.expect("Organization: ")
        terminal.send("default")
        output = terminal.finish()
    assert terminal.status == 0
    assert '"name": "lon1-managed"' in output


def test_at_a_terminal_a_declined_delete_deletes_nothing_and_succeeds(
    cli_env: Emulator, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "platform-env", "create", "keep")
    with Terminal(["platform-env", "delete", "keep"], dict(os.environ)) as terminal:
        terminal.expect("[y/N] ")
        terminal.send("n")
        output = terminal.finish()
    assert terminal.status == 0 and "Nothing deleted." in output
    assert len(payload(capsys, "platform-env", "list")) == 1  # type: ignore[arg-type]
