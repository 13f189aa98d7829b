"""Property paths (``ignore_changes``, ``replace_on_changes``) as the engine reads them.

A path is a property access written out: ``label``, ``nameservers_v4[0]``, ``rules[*].port``,
``tags["a.b"]`` (``ParsePropertyPath`` in ``sdk/go/common/resource/properties_path.go``; ``*``
matches any key or index). ``ignore_changes`` resets each path of the new inputs to its old
value before ``Check`` (``processIgnoreChanges`` in ``pkg/resource/deploy/step_generator.go``,
with ``PropertyPath.Reset``); ``replace_on_changes`` turns a changed key the provider's diff
names into a replacement (``applyReplaceOnChanges``, with ``PropertyPath.Contains``).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from altostratus.testing._properties import Properties, is_secret, secret

Path = list[str | int]


def parse(path: str) -> Path | None:
    """The path's parts (names and indexes), or None when it does not parse."""
    parts: Path = []
    if path.startswith("."):
        return None
    rest = path
    while rest:
        if rest[0] == ".":
            rest = rest[1:]
            if not rest:
                return None
        elif rest[0] == "[":
            if rest[1:2] == '"':
                key, end = _quoted(rest)
                if key is None:
                    return None
                parts.append(key)
                rest = rest[end + 1 :]
            else:
                close = rest.find("]")
                if close == -1:
                    return None
                segment = rest[1:close]
                if segment == "*":
                    parts.append("*")
                else:
                    try:
                        parts.append(int(segment))
                    except ValueError:
                        return None
                rest = rest[close + 1 :]
        else:
            end = min((i for i in (rest.find("."), rest.find("[")) if i != -1), default=len(rest))
            parts.append(rest[:end])
            rest = rest[end:]
    return parts


def _quoted(text: str) -> tuple[str | None, int]:
    """The key of ``["..."]`` at the start of ``text`` (``\\"`` for a quote) and the index of
    its closing bracket."""
    key: list[str] = []
    i = 2
    while True:
        if i >= len(text):
            return None, 0
        if text[i] == '"':
            i += 1
            break
        if text[i] == "\\" and text[i + 1 : i + 2] == '"':
            key.append('"')
            i += 2
        else:
            key.append(text[i])
            i += 1
    if i >= len(text) or text[i] != "]":
        return None, 0
    return "".join(key), i


def contains(outer: Path, inner: Path) -> bool:
    """``PropertyPath.Contains``: ``inner`` is ``outer`` or below it (``*`` matches anything)."""
    if len(inner) < len(outer):
        return False
    for mine, theirs in zip(outer, inner, strict=False):
        if mine == "*" and isinstance(theirs, (str, int)):
            continue
        if type(mine) is not type(theirs) or mine != theirs:
            return False
    return True


def ignore_changes(news: Properties, olds: Properties, paths: Iterable[str]) -> Properties:
    """``processIgnoreChanges``: ``news`` with each path set back to its value in ``olds``.

    A path that adds or removes an element cannot be ignored and is left as it is (the engine
    only says so, as information).
    """
    if not paths:
        return news
    result = copy.deepcopy(news)
    for text in paths:
        path = parse(text)
        if path:
            _reset(path, olds, result, False, False)
    return result


def _unwrap(value: Any) -> tuple[Any, bool]:
    found = False
    while is_secret(value):
        value, found = value.get("value"), True
    return value, found


def _reset(path: Path, old: Any, new: Any, old_secret: bool, new_secret: bool) -> bool:
    """``PropertyPath.reset``: set ``path`` of ``new`` (changed in place) to its value in
    ``old``; False for a path error. A value taken out of a secret old object into a plain new
    one is marked secret."""
    old, was = _unwrap(old)
    new, now = _unwrap(new)
    old_secret, new_secret = old_secret or was, new_secret or now
    key, rest = path[0], path[1:]

    def carried(value: Any) -> Any:
        return secret(value) if old_secret and not new_secret else value

    if isinstance(key, int):
        if key < 0:
            return False
        old_list, new_list = isinstance(old, list), isinstance(new, list)
        if not old_list or not new_list:
            return not old_list and not new_list
        if key >= len(old) or key >= len(new):
            return not rest and key >= len(old) and key >= len(new)
        if not rest:
            new[key] = carried(old[key])
            return True
        return _reset(rest, old[key], new[key], old_secret, new_secret)
    if key == "*":
        return _reset_all(rest, old, new, carried, old_secret, new_secret)
    if not rest:
        if isinstance(old, dict) and key in old:
            if not isinstance(new, dict):
                return False
            new[key] = carried(old[key])
        elif isinstance(new, dict):
            new.pop(key, None)
        return True
    if not isinstance(old, dict) or not isinstance(new, dict):
        return not isinstance(old, dict) and not isinstance(new, dict)
    if key in old and key not in new:
        return False
    if key not in old and key not in new:
        return True
    return _reset(rest, old.get(key), new[key], old_secret, new_secret)


def _reset_all(
    rest: Path, old: Any, new: Any, carried: Any, old_secret: bool, new_secret: bool
) -> bool:
    """A ``*`` part: every key or index of ``new`` and ``old`` reset alike."""
    if not rest:
        if isinstance(new, dict):
            if isinstance(old, dict):
                for k, v in old.items():
                    new[k] = carried(v)
                for k in [k for k in new if k not in old]:
                    del new[k]
            return True
        if isinstance(new, list):
            if isinstance(old, list):
                for i, v in enumerate(old[: len(new)]):
                    new[i] = carried(v)
                return len(old) == len(new)
            return True
        return False
    if isinstance(old, dict) and isinstance(new, dict):
        return all(
            k in new and _reset(rest, v, new[k], old_secret, new_secret) for k, v in old.items()
        )
    if isinstance(old, list) and isinstance(new, list):
        pairs = zip(old, new, strict=False)
        ok = all(_reset(rest, o, n, old_secret, new_secret) for o, n in pairs)
        return ok and len(old) == len(new)
    return False


def replace_on_changes(changed_keys: Iterable[str], paths: Iterable[str]) -> list[str]:
    """``applyReplaceOnChanges``: the changed keys that one of ``paths`` contains."""
    parsed = [p for p in (parse(text) for text in paths) if p is not None]
    found = []
    for key in changed_keys:
        key_path = parse(key)
        if key_path is not None and any(contains(path, key_path) for path in parsed):
            found.append(key)
    return found
