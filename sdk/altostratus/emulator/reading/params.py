"""Reading request parameters: one place for the wire rules of JSON and form-encoded bodies.

A JSON body carries typed values; a form body carries text, where booleans are ``true``/``false``,
integers are digits and arrays or objects are JSON written as text. A JSON ``null`` and an empty
string count as absent (but in the fields named in ``empty_is_value``); aliases become the names
they stand for (see ``bodies``). Given the names a body ``accepts``, any other field is left out
and named in ``ignored``. Every failure names the parameter (``parameter_<name>_invalid`` /
``_missing``).

The values' bounds, each a 400 naming what is wrong: a JSON body nests at most ``MAX_DEPTH``
levels, holds arrays and objects of at most ``MAX_ITEMS`` entries, integers of at most
``MAX_INTEGER_DIGITS`` digits, strings of at most ``MAX_TEXT`` characters, and no NaN or
infinities (which JSON does not have); a whole state (``PUT /_emulator/state``) is bounded in
depth, integers and numbers only (an export holds as many records, and objects as long, as the
state it was written from). Text parameters hold no control characters or lone surrogates, and
names and labels at most ``MAX_NAME`` characters (see ``Params.text``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from altostratus.emulator.errors import BadRequest, invalid, missing

MAX_DEPTH = 16
MAX_ITEMS = 1000
MAX_INTEGER_DIGITS = 20
MAX_TEXT = 16 * 1024
MAX_NAME = 255
#: Parameters whose text is a name: shorter than other text.
NAME_FIELDS = frozenset({"name", "label", "description"})

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


class Params:
    """The parameters of one request: the body's fields, or the query's for reads."""

    def __init__(
        self,
        values: Mapping[str, Any],
        *,
        form: bool,
        accepts: Collection[str] | None = None,
        aliases: Mapping[str, str] | None = None,
        value_aliases: Mapping[str, Mapping[str, str]] | None = None,
        empty_is_value: Collection[str] = (),
    ) -> None:
        present = {
            name: value
            for name, value in values.items()
            if value is not None and (value != "" or name in empty_is_value)
        }
        known = present.keys() if accepts is None else accepts
        #: The fields sent with a value that the body does not accept, sorted.
        self.ignored = sorted(name for name in present if name not in known)
        self._values = {name: value for name, value in present.items() if name in known}
        self.form = form
        for alias, name in (aliases or {}).items():
            if alias not in self._values:
                continue
            value = self._values.pop(alias)
            if self._values.setdefault(name, value) != value:
                raise invalid(alias, f"The parameters {alias} and {name} disagree")
        for name, spellings in (value_aliases or {}).items():
            value = self._values.get(name)
            if isinstance(value, str) and value.strip().lower() in spellings:
                self._values[name] = spellings[value.strip().lower()]

    def __contains__(self, name: str) -> bool:
        return name in self._values

    def raw(self, name: str) -> Any:
        return self._values.get(name)

    def text(self, name: str, *, required: bool = False, allow_empty: bool = True) -> str | None:
        value = self._values.get(name)
        if value is None:
            if required:
                raise missing(name)
            return None
        if not isinstance(value, str):
            raise invalid(name, f"The parameter {name} must be text")
        check_text(name, value)
        if not allow_empty and not value.strip():
            if required:
                raise missing(name)
            raise invalid(name, f"The parameter {name} must not be empty")
        return value

    def required_text(self, name: str) -> str:
        value = self.text(name, required=True, allow_empty=False)
        assert value is not None
        return value

    def choice(self, name: str, allowed: Iterable[str], *, required: bool = False) -> str | None:
        """One of ``allowed``, compared case-insensitively and answered as spelled there."""
        value = self.text(name, required=required)
        if value is None:
            return None
        options = {a.lower(): a for a in allowed}
        found = options.get(value.lower())
        if found is None:
            listed = ", ".join(options.values())
            raise invalid(name, f"The parameter {name} must be one of: {listed}")
        return found

    def integer(
        self, name: str, *, minimum: int | None = None, maximum: int | None = None
    ) -> int | None:
        value = self._values.get(name)
        if value is None:
            return None
        number = parse_integer(value)
        if number is None:
            raise invalid(name, f"The parameter {name} must be a whole number")
        if (minimum is not None and number < minimum) or (maximum is not None and number > maximum):
            low = "" if minimum is None else f" from {minimum}"
            high = "" if maximum is None else f" up to {maximum}"
            raise invalid(name, f"The parameter {name} must be a whole number{low}{high}")
        return number

    def boolean(self, name: str) -> bool | None:
        value = self._values.get(name)
        if value is None or isinstance(value, bool):
            return value
        if isinstance(value, str):
            if value.strip().lower() in _TRUE:
                return True
            if value.strip().lower() in _FALSE:
                return False
        raise invalid(name, f"The parameter {name} must be true or false")

    def structured(self, name: str) -> Any:
        """An array or object field; in a form body it is JSON text."""
        value = self._values.get(name)
        if self.form and isinstance(value, str):
            try:
                return parse_json(value.encode())
            except BadRequest:
                raise invalid(name, f"The parameter {name} must be JSON text") from None
        return value

    def text_list(
        self, name: str, item: Callable[[str, str], str], *, what: str, allow_empty: bool = True
    ) -> list[str] | None:
        """A list of text values, each checked by ``item(name, value)``: an array, one value, or
        comma-separated values (in a form body also a JSON array); None when absent. ``what``
        ends the reason of a wrong-shaped value ("must be ...")."""
        value = self._values.get(name)
        if value is None:
            return None
        if isinstance(value, str) and value.strip().startswith("["):
            value = self.structured(name)
        if isinstance(value, str):
            value = [part for part in (p.strip() for p in value.split(",")) if part]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise invalid(name, f"The parameter {name} must be {what}")
        if not value and not allow_empty:
            raise invalid(name, f"The parameter {name} must be {what}")
        return [item(name, v) for v in value]


def parse_integer(value: Any) -> int | None:
    """An int, or text of digits; None for anything else (booleans included)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        digits = text.removeprefix("-")
        if digits.isdigit() and digits.isascii() and len(digits) <= MAX_INTEGER_DIGITS:
            return int(text)
    return None


MAX_PER_PAGE = 100


def page_params(query: Mapping[str, str]) -> tuple[int, int]:
    """``page`` (default 1) and ``per_page`` (default 20) from the query; a ``per_page`` above
    ``MAX_PER_PAGE`` is that maximum (the official clients ask for 10000), never refused."""
    result = []
    for name, default in (("page", 1), ("per_page", 20)):
        text = query.get(name)
        if text is None or text == "":
            result.append(default)
            continue
        number = parse_integer(text)
        if number is None or number < 1:
            raise invalid(name, f"The parameter {name} must be a whole number from 1")
        result.append(number)
    return result[0], min(result[1], MAX_PER_PAGE)


def port_number(value: Any) -> int | None:
    """A port (1 to 65535), as an int or text of digits; None for anything else."""
    number = parse_integer(value)
    return number if number is not None and 1 <= number <= 65535 else None


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise ValueError(f"an integer of more than {MAX_INTEGER_DIGITS} digits")
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def parse_json(data: bytes, *, whole_state: bool = False) -> Any:
    """``data`` as JSON within the bounds above (those of a whole state when ``whole_state``);
    ``BadRequest`` naming what is wrong."""
    try:
        value = json.loads(data, parse_int=_integer, parse_constant=_constant)
    except RecursionError:
        raise BadRequest(
            f"The body nests deeper than {MAX_DEPTH} levels", "parameter_body_invalid"
        ) from None
    except ValueError as error:
        reason = str(error).split(":")[0] if "integer" in str(error) else "not valid JSON"
        raise BadRequest(f"The body is {reason}", "parameter_body_invalid") from None
    check_shape(value, sized=not whole_state)
    return value


def check_shape(
    value: Any, field: str | None = None, depth: int = 0, *, sized: bool = True
) -> None:
    """400 naming the top-level field when ``value`` passes a bound on depth, or (when
    ``sized``) on size or text."""
    if depth > MAX_DEPTH:
        raise _refused(field, f"nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if sized and len(value) > MAX_TEXT:
            raise _refused(field, f"holds text longer than {MAX_TEXT} characters")
    elif isinstance(value, (list, dict)):
        if sized and len(value) > MAX_ITEMS:
            raise _refused(field, f"holds more than {MAX_ITEMS} entries")
        items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
        for key, item in items:
            if key is not None:
                check_shape(key, field, depth + 1, sized=sized)
            at = field if field is not None or depth else key
            check_shape(item, at, depth + 1, sized=sized)


def _refused(field: str | None, problem: str) -> BadRequest:
    if field is None:
        return BadRequest(f"The body {problem}", "parameter_body_invalid")
    return invalid(field, f"The parameter {field} {problem}")


def check_text(name: str, value: str) -> None:
    """400 when a text parameter holds control characters, or a name is too long."""
    if any(ch < " " or "\x7f" <= ch <= "\x9f" or ch in "\u2028\u2029" for ch in value):
        raise invalid(name, f"The parameter {name} must not hold control characters")
    if any("\ud800" <= ch <= "\udfff" for ch in value):  # no UTF-8 can carry one
        raise invalid(name, f"The parameter {name} must not hold lone surrogates")
    limit = MAX_NAME if name in NAME_FIELDS else MAX_TEXT
    if len(value) > limit:
        raise invalid(name, f"The parameter {name} must be at most {limit} characters")
