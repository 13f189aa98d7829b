"""The emulator's image through Testcontainers (``EmulatorContainer``) and through the pytest
plugin's ``--altostratus-emulator=container``.

The tests that start the image need a Docker daemon and the image: ``tools/container/check``
builds it as ``altostratus-emulator:check`` (``ALTOSTRATUS_TEST_IMAGE`` names another). Where
either is missing they skip, saying which.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from altostratus.client import Client
from altostratus.emulator.container import EmulatorContainer, EmulatorStartError
from tests.support.container import IMAGE, docker_missing

needs_docker = pytest.mark.skipif(
    docker_missing() is not None, reason=f"needs Docker and the image: {docker_missing()}"
)


@pytest.fixture
def no_reaper(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Testcontainers' reaper is an image from Docker Hub; the tests remove their containers."""
    from testcontainers.core.config import testcontainers_config

    monkeypatch.setattr(testcontainers_config, "_ryuk_disabled", True)
    yield


def test_a_setting_that_is_no_flag_is_refused_before_anything_starts() -> None:
    with pytest.raises(TypeError, match="'bytes_per_gb' is not a flag of altostratus emulator"):
        EmulatorContainer(IMAGE, bytes_per_gb=1024)


@pytest.mark.slow
@pytest.mark.timeout(600)
@needs_docker
@pytest.mark.usefixtures("no_reaper")
def test_the_image_serves_the_api_and_s3_through_testcontainers() -> None:
    with EmulatorContainer(IMAGE, objectstore_ready_seconds=0, strict=True) as emulator:
        assert emulator.api_url.startswith("http://127.0.0.1:")
        client = Client(api_key=emulator.api_key, api_url=emulator.api_url)
        credential = client.object_store_credentials.create(name="ci")
        store = client.object_stores.create(name="assets", access_key_id=credential.access_key_id)
        assert store.objectstore_endpoint.startswith(f"{emulator.s3_url}/")
        bucket = store.objectstore_endpoint.rsplit("/", 1)[1]
        s3 = boto3.client(
            "s3",
            endpoint_url=emulator.s3_url,
            aws_access_key_id=credential.access_key_id,
            aws_secret_access_key=credential.secret_access_key_id,
            region_name="us-east-1",
        )
        s3.put_object(Bucket=bucket, Key="a.txt", Body=b"through the container")
        assert s3.get_object(Bucket=bucket, Key="a.txt")["Body"].read() == b"through the container"
        # The controls answer the host, which reaches the container through Docker's bridge.
        emulator.reset()
        assert client.object_stores.list() == []


@pytest.mark.slow
@pytest.mark.timeout(600)
@needs_docker
@pytest.mark.usefixtures("no_reaper")
def test_a_wrong_setting_fails_the_start_in_one_line_naming_its_variable() -> None:
    with pytest.raises(EmulatorStartError) as refused:
        EmulatorContainer(IMAGE, time_scale="fast").start()
    message = str(refused.value)
    assert message.startswith("the emulator's container is exited: altostratus emulator: error:")
    assert "ALTOSTRATUS_EMULATOR_TIME_SCALE" in message and "'fast' is not a number" in message


def run_pytest(
    folder: Path, test: str, ini: str, *options: str
) -> subprocess.CompletedProcess[str]:
    """A pytest session of its own in ``folder``, with the plugin loaded."""
    (folder / "conftest.py").write_text('pytest_plugins = ["altostratus.testing.pytest_plugin"]\n')
    (folder / "pytest.ini").write_text(f"[pytest]\n{ini}\n")
    (folder / "test_it.py").write_text(textwrap.dedent(test))
    env = {**os.environ, "TESTCONTAINERS_RYUK_DISABLED": "true"}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=500,
    )


@pytest.mark.slow
@pytest.mark.timeout(600)
@needs_docker
def test_the_plugin_serves_the_image_when_asked(tmp_path: Path) -> None:
    test = """
        import altostratus as alto
        from altostratus.client import Client
        from altostratus.emulator.container import EmulatorContainer


        def program():
            alto.Network("kept", label="kept")


        def test_a_stack_on_the_container(altostratus_emulator, altostratus_stack):
            assert isinstance(altostratus_emulator, EmulatorContainer)
            result = altostratus_stack(program).up()
            assert not result.failures, result.failures
            client = Client(altostratus_emulator.api_key, altostratus_emulator.api_url)
            assert "kept" in [network.label for network in client.networks.list()]
    """
    answer = run_pytest(
        tmp_path, test, f"altostratus_emulator_image = {IMAGE}", "--altostratus-emulator=container"
    )
    assert answer.returncode == 0, answer.stdout[-3000:] + answer.stderr[-2000:]
    assert "1 passed" in answer.stdout


def test_an_unknown_emulator_mode_is_a_usage_error(tmp_path: Path) -> None:
    test = "def test_it(altostratus_emulator):\n    pass\n"
    answer = run_pytest(tmp_path, test, "altostratus_emulator = vm")
    assert answer.returncode == pytest.ExitCode.USAGE_ERROR, answer.stdout + answer.stderr
    assert "altostratus_emulator = 'vm': give process or container" in answer.stderr


@pytest.mark.slow
@pytest.mark.timeout(600)
@needs_docker
def test_the_guide_s_testcontainers_block_runs(tmp_path: Path) -> None:
    from tests.support.doc_pages import ROOT, blocks

    (block,) = [
        b
        for b in blocks(ROOT / "docs/emulator.md")
        if b.marker == "run by tests/emulator/test_container.py"
    ]
    script = tmp_path / "block.py"
    script.write_text(block.text.replace('"altostratus-emulator"', repr(IMAGE)))
    env = {**os.environ, "TESTCONTAINERS_RYUK_DISABLED": "true"}
    answer = subprocess.run(
        [sys.executable, str(script)], env=env, capture_output=True, text=True, timeout=500
    )
    assert answer.returncode == 0, answer.stderr[-2000:]
    api_url, s3_url, key = answer.stdout.split()
    assert api_url.startswith("http://127.0.0.1:") and s3_url.startswith("http://127.0.0.1:")
    assert key == "local-dev-key"


@pytest.mark.slow
@pytest.mark.timeout(600)
@needs_docker
def test_a_volume_of_another_state_format_is_refused_in_one_line(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    document = {"format": "altostratus-emulator-state", "version": 99, "sha256": "", "body": {}}
    (state / "state.json").write_text(json.dumps(document))
    for folder in (tmp_path, state):
        folder.chmod(0o777)  # the image's user writes beside it, as on a volume of its own
    answer = subprocess.run(
        ["docker", "run", "--rm", "--volume", f"{tmp_path}:/var/lib/altostratus", IMAGE],
        capture_output=True,
        text=True,
        timeout=500,
    )
    lines = (answer.stdout + answer.stderr).strip().splitlines()
    assert answer.returncode == 1 and len(lines) == 1, lines
    assert lines[0].startswith(
        "altostratus: error: /var/lib/altostratus/state/state.json is in state format 99"
    )
    assert json.loads((state / "state.json").read_text()) == document  # left as it was
