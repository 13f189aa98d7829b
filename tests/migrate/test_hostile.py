"""``altostratus migrate`` on sources written to attack it: the files it writes hold the source's
values only as data (the program parses into nothing but its import and ``adopt`` declarations,
and running it writes nothing), a value it cannot write is refused in one line naming the
resource and the field, nothing it prints carries a control character, and no sensitive value
of any resource is written or printed."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from altostratus.cli import main
from altostratus.migrate import (
    FRONT_ENDS,
    MAX_DEPTH,
    FrontEnd,
    Migration,
    Source,
    SourceError,
    SourceResource,
    migrate,
    program_source,
    read_source,
    report_text,
    write_project,
)

from .hostile import (
    declarations,
    network,
    project_settings,
    pulumi,
    terminal_safe,
    terraform,
    write,
)

PAYLOAD = 'x"""; import pathlib; pathlib.Path("pwned").write_text("ran"); """'
"""Closes a docstring, writes a file, opens another string: the rest of the docstring."""


def run_migrate(
    capsys: pytest.CaptureFixture[str], source: Path, out: Path, *more: str
) -> tuple[int, str, str]:
    status = main(["migrate", str(source), "--out", str(out), *more])
    printed, errors = capsys.readouterr()
    assert terminal_safe(printed) and terminal_safe(errors), (printed, errors)
    assert "Traceback" not in errors
    return status, printed, errors


def refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, document: Any, *fragments: str
) -> str:
    """Migrating ``document`` fails in one line holding ``fragments``, writing nothing."""
    source = tmp_path / "state.json"
    source.write_text(document if isinstance(document, str) else json.dumps(document))
    out = tmp_path / "out"
    status, printed, errors = run_migrate(capsys, source, out)
    assert status == 1 and printed == ""
    lines = errors.splitlines()
    assert len(lines) == 1 and lines[0].startswith("altostratus: error: "), errors
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert not out.exists()
    return lines[0]


@pytest.mark.parametrize("front_end", sorted(FRONT_ENDS))
def test_quotes_in_the_project_stack_and_resource_names_stay_text(
    front_end: FrontEnd, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = pulumi(
        PAYLOAD,
        PAYLOAD,
        ("civo:index/network:Network", PAYLOAD, "n-1", {"label": PAYLOAD, "region": "LON1"}),
    )
    out = tmp_path / "out"
    source = write(tmp_path / "state.json", document)
    status, printed, _ = run_migrate(capsys, source, out, "--front-end", front_end)
    assert status == 0
    program = (out / "__main__.py").read_text(encoding="utf-8")
    ((_, resource, name, id_, inputs),) = declarations(program, FRONT_ENDS[front_end])
    assert (resource, name, id_, inputs) == ("Network", PAYLOAD, "n-1", {
        "label": PAYLOAD, "region": "LON1"
    })  # fmt: skip
    docstring = compile(program, "__main__.py", "exec").co_consts[0]
    assert f"the Pulumi stack {PAYLOAD}/{PAYLOAD}, adopted" in docstring
    settings = project_settings(out)
    assert settings["description"] == f"Resources adopted from the Pulumi stack {PAYLOAD}/{PAYLOAD}"
    assert (out / "migration-report.md").read_text(encoding="utf-8") in printed


def test_the_program_of_a_hostile_source_runs_writing_nothing(tmp_path: Path) -> None:
    """The program of names built to break out of its docstring, run as a user would run it
    with ``altostratus run --preview``, in a folder that stays as it was."""
    document = pulumi(
        PAYLOAD,
        "dev",
        ("civo:index/network:Network", "net", "n-1", {"label": "shop", "region": "LON1"}),
    )
    source = write(tmp_path / "state.json", document)
    out = tmp_path / "out"
    assert main(["migrate", str(source), "--out", str(out)]) == 0
    before = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*"))
    environment = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    answer = subprocess.run(
        [sys.executable, "-m", "altostratus", "run", str(out), "--preview"],
        cwd=out,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    after = sorted(str(path.relative_to(tmp_path)) for path in tmp_path.rglob("*"))
    assert after == before, answer.stdout + answer.stderr
    assert "net" in answer.stdout, answer.stdout + answer.stderr  # the program did run
    assert "Traceback" not in answer.stderr


def test_yaml_in_a_name_stays_the_description(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = "shop: x\" 'y' # main: evil.py {backend: file:///tmp} &a *a"
    document = pulumi(project, "dev", ("civo:index/network:Network", "net", "n-1", {}))
    out = tmp_path / "out"
    assert run_migrate(capsys, write(tmp_path / "state.json", document), out)[0] == 0
    settings = project_settings(out)
    assert settings["description"] == f"Resources adopted from the Pulumi stack {project}/dev"
    assert settings["name"] == "out"


@pytest.mark.parametrize("where", ["project", "stack", "resource"])
def test_a_newline_in_a_name_is_refused(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = "shop\nmain: evil.py\nbackend:\n  url: file:///tmp"
    names = {"project": "shop", "stack": "dev", "resource": "net", where: hostile}
    document = pulumi(
        names["project"],
        names["stack"],
        ("civo:index/network:Network", names["resource"], "n-1", {"label": "shop"}),
    )
    line = refused(capsys, tmp_path, document, "`urn` holds the control character U+000A")
    assert "shop\\nmain: evil.py" in line  # the resource named, escaped


def test_a_nul_byte_in_a_terraform_address_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = network()
    entry["address"] = "civo_network.ma\0in"
    refused(capsys, tmp_path, terraform(entry), "civo_network.ma\\x00in: `address` holds a NUL")


@pytest.mark.parametrize("size", ["NaN", "1e999", "-Infinity"])
def test_a_size_that_is_not_a_finite_number_is_refused(
    size: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = {
        "address": "civo_object_store.media",
        "type": "civo_object_store",
        "name": "media",
        "values": {"id": "s-1", "name": "media", "region": "LON1", "max_size_gb": 0},
    }
    text = json.dumps(terraform(store)).replace('"max_size_gb": 0', f'"max_size_gb": {size}')
    refused(capsys, tmp_path, text, "civo_object_store.media: `max_size_gb` is not a finite number")


@pytest.mark.parametrize(
    ("field", "escape", "said"),
    [
        ("label", "\x1b]0;owned\x07", "the control character U+001B"),
        ("region", "\x1b[2J", "the control character U+001B"),
        ("label", "a\u202eb", "the format character U+202E"),  # a right-to-left override
        ("label", "a\x85b", "the control character U+0085"),  # C1 NEL
        ("label", "a\u2028b", "the line separator U+2028"),
    ],
)
def test_terminal_escapes_in_a_value_are_refused_and_not_printed(
    field: str, escape: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(
        capsys, tmp_path, terraform(network(**{field: escape})), f"`{field}` holds {said}"
    )
    assert escape not in line


def test_terminal_escapes_in_what_is_not_carried_are_never_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An instance's script may hold any text: it is not written, nor printed."""
    instance = {
        "address": "civo_instance.api",
        "type": "civo_instance",
        "name": "api",
        "values": {
            "id": "i-1",
            "script": "#!/bin/sh\n\x1b]0;owned\x07\x1b[2J",
            "network_id": "n-1",
        },
    }
    out = tmp_path / "out"
    source = write(tmp_path / "state.json", terraform(network(), instance))
    status, printed, _ = run_migrate(capsys, source, out)
    assert status == 0 and "`civo_instance.api`, id `i-1`" in printed
    for written in out.iterdir():
        assert terminal_safe(written.read_text(encoding="utf-8")), written


def test_the_report_escapes_every_line_it_writes() -> None:
    """The report's own escaping, for text that reaches it by another way than the readers."""
    hostile = SourceResource("x\x1b[2J", "civo_instance", "x\x07\ny", "x", "i-1", {})
    carried = SourceResource("civo_network.a", "civo_network", "civo_network.a", "a", "n-1", {})
    migration = migrate(Source("terraform", "the state\x1b]0;t\x07", [carried, hostile]))
    report = report_text(migration, "__main__.py")
    assert terminal_safe(report)
    assert "- `x\\x07\\ny`, id `i-1`" in report and "the state\\x1b]0;t\\x07" in report


def test_a_sensitive_id_is_never_written_nor_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    secret = "d1c2-SENSITIVE-ID"
    instance = {
        "address": "civo_instance.api",
        "type": "civo_instance",
        "name": "api",
        "values": {"id": secret, "network_id": "n-1"},
        "sensitive_values": {"id": True},
    }
    hidden_network = network("hidden", secret)
    hidden_network["sensitive_values"] = {"id": True}
    data = {**network("looked_up", secret), "mode": "data"}
    data["address"] = "data.civo_network.looked_up"
    data["sensitive_values"] = {"id": True}
    document = terraform(network(), instance, hidden_network, data)
    out = tmp_path / "out"
    status, printed, errors = run_migrate(capsys, write(tmp_path / "state.json", document), out)
    assert status == 0
    for written in out.iterdir():
        assert secret not in written.read_text(encoding="utf-8"), written
    assert secret not in printed + errors
    assert (
        "- `civo_network.hidden`: the state marks its id sensitive, so it is neither written "
        "nor adopted." in printed
    )
    assert [d[1:4] for d in declarations((out / "__main__.py").read_text())] == [
        ("Network", "main", "n-1")
    ]


@pytest.mark.parametrize(
    ("document", "fragments"),
    [
        (terraform(network(label={"a": 1})), ["civo_network.main: `label` is not text"]),
        (terraform(network(label=["a"])), ["civo_network.main: `label` is not text"]),
        (terraform(network(nameservers_v4=5)), ["`nameservers_v4` is a number, not a list"]),
        (terraform(network(nameservers_v4=[5])), ["`nameservers_v4` is a number, not text"]),
        (terraform({**network(), "values": "id=n-1"}), ["`values` is text, not an object"]),
        (terraform({**network(), "depends_on": 5}), ["`depends_on` is a number, not a list"]),
        (terraform({**network(), "address": 5}), ["`address` is a number, not text"]),
        (terraform({**network(), "index": {}}), ["`index` is neither a number nor text"]),
        (terraform(network(id={"a": 1})), ["civo_network.main: `id` is an object, not text"]),
        (
            {"format_version": "1.0", "values": {"root_module": {"resources": 5}}},
            ["`values.root_module.resources` is a number, not a list"],
        ),
        (
            {"format_version": "1.0", "values": {"root_module": {"resources": [5]}}},
            ["`values.root_module.resources[0]` is a number, not an object"],
        ),
        (
            {"format_version": "1.0", "values": {"root_module": {"child_modules": "m"}}},
            ["`values.root_module.child_modules` is text, not a list"],
        ),
        (
            {"format_version": "1.0", "values": "none"},
            ["the state: `values` is text, not an object"],
        ),
        (
            terraform(
                {
                    "address": "civo_firewall.web",
                    "type": "civo_firewall",
                    "name": "web",
                    "values": {"id": "f-1", "name": "web", "ingress_rule": 5},
                }
            ),
            ["civo_firewall.web: `ingress_rule` is a number, not a list"],
        ),
        (
            terraform(
                {
                    "address": "civo_firewall.web",
                    "type": "civo_firewall",
                    "name": "web",
                    "values": {"id": "f-1", "ingress_rule": [{"id": "r", "label": {"x": 1}}]},
                }
            ),
            ["civo_firewall.web: `ingress_rule[1].label` is an object, not text"],
        ),
        (
            terraform(
                {
                    "address": "civo_firewall.web",
                    "type": "civo_firewall",
                    "name": "web",
                    "values": {"id": "f-1", "create_default_rules": "yes"},
                }
            ),
            ["civo_firewall.web: `create_default_rules` is not a boolean"],
        ),
        (
            terraform(
                {
                    "address": "civo_object_store.s",
                    "type": "civo_object_store",
                    "name": "s",
                    "values": {"id": "s-1", "max_size_gb": 2.5},
                }
            ),
            ["civo_object_store.s: `max_size_gb` is not a whole number"],
        ),
        (
            pulumi("p", "s", ("civo:index/network:Network", "net", "n-1", {"label": {}})),
            ["civo:index/network:Network net: `label` is not text"],
        ),
        ({"deployment": {"resources": [5]}}, ["`deployment.resources[0]` is a number"]),
        (
            {"deployment": {"resources": [{"urn": "u", "inputs": "x"}]}},
            ["u: `inputs` is text, not an object"],
        ),
        (
            {"deployment": {"resources": [{"urn": "u", "dependencies": 3, "custom": True}]}},
            ["u: `dependencies` is a number, not a list"],
        ),
        ({"deployment": {"resources": [{"urn": 7}]}}, ["`deployment.resources[0].urn` is a"]),
        ('{"format_version": "1.0", "x": ' + "1" * 5000 + "}", ["a number of more than"]),
        ("[" * 100_000 + "]" * 100_000, [f"nests deeper than {MAX_DEPTH} levels"]),
        (
            '{"format_version": "1.0", "values": {"root_module": {"resources": [{"values": '
            + '{"a": ' * 900
            + "1"
            + "}" * 900
            + "}]}}}",
            [f"nests deeper than {MAX_DEPTH} levels"],
        ),
    ],
    ids=lambda value: None if isinstance(value, list) else "",
)
def test_a_source_of_another_shape_is_refused_in_one_line(
    document: Any, fragments: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    refused(capsys, tmp_path, document, *fragments)


def test_deep_nesting_is_refused_by_the_library_as_a_source_error() -> None:
    with pytest.raises(SourceError, match="nests deeper"):
        read_source('{"deployment": ' + "[" * 100_000 + "]" * 100_000 + "}")


def test_two_resources_with_one_id_are_one_declaration_and_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = terraform(network("main", "n-1"), network("again", "n-1"), network("other", "n-2"))
    out = tmp_path / "out"
    status, printed, _ = run_migrate(capsys, write(tmp_path / "state.json", document), out)
    assert status == 0
    assert [d[1:4] for d in declarations((out / "__main__.py").read_text())] == [
        ("Network", "main", "n-1"),
        ("Network", "other", "n-2"),
    ]
    assert (
        "- civo_network.again holds the same record as civo_network.main (id `n-1`): one "
        "declaration adopts it, with the inputs of the first" in printed
    )
    assert "## Not carried" not in printed
    assert "  'civo_network.again' \\\n" in printed  # forgotten in the old state too


def test_a_firewall_with_the_id_of_another_keeps_its_rules_under_the_first() -> None:
    rule = {"id": "r-2", "protocol": "tcp", "port_range": "22", "cidr": ["10.0.0.0/8"]}
    firewalls = [
        {
            "address": f"civo_firewall.{name}",
            "type": "civo_firewall",
            "name": name,
            "values": {
                "id": "f-1",
                "name": "web",
                "network_id": "n-1",
                "create_default_rules": False,
                "ingress_rule": rules,
            },
        }
        for name, rules in (("web", []), ("copy", [rule]))
    ]
    migration: Migration = migrate(read_source(json.dumps(terraform(network(), *firewalls))))
    found = declarations(program_source(migration, "r.md"))
    assert [(d[1], d[3]) for d in found] == [
        ("Network", "n-1"),
        ("Firewall", "f-1"),
        ("FirewallRule", "r-2"),
    ]
    assert found[2][4]["firewall_id"] == "web.id"


def test_the_report_names_the_default_firewall_of_each_adopted_network(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    declared_default = {
        "address": "civo_firewall.own",
        "type": "civo_firewall",
        "name": "own",
        "values": {"id": "f-1", "name": "cache-default", "network_id": "n-2"},
    }
    document = terraform(
        network("main", "n-1", label="shop"),
        network("cache", "n-2", label="cache"),
        declared_default,
    )
    out = tmp_path / "out"
    status, printed, _ = run_migrate(capsys, write(tmp_path / "state.json", document), out)
    assert status == 0
    section = printed.split("## Firewalls outside the state\n\n", 1)[1].split("\n")[0]
    assert section.startswith(
        "The Terraform provider made a firewall named `<label>-default` on each network it "
        "created, which neither the old state nor `__main__.py` holds: `shop-default` on "
        "`main`. "
    )
    assert "cache-default" not in section  # the state declares it
    assert "deletes a network's firewalls with it" in section
    assert (
        'alto.Firewall.adopt("shop-default", "<its id>", alto.FirewallArgs(name="shop-default",'
        " network_id=main.id))" in section
    )


NAMES = st.text(max_size=12) | st.sampled_from([PAYLOAD, '"""', "\\", "'''", "#", "\n", "\x00"])
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | NAMES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
    max_leaves=6,
)


def accepted_or_refused(document: Any, values: dict[str, Any]) -> None:
    """The document migrates into a project of data only, or is refused in one safe line."""
    try:
        migration = migrate(read_source(json.dumps(document)))
    except SourceError as error:
        message = str(error)
        assert "\n" not in message and terminal_safe(message), message
        return
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        write_project(migration, out)
        program = (out / "__main__.py").read_text(encoding="utf-8")
        found = {(d[1], d[2]): d[4] for d in declarations(program)}
        settings = project_settings(out)
        assert settings["description"] == f"Resources adopted from {migration.source.title}"
        assert terminal_safe((out / "migration-report.md").read_text(encoding="utf-8"))
    network_inputs = found[("Network", values["name"] or "network")]
    for key in ("label", "region"):
        if isinstance(values[key], str) and values[key]:
            assert network_inputs[key] == values[key]
        else:
            assert key not in network_inputs


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=NAMES, label=VALUES, region=VALUES, servers=VALUES, size=VALUES, rule=VALUES)
def test_fuzzed_terraform_states_are_written_as_data_or_refused(
    name: str, label: Any, region: Any, servers: Any, size: Any, rule: Any
) -> None:
    entry = {
        "address": f"civo_network.{name}",
        "type": "civo_network",
        "name": name,
        "values": {"id": "n-1", "label": label, "region": region, "nameservers_v4": servers},
    }
    store = {
        "address": "civo_object_store.s",
        "type": "civo_object_store",
        "name": "s",
        "values": {"id": "s-1", "name": label, "max_size_gb": size},
    }
    firewall = {
        "address": "civo_firewall.f",
        "type": "civo_firewall",
        "name": "f",
        "values": {"id": "f-1", "network_id": "n-1", "ingress_rule": [rule]},
    }
    document = terraform(entry, store, firewall)
    accepted_or_refused(document, {"name": name, "label": label, "region": region})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(project=NAMES, stack=NAMES, name=NAMES, label=VALUES, region=VALUES)
def test_fuzzed_pulumi_exports_are_written_as_data_or_refused(
    project: str, stack: str, name: str, label: Any, region: Any
) -> None:
    inputs = {"label": label, "region": region}
    document = pulumi(project, stack, ("civo:index/network:Network", name, "n-1", inputs))
    urn_name = f"urn:pulumi:{stack}::{project}::civo:index/network:Network::{name}"
    resource = urn_name.split("::", 3)[-1] if urn_name.count("::") >= 3 else urn_name
    accepted_or_refused(document, {"name": resource, "label": label, "region": region})


def test_a_lone_surrogate_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = json.dumps(terraform(network(label="LABEL"))).replace("LABEL", "a\\ud800b")
    refused(capsys, tmp_path, text, "`label` holds the lone surrogate U+D800")


def _fixtures() -> list[Any]:
    from .estates import placeholders, templated

    return [
        json.loads(templated(name, {key: f"<{key}>" for key in placeholders(name)}))
        for name in ("terraform-show.json", "pulumi-stack-export.json")
    ]


FIXTURES = _fixtures()


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fixtures_with_any_part_replaced_are_written_as_data_or_refused(data: Any) -> None:
    """Each real-shaped state with up to three parts swapped for values of any shape."""
    document = json.loads(json.dumps(data.draw(st.sampled_from(FIXTURES))))
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(_paths(document)[1:]))
        node = document
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = data.draw(VALUES)
    try:
        migration = migrate(read_source(json.dumps(document)))
    except SourceError as error:
        assert "\n" not in str(error) and terminal_safe(str(error)), str(error)
        return
    declarations(program_source(migration, "migration-report.md"))
    assert terminal_safe(report_text(migration, "__main__.py"))


def test_a_resource_whose_every_value_is_sensitive_is_not_adopted() -> None:
    entry = {**network(id_="n-SECRET", label="hidden-label"), "sensitive_values": True}
    migration = migrate(read_source(json.dumps(terraform(network("other", "n-2"), entry))))
    written = program_source(migration, "r.md") + report_text(migration, "__main__.py")
    assert "n-SECRET" not in written and "hidden-label" not in written
    assert [d.id for d in migration.declarations] == ["n-2"]


def test_the_report_of_a_migration_adopting_nothing_says_so() -> None:
    migration = migrate(read_source(json.dumps(terraform())))
    assert "# nothing adopted, nothing to forget" in report_text(migration, "__main__.py")
