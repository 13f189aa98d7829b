"""Flags that an environment variable may set, as LocalStack's and moto's servers are configured.

`add_flag` declares a flag with its variable (``--state-dir`` is ``<PREFIX>STATE_DIR``): a set,
non-empty variable is the flag's default, read with the flag's own parser, so a flag on the
command line wins and a bad value fails as a bad flag does, in one line that names the variable.
The help shows each flag's default and variable.

argparse reads a default given as text with the flag's ``type`` when the flag is not given; the
variable's text is marked (`FromEnvironment`) so that the type can name the variable.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

Parse = Callable[[str], Any]

_TRUE = ("true", "1", "yes", "on")
_FALSE = ("false", "0", "no", "off")


class FromEnvironment(str):
    """A variable's value, standing as a flag's default until argparse reads it."""

    variable: str

    def __new__(cls, text: str, variable: str) -> FromEnvironment:
        value = super().__new__(cls, text)
        value.variable = variable
        return value


def variable_name(prefix: str, flag: str) -> str:
    return prefix + flag.removeprefix("--").upper().replace("-", "_")


def switch(text: str) -> bool:
    """A switch's variable: true, 1, yes or on; false, 0, no or off."""
    word = text.strip().lower()
    if word in _TRUE or word in _FALSE:
        return word in _TRUE
    raise argparse.ArgumentTypeError(f"must be one of {', '.join(_TRUE + _FALSE)}")


def entries(text: str) -> list[str]:
    """A repeatable flag's variable: its values separated by spaces, or by commas where what
    follows the comma is not one of the previous value's ``:``-listed items."""
    found: list[str] = []
    for word in text.split():
        for part in word.split(","):
            if found and ":" in found[-1] and ":" not in part and part.islower():
                found[-1] += f",{part}"  # CODE:a,b: b belongs to the list after the colon
            elif part:
                found.append(part)
    return found


class _Switch(argparse.Action):
    """A flag without a value that turns a setting on; its default may come from a variable."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        setattr(namespace, self.dest, True)


class _Append(argparse.Action):
    """A repeatable flag: given once or more, its values replace the variable's."""

    def __call__(self, parser: Any, namespace: Any, values: Any, option: Any = None) -> None:
        current = getattr(namespace, self.dest, None)
        items = list(current) if isinstance(current, list) else []
        items.append(values)
        setattr(namespace, self.dest, items)


def add_flag(
    parser: argparse.ArgumentParser,
    flag: str,
    *,
    prefix: str,
    help: str,
    parse: Parse = str,
    default: Any = None,
    shown: str | None = None,
    metavar: str | None = None,
    repeatable: bool = False,
    environ: Mapping[str, str] | None = None,
) -> None:
    """Declare ``flag``; `parse` reads the flag's value (and the variable's); a flag without a
    value is declared with ``parse=switch``. `shown` is the default as the help says it."""
    variable = variable_name(prefix, flag)
    text = (os.environ if environ is None else environ).get(variable, "").strip()
    action: type[argparse.Action] | str = "store"
    if parse is switch:
        action, default, shown = _Switch, False, shown or "off"
    elif repeatable:
        action, default = _Append, []
    if shown is None:
        shown = "none" if default is None else str(default)
    parser.add_argument(
        flag,
        action=action,
        type=_reading(parse, repeatable),
        default=FromEnvironment(text, variable) if text else default,
        metavar=metavar,
        help=f"{help} (default: {shown}; env {variable})",
    )


def _reading(parse: Parse, repeatable: bool) -> Parse:
    """`parse` for the command line; for a variable, each of its entries when `repeatable`, and
    a refusal naming the variable."""

    def read(text: str) -> Any:
        if not isinstance(text, FromEnvironment):
            return parse(text)
        try:
            return [parse(part) for part in entries(text)] if repeatable else parse(str(text))
        except argparse.ArgumentTypeError as error:
            shown = "" if repr(str(text)) in str(error) else f"={str(text)!r}"
            raise argparse.ArgumentTypeError(f"{text.variable}{shown}: {error}") from None

    read.__name__ = getattr(parse, "__name__", "value")
    return read


def describe(prefix: str) -> str:
    """The sentence the help's description ends with."""
    return (
        f"Each flag can also be set by its environment variable ({prefix}<FLAG>, named beside "
        "it); a flag given on the command line wins."
    )
