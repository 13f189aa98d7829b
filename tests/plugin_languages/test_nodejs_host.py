"""The Node.js language host of the test engine (``tools/engine/nodehost``) keeps the published
host's contract with the engine and the SDK: the stack's configuration reaches the program, its
secrets stay secret, a preview runs the program as a dry run, and a program's error is shown once,
as the SDK wrote it (the run script's exit code 32), not as a bare exit code."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from altostratus.emulator import Emulator
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(300)]

PROGRAM = """\
import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
if (config.get("fail")) {
    throw new Error(`the program failed on purpose: ${config.get("fail")}`);
}
export const stack = pulumi.getStack();
export const greeting = `${config.require("greeting")} from ${pulumi.getProject()}`;
export const token = config.requireSecret("token");
export const dryRun = pulumi.runtime.isDryRun();
"""


def project(work: Path, emulator: Emulator, modules: Path) -> Project:
    source = work / "source" / "host-check"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text("name: host-check\nruntime: nodejs\n")
    (source / "package.json").write_text('{"name": "host-check", "main": "index.ts"}\n')
    (source / "index.ts").write_text(PROGRAM)
    made = Project(source, work, emulator)
    (made.dir / "node_modules").symlink_to(modules, target_is_directory=True)
    made("stack", "init", "dev")
    made("config", "set", "greeting", "hello")
    made("config", "set", "--secret", "token", "s3cr3t-t0ken")
    return made


def test_a_typescript_program_gets_its_configuration_and_keeps_its_secrets(
    tmp_path: Path, emulator: Emulator, typescript_modules: Path
) -> None:
    stack = project(tmp_path, emulator, typescript_modules)
    preview = stack("preview")
    assert re.search(r"^ +dryRun +: true$", preview, re.MULTILINE), preview
    assert re.search(r"^ +token +: \[secret\]$", preview, re.MULTILINE), preview

    stack("up", "--yes", "--skip-preview")
    shown = json.loads(stack("stack", "output", "--json"))
    assert shown == {
        "stack": "dev",
        "greeting": "hello from host-check",
        "token": "[secret]",
        "dryRun": False,
    }
    assert json.loads(stack("stack", "output", "--json", "--show-secrets"))["token"] == (
        "s3cr3t-t0ken"
    )
    assert "s3cr3t-t0ken" not in json.dumps(stack.export())


def test_a_program_s_error_is_shown_once_as_the_sdk_wrote_it(
    tmp_path: Path, emulator: Emulator, typescript_modules: Path
) -> None:
    stack = project(tmp_path, emulator, typescript_modules)
    stack("config", "set", "fail", "yes")
    failed = stack("up", "--yes", "--skip-preview", ok=False)
    assert failed.count("the program failed on purpose: yes") == 1, failed
    assert "non-zero exit code" not in failed


def test_pulumi_install_installs_a_typescript_project_s_packages(
    tmp_path: Path, emulator: Emulator
) -> None:
    """``pulumi install`` runs npm in the project (here on a package of the project's own, so no
    registry is asked) and shows what npm printed."""
    source = tmp_path / "source" / "install-check"
    (source / "greeting").mkdir(parents=True)
    (source / "greeting" / "package.json").write_text(
        '{"name": "greeting", "version": "1.0.0", "main": "index.js"}\n'
    )
    (source / "greeting" / "index.js").write_text('exports.text = "hello";\n')
    (source / "Pulumi.yaml").write_text("name: install-check\nruntime: nodejs\n")
    (source / "package.json").write_text(
        '{"name": "install-check", "dependencies": {"greeting": "file:./greeting"}}\n'
    )
    made = Project(source, tmp_path, emulator)
    printed = made("install")
    assert (made.dir / "node_modules" / "greeting" / "index.js").is_file()
    assert "added 1 package" in printed
