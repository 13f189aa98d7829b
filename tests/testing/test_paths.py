"""Property paths as the engine parses them, and ``ignore_changes`` resetting them."""

from __future__ import annotations

from typing import Any

import pytest

from altostratus.testing import secret
from altostratus.testing.runner import (
    contains,
    ignore_changes,
    is_secret,
    parse,
    replace_on_changes,
)


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("label", ["label"]),
        ("nameservers_v4[0]", ["nameservers_v4", 0]),
        ("rules[*].port", ["rules", "*", "port"]),
        ('tags["a.b"].c', ["tags", "a.b", "c"]),
        ('["with \\"quotes\\""][2]', ['with "quotes"', 2]),
        ("a.b.c", ["a", "b", "c"]),
    ],
)
def test_a_path_parses_into_names_and_indexes(text: str, parts: list[Any]) -> None:
    assert parse(text) == parts


@pytest.mark.parametrize("text", [".label", "label.", "list[x]", "list[0", '["open'])
def test_a_malformed_path_does_not_parse(text: str) -> None:
    assert parse(text) is None


def test_a_wildcard_contains_any_key_or_index() -> None:
    assert contains(["rules", "*"], ["rules", 3, "port"])
    assert contains(["*"], ["anything"])
    assert not contains(["rules", 0], ["rules", 1])
    assert not contains(["rules", "port"], ["rules"])


OLD = {"label": "old", "servers": ["1.1.1.1", "8.8.8.8"], "tags": {"team": "a", "env": "x"}}


@pytest.mark.parametrize(
    ("paths", "news", "expected"),
    [
        (["label"], {**OLD, "label": "new"}, OLD),
        (["servers[0]"], {**OLD, "servers": ["9.9.9.9", "8.8.8.8"]}, OLD),
        (["tags.team"], {**OLD, "tags": {"team": "b", "env": "x"}}, OLD),
        (["tags.*"], {**OLD, "tags": {"team": "b", "owner": "c"}}, OLD),
        # A path the old inputs do not have is removed from the new ones.
        (["extra"], {**OLD, "extra": 1}, OLD),
        # An element added to a list cannot be ignored: the new list stays.
        (["servers[2]"], {**OLD, "servers": ["1.1.1.1", "8.8.8.8", "9.9.9.9"]}, None),
    ],
)
def test_ignored_paths_take_their_old_values(
    paths: list[str], news: dict[str, Any], expected: dict[str, Any] | None
) -> None:
    given = {key: (list(v) if isinstance(v, list) else v) for key, v in news.items()}
    assert ignore_changes(news, OLD, paths) == (news if expected is None else expected)
    assert news == given  # the program's properties are left as they were


def test_a_value_taken_from_a_secret_stays_secret() -> None:
    olds = {"tags": secret({"team": "a"})}
    news = {"tags": {"team": "b"}}
    reset = ignore_changes(news, olds, ["tags.team"])
    assert is_secret(reset["tags"]["team"])


def test_replace_on_changes_names_the_changed_keys_under_its_paths() -> None:
    assert replace_on_changes(["label", "cidr_v4"], ["label"]) == ["label"]
    assert replace_on_changes(["label", "cidr_v4"], ["*"]) == ["label", "cidr_v4"]
    assert replace_on_changes([], ["*"]) == []
