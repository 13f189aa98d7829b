"""The webhooks example end to end: its receiver verifies a real delivery from the emulator."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.testing import Stack
from tests.support.account import EXAMPLES


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def receiver_port() -> int:
    return free_port()


def start_receiver(port: int, secret: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-u", str(EXAMPLES / "webhooks" / "receiver.py"), "--port", str(port)],
        env={**os.environ, "WEBHOOK_SECRET": secret},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.fixture
def stop_after() -> Iterator[list[subprocess.Popen[str]]]:
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        process.kill()
        process.wait(timeout=10)


def test_the_receiver_prints_a_verified_delivery(
    stack_factory: Callable[..., Stack],
    fresh_emulator: Emulator,
    receiver_port: int,
    stop_after: list[subprocess.Popen[str]],
) -> None:
    stack = stack_factory("webhooks", {"url": f"http://127.0.0.1:{receiver_port}/"})
    outputs = stack.up().outputs
    assert outputs["secret"].secret
    receiver = start_receiver(receiver_port, outputs["secret"].value)
    stop_after.append(receiver)
    assert receiver.stdout is not None
    assert receiver.stdout.readline().startswith("listening on")

    with Client(api_key=fresh_emulator.api_key, api_url=fresh_emulator.api_url) as client:
        created = client.networks.create(label="watched")

    line = receiver.stdout.readline().strip()
    assert line == f"network.created {created.id}"
    stack.destroy()
