"""The API reference: every input and output of every resource has its entry, with nothing
private in a signature; the client's collections list their methods; the testing page opens on a
summary."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from altostratus.providers._inputs import inputs_of
from tools import reference
from tools.codegen import _nested_args, _resources

ROOT = Path(__file__).resolve().parents[1]


def test_the_generated_reference_is_current() -> None:
    page = reference.PAGE.read_text(encoding="utf-8")
    assert reference.rewritten(page) == page, "run python -m tools.reference"


def table_rows(page: str, anchor: str) -> list[str]:
    """The first column's names of the table after ``<a id="anchor">``."""
    start = page.index(f'<a id="{anchor}"></a>')
    rows: list[str] = []
    for line in page[start:].splitlines()[2:]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        found = re.match(r"\| `(\w+)`", line)
        if found:
            rows.append(found[1])
    return rows


def test_every_input_and_output_of_every_resource_has_its_row() -> None:
    page = reference.PAGE.read_text(encoding="utf-8")
    documented = declared = 0
    for resource in _resources():
        key = resource.__name__.lower()
        inputs = [field.name for field in inputs_of(resource._args_class)]
        outputs = list(resource._output_names)
        assert table_rows(page, f"{key}-inputs") == inputs, resource.__name__
        assert table_rows(page, f"{key}-outputs") == outputs, resource.__name__
        documented += len(table_rows(page, f"{key}-inputs")) + len(
            table_rows(page, f"{key}-outputs")
        )
        declared += len(inputs) + len(outputs)
    assert documented == declared > 100
    for nested in _nested_args():
        assert f"## {nested.__name__}\n" in page


def test_a_required_input_is_shown_without_a_default_and_secrets_are_marked() -> None:
    page = reference.PAGE.read_text(encoding="utf-8")
    assert "    firewall_id: pulumi.Input[str],\n" in page  # FirewallRuleArgs: required
    assert "| `firewall_id` | `str` | required | replaces | no |" in page
    assert re.search(r"\| `secret_access_key` \| `str` \| yes \|", page)
    assert "arg(" not in page and "_validate" not in page and "metadata=" not in page


@pytest.mark.slow
def test_the_built_site_shows_no_private_helper_and_every_collection_method(
    tmp_path: Path,
) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr
    pages = {p.parent.name: p.read_text() for p in (tmp_path / "reference").glob("*/index.html")}
    for name, html in pages.items():
        for private in ("_validate", "arg(", "field(metadata", "required("):
            assert private not in html, (name, private)
    methods = set(re.findall(r'id="altostratus\.client\.\w+\.(\w+API\.\w+)"', pages["client"]))
    for collection in ("NetworksAPI", "FirewallsAPI", "LoadBalancersAPI", "ObjectStoresAPI"):
        for verb in ("create", "get", "list", "update", "delete"):
            assert f"{collection}.{verb}" in methods
    article = pages["testing"].split("<article", 1)[1]
    first = re.search(r"<p>(.*?)</p>", article, re.DOTALL)
    assert first is not None and len(re.sub(r"<[^>]+>", "", first[1]).split()) < 120


def test_every_row_says_what_its_input_or_output_is() -> None:
    page = reference.PAGE.read_text(encoding="utf-8")
    rows = [line for line in page.splitlines() if re.match(r"\| `\w+`", line)]
    undescribed = [row.split("|")[1].strip() for row in rows if row.rstrip().endswith("|  |")]
    assert rows and undescribed == []
