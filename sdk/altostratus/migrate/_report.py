"""The migration report: what the program adopts, what it could not carry, the firewalls the
old provider made outside its state, and the commands that finish the move (the source tool's,
to forget the resources without deleting them). Every line is written escaped (``_checks``):
the report is printed to a terminal as it is written."""

from __future__ import annotations

from altostratus._terminal import escaped
from altostratus.migrate._declarations import Reference
from altostratus.migrate._plan import Left, Migration
from altostratus.migrate._program import FRONT_ENDS, FrontEnd, string
from altostratus.migrate._source import SourceResource


def _count(number: int, thing: str) -> str:
    return f"{number} {thing}" if number == 1 else f"{number} {thing}s"


def _names(resources: tuple[SourceResource, ...], carried: set[int]) -> str:
    return ", ".join(
        f"`{r.label}`" + (" (adopted)" if id(r) in carried else " (not carried)") for r in resources
    )


def _left_line(left: Left, carried: set[int]) -> str:
    resource = left.resource
    line = f"- `{resource.label}`" + (f", id `{resource.id}`" if resource.id else "")
    line += f": {left.reason}."
    if left.uses:
        line += f" It uses {_names(left.uses, carried)}"
        if any(id(r) in carried for r in left.uses):
            line += ": keep what the program adopts while it does"
        line += "."
    if left.used_by:
        line += f" Used by {_names(left.used_by, carried)}."
    return line


def _quoted(text: str) -> str:
    """Single-quoted for a POSIX shell, as both tools' documentation quotes addresses."""
    return "'" + text.replace("'", "'\\''") + "'"


def _forget_commands(migration: Migration) -> list[str]:
    """The source tool's commands that drop the adopted resources from its state, dependents
    first, without deleting them."""
    addresses = [_quoted(r.address) for r in reversed(migration.carried)]
    if not addresses:
        return ["# nothing adopted, nothing to forget"]
    if migration.source.tool == "terraform":
        return [
            "terraform state rm \\",
            *(f"  {a} \\" for a in addresses[:-1]),
            f"  {addresses[-1]}",
        ]
    stack = migration.carried[0].address.split("::")[0].removeprefix("urn:pulumi:")
    return [f"pulumi state delete --stack {_quoted(stack)} {address}" for address in addresses]


def _default_firewalls(migration: Migration, program_name: str) -> list[str]:
    """What the report says of the ``<label>-default`` firewall that the service's Terraform
    provider (and the bridged provider built on it) makes on every network it creates, with a
    second call, and never records in the state."""
    declared = {
        d.inputs.get("name")
        for d in migration.declarations
        if d.resource == "Firewall" and isinstance(d.inputs.get("network_id"), Reference)
    }
    networks = []
    for d in migration.declarations:
        label = d.inputs.get("label")
        name = f"{label}-default" if isinstance(label, str) else "<label>-default"
        if d.resource == "Network" and name not in declared:
            networks.append((d, name))
    if not networks:
        return []
    listed = ", ".join(f"`{name}` on `{d.variable}`" for d, name in networks)
    network, name = networks[0]
    adopt = (
        f'alto.Firewall.adopt({string(name)}, "<its id>", '
        f"alto.FirewallArgs(name={string(name)}, network_id={network.variable}.id))"
    )
    return [
        "",
        "## Firewalls outside the state",
        "",
        f"The {'Terraform' if migration.source.tool == 'terraform' else 'bridged'} provider "
        "made a firewall named `<label>-default` on each network it created, which neither "
        f"the old state nor `{program_name}` holds: {listed}. The adoption leaves each as it is, "
        "and what the old tool still manages may use it. The service deletes a network's "
        "firewalls with it, so destroying an adopted network (`pulumi destroy`, or its "
        "declaration removed) deletes that firewall and its rules too. To manage one with "
        f"the stack instead, declare it as well (`{adopt}`, its id from "
        f"`alto.get_firewall(name={string(name)})` or `civo firewall ls`).",
    ]


_FRONT_END_NAMES: dict[FrontEnd, str] = {
    "dynamic": "the dynamic resources",
    "plugin": "the provider plugin",
}


def _plugin_step(front_end: FrontEnd) -> str:
    """What the first step adds for the plugin: the engine must find it."""
    if front_end != "plugin":
        return ""
    return (
        " Install the provider plugin with the environment the program runs in: "
        "`pulumi install`, then `venv/bin/altostratus plugin install` (or activate that "
        "environment, which puts the plugin on `PATH`)."
    )


def report_text(migration: Migration, program_name: str, *, front_end: FrontEnd = "dynamic") -> str:
    """The report of ``migration``, whose program ``program_name`` declares its resources
    through ``front_end``."""
    source = migration.source
    carried = {id(r) for r in migration.carried}
    lines = [
        "# Migration report",
        "",
        f"From {source.title}: {_count(len(source.resources), 'resource')}"
        + (f" and {_count(len(source.lookups), 'data source')}" if source.lookups else "")
        + f". `{program_name}` adopts {_count(len(migration.declarations), 'resource')}"
        + f" from {len(carried)} of them; {len(migration.left)} not carried.",
        "",
        f"Front end: {_FRONT_END_NAMES[front_end]} (`import {FRONT_ENDS[front_end]} as alto`).",
        "",
        "## Adopted",
        "",
        "| source | program | id |",
        "|---|---|---|",
    ]
    for d in migration.declarations:
        cells = (f"`{d.label}`", f"`{d.variable}`: `{d.resource}` `{d.name}`", f"`{d.id}`")
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |")
    if migration.left:
        lines += ["", "## Not carried", ""]
        lines += [_left_line(left, carried) for left in migration.left]
    if source.lookups:
        lines += ["", "## Read-only lookups (data sources), not carried", ""]
        for lookup in source.lookups:
            hint = migration.lookup_hint(lookup)
            read = f": read it with `{hint}`" if hint else ""
            lines.append(f"- `{lookup.label}`{read}")
    lines += _default_firewalls(migration, program_name)
    if migration.notes:
        lines += ["", "## Notes", ""]
        lines += [f"- {note}" for note in migration.notes]
    lines += [
        "",
        "## Next steps",
        "",
        f"1. Review `{program_name}`; set the stack's `altostratus:apiKey` (as a secret)."
        + _plugin_step(front_end),
        "2. `pulumi preview`: every resource shows as a create (`+`), which is its adoption; "
        "there must be no replace and no delete.",
        "3. `pulumi up`: each record is adopted as it is, or the `up` fails naming the inputs "
        "that differ, changing nothing.",
        "4. Forget the adopted resources in the old "
        + ("Terraform state" if source.tool == "terraform" else "stack")
        + ", without deleting them:",
        "",
        "```sh",
        *_forget_commands(migration),
        "```",
    ]
    if source.tool == "pulumi" and any(left.uses for left in migration.left):
        lines += [
            "",
            "   `pulumi state delete` refuses a resource that another still depends on: first "
            "make what stays in the old program refer to the adopted resources by id.",
        ]
    return "\n".join(escaped(line) for line in lines) + "\n"
