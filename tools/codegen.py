"""The resources' typed constructors, the nested inputs' typed dicts and the lookups' results.

A type checker cannot read a constructor's keywords off a dataclass, so, as in Pulumi's generated
SDKs, each resource carries an ``__init__`` that lists its inputs with their types (given as
keywords, or as an ``<Name>Args`` object), and each nested ``Args`` class (one that is not a
resource's) a ``TypedDict`` twin, ``<Name>ArgsDict``. One signature takes both forms, rather than
an ``@overload`` per form: with overloads, type checkers report a wrong input as "no overload
matches" without naming it. Both are generated from the ``Args`` dataclasses, the one
declaration of every input. A lookup's result (``Get<Name>Result``) is generated from the
resource's outputs, the annotated ``pulumi.Output`` attributes of its class: the same names, each
a plain value or None, and an ``Output`` for the ones the resource keeps secret. The code goes
into the blocks between ``# <generated: KEY>`` and ``# </generated>`` of the resource and lookup
modules:

    python -m tools.codegen          # rewrite the blocks
    python -m tools.codegen --check  # exit 1 when a block is stale

The blocks are written in ruff's format (ruff is a development dependency), and a test runs the
check. A new block is added by writing its two marker lines (the key is
``<Resource>.__init__`` inside the class, or ``<Name>ArgsDict`` or ``Get<Resource>Result`` at
module level) and running the command.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from altostratus import providers
from altostratus.providers._inputs import inputs_of
from altostratus.providers._resource import AltostratusResource

_BLOCK = re.compile(
    r"^(?P<indent> *)# <generated: (?P<key>[\w.]+)>\n.*?^(?P=indent)# </generated>\n",
    re.MULTILINE | re.DOTALL,
)
_OPTIONAL = " | None"
_OUTPUT = re.compile(r"pulumi\.Output\[(?P<value>.+)\]")


def _resources() -> list[type[AltostratusResource[Any]]]:
    found = (getattr(providers, name) for name in providers.__all__)
    return [cls for cls in found if isinstance(cls, type) and issubclass(cls, AltostratusResource)]


def _nested_args() -> list[type[Any]]:
    resource_args = {resource._args_class for resource in _resources()}
    found = (getattr(providers, name) for name in providers.__all__ if name.endswith("Args"))
    return [cls for cls in found if cls not in resource_args]


def _lookup_results() -> list[tuple[type[AltostratusResource[Any]], type[Any]]]:
    """Each resource that has a lookup, with its lookup's result class."""
    from altostratus import lookups

    found = {f"Get{cls.__name__}Result": cls for cls in _resources()}
    return [(found[name], getattr(lookups, name)) for name in lookups.__all__ if name in found]


def _annotation(field: dataclasses.Field[Any]) -> str:
    if not isinstance(field.type, str):
        raise TypeError(f"{field.name}: annotations are expected as text (postponed evaluation)")
    return field.type


def _optional(field: dataclasses.Field[Any]) -> str:
    """The field's type as a keyword of the constructor, where every input may be left out
    (the check names a missing required one), as in Pulumi's generated SDKs."""
    annotation = _annotation(field)
    return annotation if annotation.endswith(_OPTIONAL) else annotation + _OPTIONAL


def _required(annotation: str) -> str:
    return annotation.removesuffix(_OPTIONAL)


def constructor(resource: type[AltostratusResource[Any]]) -> str:
    """The ``__init__`` of a resource class: an ``Args`` object, or the inputs as keywords."""
    args = resource._args_class.__name__
    fields = dataclasses.fields(resource._args_class)
    aliases = [
        (field, rules.alias)
        for field, rules in zip(fields, inputs_of(resource._args_class), strict=True)
        if rules.alias
    ]
    return "\n".join(
        [
            "    def __init__(",
            "        self,",
            "        resource_name: str,",
            f"        args: {args} | None = None,",
            "        opts: pulumi.ResourceOptions | None = None,",
            "        *,",
            *(f"        {field.name}: {_optional(field)} = None," for field in fields),
            *(f"        {alias}: {_optional(field)} = None," for field, alias in aliases),
            "    ) -> None:",
            "        self._declare(",
            "            resource_name,",
            "            args,",
            "            opts,",
            *(f"            {field.name}={field.name}," for field in fields),
            *(f"            {alias}={alias}," for _, alias in aliases),
            "        )",
        ]
    )


def typed_dict(args_class: type[Any]) -> str:
    """The ``TypedDict`` twin of a nested ``Args`` dataclass: a field with a default is an
    optional key (``NotRequired``, which the module imports from ``typing_extensions``)."""
    lines = [f"class {args_class.__name__}Dict(TypedDict):"]
    for field in dataclasses.fields(args_class):
        annotation = _annotation(field)
        if field.default is dataclasses.MISSING:
            lines.append(f"    {field.name}: {annotation}")
        else:
            lines.append(f"    {field.name}: NotRequired[{_required(annotation)}]")
    return "\n".join(lines)


def lookup_result(resource: type[AltostratusResource[Any]]) -> str:
    """The result of a resource's lookup: its id and every output of the resource."""
    name = resource.__name__
    lines = [
        "@dataclass(frozen=True)",
        f"class Get{name}Result(LookupResult):",
        f'    """What a lookup found: the id and every output of ``{name}``, under the same',
        '    names; the outputs it keeps secret are secret Outputs."""',
        "",
    ]
    annotations = inspect.get_annotations(resource)
    for output in resource._output_names:
        annotation = str(annotations[output])
        value = _OUTPUT.fullmatch(annotation)
        if value is None:
            raise TypeError(f"{name}.{output}: outputs are annotated pulumi.Output[...]")
        if output in resource._secret_outputs:
            lines.append(f"    {output}: {annotation}")
        else:
            lines.append(f"    {output}: {value['value']} | None")
    return "\n".join(lines)


def blocks() -> dict[str, str]:
    """Every generated block's text, by key."""
    texts = {f"{cls.__name__}Dict": typed_dict(cls) for cls in _nested_args()}
    texts.update({f"{cls.__name__}.__init__": constructor(cls) for cls in _resources()})
    texts.update({f"Get{cls.__name__}Result": lookup_result(cls) for cls, _ in _lookup_results()})
    return texts


def render(source: str, texts: dict[str, str]) -> str:
    """The source with each of its generated blocks rewritten."""

    def rewrite(match: re.Match[str]) -> str:
        indent, key = match["indent"], match["key"]
        if key not in texts:
            raise KeyError(f"no generated block is named {key!r}")
        return f"{indent}# <generated: {key}>\n{texts[key]}\n{indent}# </generated>\n"

    return _BLOCK.sub(rewrite, source)


def formatted(path: Path, source: str) -> str:
    """The source as ``ruff format`` (the project's formatter and settings) writes it."""
    command = [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(path), "-"]
    answer = subprocess.run(command, input=source, capture_output=True, text=True, check=True)
    return answer.stdout


def stale_files() -> dict[Path, str]:
    """``{module path: its new text}`` for every resource module whose blocks are stale; a block
    that no module holds is an error."""
    texts = blocks()
    placed: set[str] = set()
    stale = {}
    results = [result for _, result in _lookup_results()]
    modules = {Path(inspect.getfile(cls)) for cls in (*_resources(), *_nested_args(), *results)}
    for path in sorted(modules):
        source = path.read_text(encoding="utf-8")
        placed.update(match["key"] for match in _BLOCK.finditer(source))
        rendered = formatted(path, render(source, texts))
        if rendered != source:
            stale[path] = rendered
    missing = sorted(set(texts) - placed)
    if missing:
        raise LookupError(f"no marker lines for the generated blocks {missing}")
    return stale


def main(argv: list[str]) -> int:
    stale = stale_files()
    if "--check" in argv:
        for path in stale:
            print(f"{path.name} is stale: run python -m tools.codegen")
        return 1 if stale else 0
    for path, text in stale.items():
        path.write_text(text, encoding="utf-8")
        print(f"rewrote {path.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
