from __future__ import annotations

import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path

import pytest

import altostratus
import altostratus.client
import altostratus.providers
import altostratus.testing
from altostratus import _exports
from altostratus._version import requirement
from altostratus.client import errors


def test_the_package_exports_every_resource_args_class_and_error_and_the_client() -> None:
    exported = set(altostratus.__all__)
    error_classes = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type) and issubclass(value, errors.AltostratusError)
    }
    assert set(altostratus.providers.__all__) <= exported
    assert error_classes <= exported
    assert {"Client", "__version__"} <= exported


@pytest.mark.parametrize("package", [altostratus, altostratus.client, altostratus.testing])
def test_every_public_name_is_listed_once_and_resolves_to_its_home(package: object) -> None:
    source = Path(inspect.getfile(package)).read_text(encoding="utf-8")  # type: ignore[arg-type]
    homes = _exports.declared_exports(source)
    for name, home in homes.items():
        assert getattr(package, name) is getattr(importlib.import_module(home), name)
    assert set(homes) <= set(package.__all__)  # type: ignore[attr-defined]
    assert sorted(dir(package)) == sorted(package.__all__)  # type: ignore[attr-defined]


def test_resources_are_the_pulumi_resources_not_the_client_models() -> None:
    assert altostratus.Network is altostratus.providers.Network
    assert altostratus.Network is not altostratus.client.Network


def test_importing_the_package_or_its_command_line_does_not_import_pulumi() -> None:
    code = "import altostratus, altostratus.cli, sys; print('pulumi' in sys.modules)"
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "False"


def test_an_unknown_name_raises_attribute_error() -> None:
    with pytest.raises(AttributeError, match="Nope"):
        altostratus.Nope  # type: ignore[attr-defined]  # noqa: B018


def test_loading_the_resources_does_not_load_the_http_client() -> None:
    """A Pulumi program imports the resources but never calls the API itself."""
    code = (
        "import sys, altostratus as alto; alto.Network; alto.Webhook; "
        "print(sorted(m for m in ('httpx', 'altostratus.client._client') if m in sys.modules))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "[]"


def test_a_program_through_the_plugin_loads_neither_the_client_nor_its_models() -> None:
    """``altostratus.plugin``'s resources go through the plugin's process; its lookups, and the
    client's models and pydantic with them, load on first use."""
    code = (
        "import sys, altostratus.plugin as alto; alto.Network; alto.Provider; "
        "print(sorted(m for m in ('httpx', 'pydantic', 'altostratus.lookups') if m in sys.modules))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "[]"
    used = (
        "import altostratus.plugin as alto; "
        "print(alto.get_network.__name__, alto.GetNetworkResult.__name__)"
    )
    answer = subprocess.run(
        [sys.executable, "-c", used], capture_output=True, text=True, check=True
    )
    assert answer.stdout.split() == ["get_network", "GetNetworkResult"]


ROOT = Path(__file__).resolve().parent.parent


def declared_version() -> str:
    """pyproject.toml's ``version``: the one place the version is written."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^\[project\]$.*?^version = "([^"]+)"$', text, re.MULTILINE | re.DOTALL)
    assert found is not None
    return found[1]


def test_the_version_is_pyprojects_in_the_package_the_command_and_the_changelog() -> None:
    version = declared_version()
    assert altostratus.__version__ == version
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", "--version"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert answer.stdout.strip() == f"altostratus {version}"
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert re.search(rf"^## \[{re.escape(version)}\]", changelog, re.MULTILINE), (
        f"CHANGELOG.md has no entry for {version}"
    )
    assert "## [Unreleased]" in changelog


def test_the_version_is_written_in_pyproject_only() -> None:
    """No module writes the version by hand: it is read from the installed metadata."""
    written = re.compile(rf"""__version__\s*=\s*["']{re.escape(declared_version())}["']""")
    sources = (ROOT / "sdk" / "altostratus").rglob("*.py")
    assert [str(path) for path in sources if written.search(path.read_text("utf-8"))] == []


def test_the_examples_and_migrated_projects_require_the_pulumi_the_package_claims() -> None:
    """The oldest Pulumi claimed is the one .ci/run tests; the examples claim no older one."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    found = re.search(r'^    "(pulumi[^"]+)",$', text, re.MULTILINE)
    assert found is not None
    for requirements in sorted((ROOT / "examples").glob("*/requirements.txt")):
        lines = requirements.read_text(encoding="utf-8").splitlines()
        assert found[1] in lines, requirements
    written = requirement("pulumi")
    assert written is not None
    assert sorted(written.removeprefix("pulumi").split(",")) == sorted(
        found[1].removeprefix("pulumi").split(",")
    )


def test_the_long_description_has_no_link_an_index_page_cannot_follow() -> None:
    """The README is the package's description on its index page, where a link relative to the
    source (``](docs/ci.md)``) leads nowhere."""
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    targets = re.findall(r"\]\(([^)\s]+)", readme)
    assert [t for t in targets if not re.match(r"https?://|#", t)] == []


def test_the_classifiers_name_each_python_the_ci_tests_and_only_those() -> None:
    root = Path(__file__).resolve().parents[1]
    metadata = (root / "pyproject.toml").read_text()
    named = sorted(re.findall(r'^ +"Programming Language :: Python :: (3\.\d+)",$', metadata, re.M))
    loop = re.search(r"^ *for minor in ([\d ]+); do", (root / ".ci" / "run").read_text(), re.M)
    assert loop is not None
    tested = [f"3.{minor}" for minor in loop[1].split()]
    assert named == [v for v in tested if v != "3.14"] == ["3.10", "3.11", "3.12", "3.13"]
    assert 'requires-python = ">=3.10"' in metadata
