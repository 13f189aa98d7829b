"""How client errors become Pulumi outcomes: gone, done, adopted, or one clear error."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from altostratus.client import Client
from altostratus.emulator import Emulator
from altostratus.providers._base import Provider, ProviderError
from altostratus.providers.firewall import FirewallProvider
from altostratus.providers.firewall_rule import FirewallRuleProvider
from altostratus.providers.load_balancer import LoadBalancerProvider
from altostratus.providers.network import NetworkProvider
from altostratus.providers.object_store import ObjectStoreProvider
from altostratus.providers.webhook import WebhookProvider
from tests.support.provider_config import stack_config

from .conftest import configure, create
from .scenarios import BACKEND, dependencies


def _count(emulator: Emulator, method: str, fragment: str) -> int:
    made = emulator.requests()
    return sum(1 for e in made if e["method"] == method and fragment in e["path"])


def test_read_raises_on_a_server_error_instead_of_dropping_the_resource(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    provider = FirewallProvider()
    deps = dependencies(configured_client, ("network_id",))
    id_, outs, _ = create(provider, {"network_id": deps["network_id"], "__name_prefix": "fw"})
    fresh_emulator.add_fault(method="GET", path_prefix="/v2/vpc/firewalls", status=500, count=20)
    with pytest.raises(ProviderError) as raised:
        provider.read(id_, outs)
    message = str(raised.value)
    assert message.startswith("could not read firewall")
    assert "500" in message and fresh_emulator.api_key not in message


def test_delete_of_a_resource_already_gone_is_done(configured_client: Client) -> None:
    provider = WebhookProvider()
    id_, outs, _ = create(provider, {"url": "https://h.example/"})
    configured_client.webhooks.delete(id_)
    provider.delete(id_, outs)
    assert provider.read(id_, outs).id is None


def test_rule_of_a_deleted_firewall_reads_as_gone(configured_client: Client) -> None:
    deps = dependencies(configured_client, ("firewall_id",))
    provider = FirewallRuleProvider()
    news = {"firewall_id": deps["firewall_id"], "protocol": "icmp"}
    id_, outs, _ = create(provider, news)
    configured_client.firewalls.delete(deps["firewall_id"])
    assert provider.read(id_, outs).id is None
    provider.delete(id_, outs)


def _networks(api: Client) -> list[str]:
    return [network.id for network in api.networks.list() if not network.default]


def _webhooks(api: Client) -> list[str]:
    return [webhook.id for webhook in api.webhooks.list()]


def _stores(api: Client) -> list[str]:
    return [store.id for store in api.object_stores.list()]


LOST = [
    (
        NetworkProvider(),
        {"label": "lost", "cidr_v4": "10.50.0.0/24"},
        "/v2/vpc/networks",
        _networks,
    ),
    (WebhookProvider(), {"url": "https://lost.example/"}, "/v2/webhooks", _webhooks),
    (ObjectStoreProvider(), {"__name_prefix": "lost"}, "/v2/objectstores", _stores),
]


@pytest.mark.parametrize(
    ("provider", "news", "path", "listed"), LOST, ids=["network", "webhook", "object_store"]
)
def test_a_create_whose_answer_was_lost_adopts_the_resource(
    configured_client: Client,
    fresh_emulator: Emulator,
    provider: Provider,
    news: dict[str, Any],
    path: str,
    listed: Callable[[Client], list[str]],
    caplog: pytest.LogCaptureFixture,
) -> None:
    fresh_emulator.add_fault(
        method="POST", path_prefix=path, drop_connection=True, after_apply=True
    )
    with caplog.at_level("INFO", logger="altostratus.providers"):
        id_, outs, _ = create(provider, news)
    assert listed(configured_client) == [id_]
    assert outs
    assert _count(fresh_emulator, "POST", path) == 1
    # The lookup is one progress line, naming the resource and the lost answer.
    (said,) = [r.getMessage() for r in caplog.records if "looking for" in r.getMessage()]
    assert f"{provider.kind} " in said and "answer was lost" in said, said


def test_a_create_that_never_happened_is_sent_again(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    deps = dependencies(configured_client, ("network_id",))
    fresh_emulator.add_fault(method="POST", path_prefix="/v2/vpc/firewalls", drop_connection=True)
    id_, _, _ = create(FirewallProvider(), {"network_id": deps["network_id"]})
    assert [f.id for f in configured_client.firewalls.list()] == [id_]
    assert _count(fresh_emulator, "POST", "/firewalls") == 2


def test_create_uses_the_fewest_requests(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    deps = dependencies(configured_client, ("firewall_id",))
    fresh_emulator.clear_requests()
    create(FirewallRuleProvider(), {"firewall_id": deps["firewall_id"], "protocol": "icmp"})
    create(NetworkProvider(), {"label": "x"})
    assert [e["method"] for e in fresh_emulator.requests()] == ["POST", "POST", "GET"]


def test_load_balancer_create_waits_until_available(configured_client: Client) -> None:
    deps = dependencies(configured_client, ("network_id",))
    news = {"network_id": deps["network_id"], "backends": [BACKEND]}
    _, outs, _ = create(LoadBalancerProvider(), news)
    assert outs["state"] == "available" and outs["public_ip"] and outs["private_ip"]


def test_several_lookalikes_after_a_lost_answer_are_not_guessed(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    configured_client.webhooks.create(url="https://same.example/", events=["*"])
    fresh_emulator.add_fault(
        method="POST", path_prefix="/v2/webhooks", drop_connection=True, after_apply=True
    )
    with pytest.raises(ProviderError, match="refusing to guess"):
        create(WebhookProvider(), {"url": "https://same.example/"})


def test_readiness_wait_is_bounded_by_the_stack_config(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    provider = configure(
        LoadBalancerProvider(),
        stack_config(fresh_emulator, **{"altostratus:waitTimeoutSeconds": "0.05"}),
    )
    deps = dependencies(configured_client, ("network_id",))
    checked = provider.check({}, {"network_id": deps["network_id"], "backends": [BACKEND]})
    # The balancer's provisioning runs at a thousandth of real time, so however slowly this
    # machine answers, it cannot be ready before the 0.05 s wait runs out.
    fresh_emulator.clock.time_scale = 0.001
    try:
        with pytest.raises(
            ProviderError, match=r"could not create load balancer .*not ready after"
        ) as e:
            provider.create(checked.inputs)
    finally:
        fresh_emulator.clock.time_scale = 1.0
    assert "was deleted" in str(e.value)
    assert configured_client.load_balancers.list() == []


def test_the_request_timeout_comes_from_the_stack_config(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    provider = configure(
        NetworkProvider(),
        stack_config(fresh_emulator, **{"altostratus:requestTimeoutSeconds": "0.3"}),
    )
    network = configured_client.networks.create(label="slow")
    path = f"/v2/vpc/networks/{network.id}"
    fresh_emulator.add_fault(method="GET", path_prefix=path, delay_seconds=1.0)
    result = provider.read(network.id, {"label": "slow", "region": "LON1"})
    assert result.id == network.id
    assert _count(fresh_emulator, "GET", path) == 2  # the slow answer was given up on, then retried


def test_a_bad_request_timeout_is_one_clear_error(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    provider = configure(
        NetworkProvider(),
        stack_config(fresh_emulator, **{"altostratus:requestTimeoutSeconds": "soon"}),
    )
    with pytest.raises(ProviderError, match="requestTimeoutSeconds must be a number of seconds"):
        provider.read("any", {"label": "x", "region": "LON1"})


def test_an_answer_over_the_configured_size_fails_naming_its_size(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    provider = configure(
        NetworkProvider(), stack_config(fresh_emulator, **{"altostratus:maxAnswerBytes": "64"})
    )
    network = configured_client.networks.create(label="large")
    with pytest.raises(ProviderError, match=r"answer_too_large: the answer is \d+ bytes, more"):
        provider.read(network.id, {"label": "large", "region": "LON1"})


def test_the_retries_of_a_call_last_no_longer_than_the_wait_timeout(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    """A 503 asking to come back in 2 s is not waited for when the provider waits 1 s at most
    (with the client's own budget, 60 s, it would be retried four times)."""
    provider = configure(
        NetworkProvider(),
        stack_config(fresh_emulator, **{"altostratus:waitTimeoutSeconds": "1"}),
    )
    network = configured_client.networks.create(label="busy")
    path = f"/v2/vpc/networks/{network.id}"
    fresh_emulator.add_fault(
        method="GET", path_prefix=path, status=503, retry_after_seconds=2, count=5
    )
    with pytest.raises(ProviderError, match="503"):
        provider.read(network.id, {"label": "busy", "region": "LON1"})
    assert _count(fresh_emulator, "GET", path) == 1


def test_a_create_refused_because_the_name_is_taken_names_the_record_and_adopt(
    configured_client: Client, fresh_emulator: Emulator
) -> None:
    """The next ``up`` after a killed one, for a resource given its name: the record the killed
    run made holds the name. It is named with the way to take it over, never taken silently."""
    deps = dependencies(configured_client, ("network_id",))
    news = {"network_id": deps["network_id"], "name": "edge", "__name_prefix": "fw"}
    first, _, _ = create(FirewallProvider(), news)
    with pytest.raises(ProviderError) as raised:
        create(FirewallProvider(), news)
    message = str(raised.value)
    assert "409 database_firewall_duplicate_name" in message
    assert f"the firewall {first} has that name" in message and "adopt" in message
    assert [f.id for f in configured_client.firewalls.list() if f.name == "edge"] == [first]
