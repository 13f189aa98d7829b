"""The fields the service's official clients read, read by this client from the emulator's
answers (through real HTTP): sizes, usage, owners, balancer settings and assignments."""

from __future__ import annotations

import boto3
import pytest

from altostratus.client import Client, QuotaExceededError
from altostratus.emulator import Emulator

BACKEND = {"ip": "10.1.0.5", "protocol": "TCP", "source_port": 80, "target_port": 8080}


def test_a_store_is_answered_with_max_size_and_its_owner_credential_id(client: Client) -> None:
    store = client.object_stores.create(name="media", max_size_gb=20)
    raw = client._http.request("GET", f"/v2/objectstores/{store.id}", params={"region": "LON1"})
    assert raw["max_size"] == raw["max_size_gb"] == 20
    (owner,) = client.object_store_credentials.list()
    assert store.owner_info is not None and store.owner_info.credential_id == owner.id
    assert client.object_stores.update(store.id, max_size_gb=30).max_size_gb == 30


def test_a_store_read_by_the_official_size_name_alone() -> None:
    from altostratus.client.models import ObjectStore

    assert ObjectStore.model_validate({"id": "s1", "max_size": 500}).max_size_gb == 500


def test_the_earlier_size_keyword_must_agree(client: Client) -> None:
    with pytest.raises(ValueError, match="give one"):
        client.object_stores.create(name="media", size=10, max_size_gb=20)
    assert client.object_stores.create(name="media", size=10).max_size_gb == 10


def test_stats_count_what_the_bucket_holds(client: Client, fresh_emulator: Emulator) -> None:
    store = client.object_stores.create(name="media", max_size_gb=2)
    empty = client.object_stores.stats(store.id)
    assert (empty.size_kb_utilised, empty.num_objects) == (0, 0)
    assert empty.max_size_kb == 2 * 1024**2
    (owner,) = client.object_store_credentials.list()
    endpoint = store.objectstore_endpoint or ""
    base, _, bucket = endpoint.rpartition("/")
    s3 = boto3.client(
        "s3",
        endpoint_url=base,
        aws_access_key_id=owner.access_key_id,
        aws_secret_access_key=owner.secret_access_key_id,
        region_name="us-east-1",
    )
    s3.put_object(Bucket=bucket, Key="a.txt", Body=b"x" * 3000)
    s3.put_object(Bucket=bucket, Key="b.txt", Body=b"y")
    used = client.object_stores.stats(store.id)
    assert (used.size_kb_utilised, used.num_objects) == (3, 2)


def test_balancer_settings_update_in_place_and_options_are_kept(client: Client) -> None:
    network = client.networks.create(label="app", cidr_v4="10.1.0.0/24")
    balancer = client.load_balancers.create(
        name="front",
        network_id=network.id,
        backends=[{**BACKEND, "health_check_port": 8081}],
        options={"server_timeout": 60, "client_timeout": "30s"},
        firewall_rule="80",
    )
    assert balancer.options is not None and balancer.options.server_timeout == 60
    assert balancer.options.client_timeout == "30s" and balancer.firewall_rule == "80"
    assert balancer.backends is not None and balancer.backends[0].health_check_port == 8081
    updated = client.load_balancers.update(
        balancer.id,
        max_concurrent_requests=500,
        session_affinity_config_timeout=60,
        options={"client_timeout": 10},
    )
    assert (updated.max_concurrent_requests, updated.session_affinity_config_timeout) == (500, 60)
    assert updated.options is not None
    assert (updated.options.server_timeout, updated.options.client_timeout) == (60, 10)
    assert updated.id == balancer.id


def test_a_balancer_names_its_reserved_ip_after_an_assignment(client: Client) -> None:
    network = client.networks.create(label="app", cidr_v4="10.1.0.0/24")
    balancer = client.load_balancers.create(name="front", network_id=network.id, backends=[BACKEND])
    assert client.load_balancers.get(balancer.id).reserved_ip_id is None
    reserved = client.reserved_ips.create(name="edge")
    client.reserved_ips.assign(reserved.id, balancer.id)
    assigned = client.load_balancers.get(balancer.id)
    assert (assigned.reserved_ip_id, assigned.reserved_ip_name) == (reserved.id, "edge")
    assert assigned.reserved_ip == client.reserved_ips.get(reserved.id).ip
    client.reserved_ips.unassign(reserved.id)
    assert client.load_balancers.get(balancer.id).reserved_ip is None


def test_network_name_servers_are_updated_in_place(client: Client) -> None:
    created = client.networks.create(label="app", nameservers_v4=["1.1.1.1"])
    client.networks.update(created.id, label="app", nameservers_v4=["8.8.8.8", "8.8.4.4"])
    network = client.networks.get(created.id)
    assert (network.label, network.nameservers_v4) == ("app", ["8.8.8.8", "8.8.4.4"])
    client.networks.update(created.id, label="app2")
    assert client.networks.get(created.id).nameservers_v4 == ["8.8.8.8", "8.8.4.4"]


def test_quota_counts_balancers_and_object_store_gigabytes(
    client: Client, fresh_emulator: Emulator
) -> None:
    network = client.networks.create(label="app", cidr_v4="10.1.0.0/24")
    client.load_balancers.create(name="front", network_id=network.id, backends=[BACKEND])
    store = client.object_stores.create(name="media", max_size_gb=300)
    client.object_stores.create(name="logs")
    quota = client.quota.get()
    assert (quota.loadbalancer_count_usage, quota.objectstore_gb_usage) == (1, 800)
    assert quota.loadbalancer_count_limit and quota.objectstore_gb_limit
    fresh_emulator.set_quota(objectstore_gb=900)
    with pytest.raises(QuotaExceededError):
        client.object_stores.update(store.id, max_size_gb=401)
    assert client.object_stores.update(store.id, max_size_gb=400).max_size_gb == 400
    with pytest.raises(QuotaExceededError):
        client.object_stores.create(name="more", max_size_gb=1)


def test_a_credential_reads_its_secret_under_both_names(client: Client) -> None:
    credential = client.object_store_credentials.create(name="ci", access_key_id="1234567890")
    assert credential.access_key_id == "1234567890"
    assert credential.secret_access_key == credential.secret_access_key_id
    assert credential.secret_access_key and credential.secret_access_key not in repr(credential)
