"""The provider process serves many calls at once (``altostratus:providerThreads``).

Through the real ``python -m pulumi.dynamic`` over gRPC. The emulator's clock is slowed to a
thousandth of real time, so a balancer stays provisioning (and its create stays in its readiness
wait) until the test advances the clock: every create that has reached the service is in flight
at the same time, whatever the machine's speed.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import pytest
from pulumi.runtime.proto import provider_pb2

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers import _config, _threads
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from tests.support.engine import Engine, ProviderProcess, to_struct
from tests.support.provider_config import stack_config

from .conftest import configure

BACKEND = {"ip": "10.20.0.10", "protocol": "TCP", "source_port": 80, "target_port": 8080}
BALANCERS = LoadBalancerProvider()
NETWORKS = NetworkProvider()
SLOW = 0.001  # the emulator's time scale while balancers must stay provisioning

# The SDK's provider process with its server's pool changed before it starts, as another SDK or
# Python could make it: the library must change nothing, say so once, and keep working.
_RUN_THE_SDK = (
    "import runpy; runpy.run_module('pulumi.dynamic', run_name='__main__', alter_sys=True)"
)
NOT_A_THREAD_POOL = f"""
import concurrent.futures, threading

class Pool(concurrent.futures.Executor):
    def __init__(self, max_workers=None):
        self._slots = threading.BoundedSemaphore(max_workers or 4)

    def submit(self, fn, /, *args, **kwargs):
        future = concurrent.futures.Future()

        def run():
            with self._slots:
                if future.set_running_or_notify_cancel():
                    try:
                        future.set_result(fn(*args, **kwargs))
                    except BaseException as error:
                        future.set_exception(error)

        threading.Thread(target=run, daemon=True).start()
        return future

concurrent.futures.ThreadPoolExecutor = Pool
{_RUN_THE_SDK}
"""
BOUND_FIXED = f"""
import concurrent.futures
from concurrent.futures.thread import ThreadPoolExecutor

class Pool(ThreadPoolExecutor):
    _max_workers = property(lambda self: 4, lambda self, value: None)

concurrent.futures.ThreadPoolExecutor = Pool
{_RUN_THE_SDK}
"""


class AlteredProviderProcess(ProviderProcess):
    def __init__(self, boot: str, config: dict[str, str], *, stderr: Path) -> None:
        self.command = (sys.executable, "-c", boot)
        super().__init__(config, stderr=stderr)


@pytest.fixture
def slow_clock(fresh_emulator: Emulator) -> Iterator[Emulator]:
    """The reset emulator with room for many balancers; its clock slowed until advanced."""
    fresh_emulator.set_quota(
        public_ip_address=100, loadbalancer_count=100, security_group=100, security_group_rule=200
    )
    fresh_emulator.clock.time_scale = SLOW
    yield fresh_emulator
    fresh_emulator.clock.time_scale = 1.0


def network_id(emulator: Emulator) -> str:
    with Client(api_key=emulator.api_key, api_url=emulator.api_url) as api:
        return api.networks.create(label="threads", cidr_v4="10.20.0.0/24").id


def balancer_news(name: str, network: str) -> dict[str, Any]:
    inputs = {"network_id": network, "backends": [BACKEND]}
    return Engine.program_inputs(BALANCERS, name, inputs)


def create_balancer(process: ProviderProcess, name: str, network: str) -> str:
    """Check then create, as the engine does for a new resource; the new id."""
    urn = Engine.urn(BALANCERS, name)
    inputs = process.check(urn, {}, balancer_news(name, network))
    return process.create(urn, inputs)[0]


def check_request(network: str) -> provider_pb2.CheckRequest:
    news = to_struct(balancer_news("another", network))
    return provider_pb2.CheckRequest(urn=Engine.urn(BALANCERS, "another"), news=news)


def until(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


def balancers(emulator: Emulator) -> int:
    with emulator.state.lock:
        return len(emulator.state.load_balancers.records)


def finish(emulator: Emulator, creates: list[Future[str]]) -> list[str]:
    """Let time run again (every balancer made so far is ready at once) and collect the ids."""
    emulator.clock.time_scale = 1.0
    emulator.advance_clock(10.0)
    return [create.result(timeout=60) for create in creates]


def test_slow_creates_overlap_and_a_check_answers_while_they_wait(
    slow_clock: Emulator, tmp_path: Path
) -> None:
    network = network_id(slow_clock)
    count = 12
    process = ProviderProcess(stack_config(slow_clock), stderr=tmp_path / "provider.log")
    try:
        with ThreadPoolExecutor(count) as engine:
            creates = [
                engine.submit(create_balancer, process, f"web{n}", network) for n in range(count)
            ]
            until(lambda: balancers(slow_clock) == count, f"{count} balancers provisioning at once")
            answer = process.stub.Check(check_request(network), timeout=30)
            assert not answer.failures
            ids = finish(slow_clock, creates)
    finally:
        process.close()
    assert len(set(ids)) == count
    assert balancers(slow_clock) == count
    assert "providerThreads" not in (tmp_path / "provider.log").read_text()


def test_four_provider_threads_keep_the_sdks_four_calls_at_once(
    slow_clock: Emulator, tmp_path: Path
) -> None:
    network = network_id(slow_clock)
    config = stack_config(slow_clock, **{"altostratus:providerThreads": "4"})
    process = ProviderProcess(config, stderr=tmp_path / "provider.log")
    try:
        with ThreadPoolExecutor(6) as engine:
            creates = [
                engine.submit(create_balancer, process, f"web{n}", network) for n in range(6)
            ]
            until(lambda: balancers(slow_clock) == 4, "four balancers provisioning")
            with pytest.raises(grpc.RpcError) as waited:
                process.stub.Check(check_request(network), timeout=1.0)
            assert waited.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
            assert balancers(slow_clock) == 4  # the other two creates still queue
            ids = finish(slow_clock, creates)
    finally:
        process.close()
    assert len(set(ids)) == 6


@pytest.mark.parametrize(
    ("boot", "problem"),
    [
        pytest.param(NOT_A_THREAD_POOL, "no ThreadPoolExecutor runs the calls", id="no-pool"),
        pytest.param(BOUND_FIXED, "its bound did not take the new value", id="bound-fixed"),
    ],
)
def test_a_provider_process_shaped_otherwise_is_left_alone_said_once_and_works(
    fresh_emulator: Emulator, tmp_path: Path, boot: str, problem: str
) -> None:
    log = tmp_path / "provider.log"
    process = AlteredProviderProcess(boot, stack_config(fresh_emulator), stderr=log)
    try:
        engine = Engine(process)
        network = engine.up(NETWORKS, "net", {"cidr_v4": "10.30.0.0/24"}, None).state
        inputs = {"network_id": network.id, "backends": [BACKEND]}
        with ThreadPoolExecutor(3) as pool:
            made = list(
                pool.map(lambda n: engine.up(BALANCERS, f"lb{n}", inputs, None).state, range(3))
            )
        for number, balancer in enumerate(made):
            assert engine.refresh(BALANCERS, f"lb{number}", balancer) is not None
            engine.destroy(BALANCERS, f"lb{number}", balancer)
        engine.destroy(NETWORKS, "net", network)
    finally:
        process.close()
    said = [line for line in log.read_text().splitlines() if "providerThreads" in line]
    assert len(said) == 1, log.read_text()
    assert problem in said[0]
    assert balancers(fresh_emulator) == 0


def test_the_bound_comes_from_stack_config_and_acts_only_in_the_provider_process(
    fresh_emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    def configured(threads: str | None) -> int:
        extra = {} if threads is None else {"altostratus:providerThreads": threads}
        configure(NETWORKS, stack_config(fresh_emulator, **extra))
        return _config.provider_threads()

    # Configured on a worker of a pool of this process, as the provider process configures:
    # this process is not the provider process, so its pool keeps its bound.
    with ThreadPoolExecutor(2) as pool:
        assert pool.submit(configured, None).result() == _config.DEFAULT_PROVIDER_THREADS
        assert pool.submit(configured, "32").result() == 32
        assert pool._max_workers == 2
    assert not _threads.in_provider_process()
    assert "providerThreads" not in caplog.text
    for wrong in ("2", "many", "4.5"):
        with pytest.raises(ValueError, match="providerThreads must be a whole number from 4"):
            configure(
                NETWORKS, stack_config(fresh_emulator, **{"altostratus:providerThreads": wrong})
            )
    configure(NETWORKS, stack_config(fresh_emulator))


@pytest.fixture
def rate_limited(fresh_emulator: Emulator) -> Iterator[Emulator]:
    """The reset emulator answering 429 past 5 requests a second, with room for balancers."""
    fresh_emulator.set_quota(
        public_ip_address=100, loadbalancer_count=100, security_group=100, security_group_rule=200
    )
    fresh_emulator.app.limiter.rate = 5.0
    yield fresh_emulator
    fresh_emulator.app.limiter.rate = None
    fresh_emulator.app.limiter.reset()


@pytest.mark.slow
def test_a_wide_burst_under_a_rate_limit_converges_with_no_failure_and_no_duplicate(
    rate_limited: Emulator,
) -> None:
    network = network_id(rate_limited)
    rate_limited.clear_requests()
    count = 24
    process = ProviderProcess(stack_config(rate_limited))
    try:
        with ThreadPoolExecutor(count) as engine:
            ids = list(
                engine.map(lambda n: create_balancer(process, f"web{n}", network), range(count))
            )
    finally:
        process.close()
    assert len(set(ids)) == count
    assert balancers(rate_limited) == count
    answered = [(e["method"], e["path"], e["status"]) for e in rate_limited.requests()]
    limited_creates = [a for a in answered if a == ("POST", "/v2/vpc/loadbalancers", 429)]
    assert limited_creates  # creates were told to wait, and came back once each
    assert [a for a in answered if a[2] is not None and a[2] >= 500] == []
