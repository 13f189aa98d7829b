from __future__ import annotations

import json
from pathlib import Path

import pytest

from altostratus.client import Client, Settings, resolve_settings
from altostratus.client.errors import ConfigurationError

EVERY_LAYER = {
    "ALTOSTRATUS_API_KEY": "env-key",
    "ALTOSTRATUS_API_URL": "http://env.test",
    "ALTOSTRATUS_REGION": "nyc1",
    "CLI_API_KEY": "cli-key",
    "CLI_API_URL": "http://cli.test",
}
STACK = {
    "altostratus:apiKey": "stack-key",
    "altostratus:apiUrl": "http://stack.test/",
    "altostratus:region": "fra1",
}


@pytest.fixture
def cli_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "cli"
    folder.mkdir()
    session = {"api_key": "file-key", "api_url": "http://file.test"}
    (folder / "credentials.json").write_text(json.dumps(session))
    return folder


def test_arguments_win_over_every_other_layer(cli_dir: Path) -> None:
    environ = {**EVERY_LAYER, "CLI_CONFIG_DIR": str(cli_dir)}
    settings = resolve_settings(
        "arg-key", "http://arg.test", "phx1", stack_config=STACK, environ=environ
    )
    assert settings == Settings(api_key="arg-key", api_url="http://arg.test", region="PHX1")


def test_stack_config_wins_over_the_environment(cli_dir: Path) -> None:
    environ = {**EVERY_LAYER, "CLI_CONFIG_DIR": str(cli_dir)}
    settings = resolve_settings(stack_config=STACK, environ=environ)
    assert settings == Settings(api_key="stack-key", api_url="http://stack.test", region="FRA1")


def test_own_variables_win_over_the_cli_variables(cli_dir: Path) -> None:
    settings = resolve_settings(environ={**EVERY_LAYER, "CLI_CONFIG_DIR": str(cli_dir)})
    assert settings == Settings(api_key="env-key", api_url="http://env.test", region="NYC1")


def test_cli_variables_win_over_the_session_file(cli_dir: Path) -> None:
    environ = {
        "CLI_API_KEY": "cli-key",
        "CLI_API_URL": "http://cli.test",
        "CLI_CONFIG_DIR": str(cli_dir),
    }
    settings = resolve_settings(environ=environ)
    assert (settings.api_key, settings.api_url) == ("cli-key", "http://cli.test")


def test_session_file_is_the_last_layer(cli_dir: Path) -> None:
    settings = resolve_settings(environ={"CLI_CONFIG_DIR": str(cli_dir)})
    assert settings == Settings(api_key="file-key", api_url="http://file.test", region="LON1")


def test_each_setting_resolves_on_its_own(cli_dir: Path) -> None:
    environ = {"CLI_API_KEY": "cli-key", "CLI_CONFIG_DIR": str(cli_dir)}
    settings = resolve_settings(stack_config={"altostratus:region": "fra1"}, environ=environ)
    assert settings == Settings(api_key="cli-key", api_url="http://file.test", region="FRA1")


def test_session_file_defaults_to_the_home_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / ".cli").mkdir()
    (tmp_path / ".cli" / "credentials.json").write_text('{"api_key": "home-key"}')
    assert resolve_settings(environ={}).api_key == "home-key"


def test_defaults_are_the_local_emulator_and_lon1(tmp_path: Path) -> None:
    settings = resolve_settings(api_key="k", environ={"CLI_CONFIG_DIR": str(tmp_path)})
    assert (settings.api_url, settings.region) == ("http://127.0.0.1:8787", "LON1")


def test_the_bounds_of_a_call_default_to_90_s_and_16_mib(tmp_path: Path) -> None:
    settings = resolve_settings(api_key="k", environ={"CLI_CONFIG_DIR": str(tmp_path)})
    assert (settings.deadline, settings.max_answer_bytes) == (90.0, 16 * 1024 * 1024)
    with Client("k") as client:
        assert (client._http.deadline, client._http.max_answer_bytes) == (90.0, 16 * 1024 * 1024)


def test_the_bounds_of_a_call_resolve_like_every_setting() -> None:
    stack = {"altostratus:requestDeadlineSeconds": "20", "altostratus:maxAnswerBytes": "2048"}
    environ = {"ALTOSTRATUS_REQUEST_DEADLINE_SECONDS": "30", "ALTOSTRATUS_MAX_ANSWER_BYTES": "1e6"}
    by_arguments = resolve_settings(
        "k", deadline=10, max_answer_bytes=1024, stack_config=stack, environ=environ
    )
    assert (by_arguments.deadline, by_arguments.max_answer_bytes) == (10.0, 1024)
    by_stack = resolve_settings("k", stack_config=stack, environ=environ)
    assert (by_stack.deadline, by_stack.max_answer_bytes) == (20.0, 2048)
    by_environment = resolve_settings("k", environ=environ)
    assert (by_environment.deadline, by_environment.max_answer_bytes) == (30.0, 1_000_000)
    with Client("k", stack_config=stack) as client:
        assert (client._http.deadline, client._http.max_answer_bytes) == (20.0, 2048)


@pytest.mark.parametrize("value", ["0", "-5", "soon", "nan", "inf"])
def test_a_bound_that_is_not_a_positive_number_is_refused_naming_it(value: str) -> None:
    with pytest.raises(ConfigurationError, match="requestDeadlineSeconds must be a positive"):
        resolve_settings("k", stack_config={"altostratus:requestDeadlineSeconds": value})
    with pytest.raises(ConfigurationError, match="ALTOSTRATUS_MAX_ANSWER_BYTES must be"):
        resolve_settings("k", environ={"ALTOSTRATUS_MAX_ANSWER_BYTES": value})


def test_empty_values_count_as_unset(cli_dir: Path) -> None:
    environ = {"ALTOSTRATUS_API_KEY": "", "CLI_API_KEY": "  ", "CLI_CONFIG_DIR": str(cli_dir)}
    assert resolve_settings("", environ=environ).api_key == "file-key"


def test_missing_key_names_every_way_to_set_one(tmp_path: Path) -> None:
    with pytest.raises(ConfigurationError) as caught:
        resolve_settings(environ={"CLI_CONFIG_DIR": str(tmp_path)})
    message = str(caught.value)
    for way in (
        "api_key",
        "pulumi config set --secret altostratus:apiKey",
        "ALTOSTRATUS_API_KEY",
        "CLI_API_KEY",
        "credentials.json",
        "CLI_CONFIG_DIR",
    ):
        assert way in message
    assert "\n" not in message


def test_missing_key_is_allowed_when_not_required(tmp_path: Path) -> None:
    settings = resolve_settings(environ={"CLI_CONFIG_DIR": str(tmp_path)}, require_key=False)
    assert settings.api_key == ""


def test_broken_session_file_is_reported(tmp_path: Path) -> None:
    (tmp_path / "credentials.json").write_text("{not json")
    with pytest.raises(ConfigurationError, match=r"credentials\.json is not valid JSON"):
        resolve_settings(environ={"CLI_CONFIG_DIR": str(tmp_path)})


def test_client_resolves_from_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ALTOSTRATUS_API_KEY", "env-key")
    monkeypatch.setenv("ALTOSTRATUS_REGION", "fra1")
    with Client() as client:
        assert client.settings.api_key == "env-key"
        assert client.region == "FRA1"


def test_reprs_never_show_the_key() -> None:
    settings = resolve_settings("sk-very-secret", environ={})
    assert "sk-very-secret" not in repr(settings)
    with Client("sk-very-secret") as client:
        assert "sk-very-secret" not in repr(client)


def test_reprs_never_show_a_password_in_the_api_url() -> None:
    with Client("k", "https://deploy:hunter2@api.example.test") as client:
        assert "hunter2" not in repr(client) and "hunter2" not in repr(client.settings)


@pytest.mark.parametrize(
    ("given", "base"),
    [
        ("http://api.test", "http://api.test"),
        ("http://api.test/", "http://api.test"),
        ("http://api.test/v2", "http://api.test"),
        ("https://api.test/v2/", "https://api.test"),
        (" http://[::1]:8787/v2 ", "http://[::1]:8787"),
        ("http://api.test/gateway/v2", "http://api.test/gateway"),
        ("http://api.test/v20", "http://api.test/v20"),
    ],
)
def test_the_api_url_is_the_base_every_v2_path_is_joined_to(given: str, base: str) -> None:
    """The service documents its base as ``.../v2``; the calls' paths start with ``/v2``."""
    assert resolve_settings("k", given, environ={}).api_url == base


@pytest.mark.parametrize(
    "url", ["http://[::1", "http://api.test:99999", "api.test:8787", "ftp://api.test", "http://"]
)
def test_an_api_url_that_cannot_be_one_is_a_configuration_error_naming_it(url: str) -> None:
    with pytest.raises(ConfigurationError, match="the API URL") as refused:
        Client("k", url)
    assert repr(url) in str(refused.value) and "\n" not in str(refused.value)


def test_a_password_in_a_refused_api_url_is_masked() -> None:
    with pytest.raises(ConfigurationError) as refused:
        Client("k", "http://deploy:hunter2@[::1")
    assert "hunter2" not in str(refused.value)
