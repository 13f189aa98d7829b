"""The README's stack moved from the dynamic resources to the plugin under the real engine: one
``pulumi up`` after changing the import, with no replace and no delete, every id kept, only
reads sent to the service, and a clean preview after (docs/plugin.md, "Moving a stack")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from altostratus.emulator import Emulator
from tests.support.account import leftovers
from tests.support.doc_pages import section
from tests.support.pulumi_cli import Project

pytestmark = [pytest.mark.real_engine, pytest.mark.timeout(600)]

README_PROGRAM = re.findall(
    r"```python\n(.*?)```", section("README.md", "### With the Pulumi CLI"), re.DOTALL
)[0]
DYNAMIC_IMPORT = "import altostratus as alto\n"
PLUGIN_IMPORT = "import altostratus.plugin as alto\n"


def ids(project: Project) -> dict[str, str]:
    return {
        r["urn"].split("::")[-1] + ":" + r["type"].rsplit(":", 1)[-1]: r["id"]
        for r in project.export()["deployment"]["resources"]
        if r.get("custom") and not r["type"].startswith("pulumi:providers:")
    }


def test_the_readme_stack_moves_to_the_plugin_in_one_up_keeping_every_id(
    fresh_emulator: Emulator, tmp_path: Path
) -> None:
    source = tmp_path / "source" / "app"
    source.mkdir(parents=True)
    (source / "Pulumi.yaml").write_text("name: app\nruntime: python\n")
    assert README_PROGRAM.startswith(DYNAMIC_IMPORT)
    (source / "__main__.py").write_text(README_PROGRAM)
    project = Project(source, tmp_path / "work", fresh_emulator)
    project.init()
    project("up", "--yes", "--skip-preview")
    before = ids(project)
    assert len(before) == 8

    main = project.dir / "__main__.py"
    main.write_text(README_PROGRAM.replace(DYNAMIC_IMPORT, PLUGIN_IMPORT, 1))
    planned = project.operations()
    assert not set(planned.values()) & {"replace", "create-replacement", "delete"}
    fresh_emulator.clear_requests()
    project("up", "--yes", "--skip-preview")
    sent = {entry["method"] for entry in fresh_emulator.requests()}
    assert sent <= {"GET"}, sent
    after = ids(project)
    types = {r["type"] for r in project.export()["deployment"]["resources"] if r.get("custom")}
    assert {t for t in types if not t.startswith("pulumi:")} == {
        f"altostratus:index:{name}"
        for name in (
            "Network",
            "Firewall",
            "FirewallRule",
            "LoadBalancer",
            "ReservedIp",
            "ObjectStoreCredential",
            "ObjectStore",
            "Webhook",
        )
    }
    assert sorted(after.values()) == sorted(before.values())
    project("preview", "--expect-no-changes")
    project("refresh", "--yes", "--expect-no-changes")
    project("destroy", "--yes", "--skip-preview")
    assert leftovers(fresh_emulator) == {}
