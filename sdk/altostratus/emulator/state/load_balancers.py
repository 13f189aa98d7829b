"""Load balancers: provisioning over emulated time, addresses, backends."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from ipaddress import IPv4Address
from typing import Any

from altostratus.emulator.errors import invalid
from altostratus.emulator.reading.bodies import (
    FirewallCreate,
    LoadBalancerCreate,
    LoadBalancerUpdate,
    RuleCreate,
)
from altostratus.emulator.reading.formats import Backend, parse_ports
from altostratus.emulator.state.accounts import require_quota
from altostratus.emulator.state.base import Effects, Record, Store, entry, iso, new_id
from altostratus.emulator.state.reserved_ips import ReservedIp


@dataclass
class LoadBalancer(Record):
    name: str
    network_id: str
    backends: tuple[Backend, ...]
    public_ip: str
    private_ip: str
    ready_at: float
    created_at: str
    firewall_id: str = ""
    algorithm: str = "round_robin"
    external_traffic_policy: str = "Cluster"
    session_affinity: str = "None"
    session_affinity_config_timeout: int = 10800
    enable_proxy_protocol: str = ""
    max_concurrent_requests: int = 10000
    service_name: str = field(default="")
    options: tuple[tuple[str, int | str], ...] = ()
    """The ``options`` as sent, in order."""
    firewall_rule: str = ""
    firewall_made: bool = False
    """Whether its firewall was made for it at create (it then goes with it)."""


class LoadBalancers(Store[LoadBalancer, LoadBalancerCreate, LoadBalancerUpdate]):
    kind = "loadbalancer"
    label = "load balancer"
    feature = "loadbalancer"
    indexed = ("name", "network_id", "firewall_id")
    takes_time = True

    def seed_entry(self, balancer: LoadBalancer) -> dict[str, Any]:
        return entry(
            balancer,
            name=balancer.name,
            network_id=balancer.network_id,
            algorithm=balancer.algorithm,
            external_traffic_policy=balancer.external_traffic_policy,
            session_affinity=balancer.session_affinity,
            session_affinity_config_timeout=balancer.session_affinity_config_timeout,
            enable_proxy_protocol=balancer.enable_proxy_protocol,
            max_concurrent_requests=balancer.max_concurrent_requests,
            firewall_id=balancer.firewall_id,
            firewall_made=True if balancer.firewall_made else None,
            backends=[dict(b) for b in balancer.backends],
        )

    def answer_inputs(self, balancer: LoadBalancer) -> Hashable:
        reserved = self.state.reserved_ips.assigned_to(balancer.id)
        shown = () if reserved is None else (reserved.id, reserved.name, reserved.ip)
        ready = self.state.clock.monotonic() >= balancer.ready_at
        return ready, self.deleting(balancer), shown

    def describe(self, balancer: LoadBalancer) -> dict[str, Any]:
        """The full object; ``state`` and the addresses stay empty until provisioning is over;
        ``state`` is ``deleting`` while a delete is under way."""
        ready = self.state.clock.monotonic() >= balancer.ready_at
        state = "available" if ready else ""
        reserved = self.state.reserved_ips.assigned_to(balancer.id)
        public_ip = reserved.ip if reserved is not None else balancer.public_ip
        return {
            "id": balancer.id,
            "name": balancer.name,
            "network_id": balancer.network_id,
            "service_name": balancer.service_name,
            "algorithm": balancer.algorithm,
            "backends": [dict(b) for b in balancer.backends],
            "public_ip": public_ip if ready else "",
            "private_ip": balancer.private_ip if ready else "",
            "firewall_id": balancer.firewall_id,
            "state": "deleting" if self.deleting(balancer) else state,
            "max_concurrent_requests": balancer.max_concurrent_requests,
            "created_at": balancer.created_at,
            "external_traffic_policy": balancer.external_traffic_policy,
            "session_affinity": balancer.session_affinity,
            "session_affinity_config_timeout": balancer.session_affinity_config_timeout,
            "enable_proxy_protocol": balancer.enable_proxy_protocol,
            "options": dict(balancer.options),
            "firewall_rule": balancer.firewall_rule,
            **_reserved(reserved),
        }

    def create(
        self, account_id: str, region: str, effects: Effects, fields: LoadBalancerCreate
    ) -> LoadBalancer:
        """Without ``firewall_id``, the balancer gets a firewall of its own on its network,
        opening what ``firewall_rule`` names (see ``_opening``), as every balancer of the
        official Go client's answers carries one; it is deleted with the balancer."""
        self.require_feature(region)
        network = self.state.networks.get_live(account_id, region, fields.network_id)
        self.check_name_free(account_id, region, fields.name)
        balancer_id = new_id()
        firewalls = self.state.firewalls
        made: FirewallCreate | None = None
        if fields.firewall_id:
            firewalls.get_live(account_id, region, fields.firewall_id)
        else:
            made = _opening(fields, f"{fields.name[:200]}-lb-{balancer_id[:8]}", network.id)
            firewalls.check_name_free(account_id, region, made.name)
            require_quota(self.state, account_id, "security_group")
            count = (3 if made.create_default_rules else 0) + len(made.rules or ())
            require_quota(self.state, account_id, "security_group_rule", count)
        require_quota(self.state, account_id, "loadbalancer_count")
        require_quota(self.state, account_id, "public_ip_address")
        private_ip = str(network.take_host())
        public_ip = self.state.public_pool.allocate()
        firewall_id = fields.firewall_id or ""
        if made is not None:  # checked above: nothing after it can fail
            firewall_id = firewalls.create(account_id, region, effects, made).id
        balancer = LoadBalancer(
            id=balancer_id,
            account_id=account_id,
            region=region,
            name=fields.name,
            network_id=fields.network_id,
            backends=fields.backends,
            public_ip=public_ip,
            private_ip=private_ip,
            ready_at=self.state.clock.monotonic() + self.state.settings.lb_ready_seconds,
            created_at=iso(self.state.clock.now()),
            service_name=f"lb-{balancer_id[:8]}",
            firewall_id=firewall_id,
            firewall_made=made is not None,
        )
        _take_settings(balancer, fields)
        self.records[balancer.id] = balancer
        return balancer

    def update(self, balancer: LoadBalancer, effects: Effects, changes: LoadBalancerUpdate) -> None:
        self.require_live(balancer)
        self.rename(balancer, changes.name)
        if changes.backends is not None:
            balancer.backends = changes.backends
        _take_settings(balancer, changes)

    def remove(self, balancer: LoadBalancer, effects: Effects) -> None:
        """Removing a balancer also unassigns the reserved IP it held."""
        reserved = self.state.reserved_ips.assigned_to(balancer.id)
        if reserved is not None:
            self.state.reserved_ips.unassign(reserved, effects)
        network = self.state.networks.records.get(balancer.network_id)
        if network is not None:
            network.release_host(IPv4Address(balancer.private_ip))
        self.state.public_pool.release(balancer.public_ip)
        del self.records[balancer.id]
        firewalls = self.state.firewalls
        made = firewalls.records.get(balancer.firewall_id) if balancer.firewall_made else None
        if made is not None and not self.records.find("firewall_id", made.id):
            firewalls.delete(made, effects)  # unless another balancer was given it since


def _take_settings(
    balancer: LoadBalancer, settings: LoadBalancerCreate | LoadBalancerUpdate
) -> None:
    """Take the settings a create or an update gives."""
    if settings.algorithm is not None:
        balancer.algorithm = settings.algorithm
    if settings.external_traffic_policy is not None:
        balancer.external_traffic_policy = settings.external_traffic_policy
    if settings.session_affinity is not None:
        balancer.session_affinity = settings.session_affinity
    if settings.enable_proxy_protocol is not None:
        balancer.enable_proxy_protocol = settings.enable_proxy_protocol
    if settings.session_affinity_config_timeout is not None:
        balancer.session_affinity_config_timeout = settings.session_affinity_config_timeout
    if settings.max_concurrent_requests is not None:
        balancer.max_concurrent_requests = settings.max_concurrent_requests
    if settings.options is not None:
        balancer.options = tuple({**dict(balancer.options), **settings.options}.items())
    if settings.firewall_rule is not None:
        balancer.firewall_rule = settings.firewall_rule


def _opening(fields: LoadBalancerCreate, name: str, network_id: str) -> FirewallCreate:
    """The firewall a balancer created without one gets: ``firewall_rule`` ``all`` opens
    everything (the three default rules), a list of ports and ranges (``80,443``,
    ``8000-8080``) opens those over TCP, and none opens each backend's source port with its
    protocol."""
    wanted = (fields.firewall_rule or "").strip()
    if wanted.lower() == "all":
        return FirewallCreate(name=name, network_id=network_id, create_default_rules=True)
    if wanted:
        opened = []
        for part in wanted.split(","):
            start, end = parse_ports("firewall_rule", part.strip())
            if end is not None and end < start:
                raise invalid(
                    "firewall_rule",
                    f"The firewall_rule range {part.strip()!r} ends below its start",
                )
            opened.append(RuleCreate(protocol="tcp", start_port=start, end_port=end))
        rules = tuple(opened)
    else:
        listened = dict.fromkeys((b["protocol"].lower(), b["source_port"]) for b in fields.backends)
        rules = tuple(RuleCreate(protocol=p, start_port=port) for p, port in listened)
    return FirewallCreate(name=name, network_id=network_id, create_default_rules=False, rules=rules)


def _reserved(reserved: ReservedIp | None) -> dict[str, str]:
    """The reserved IP assigned to the balancer, as the official clients read it."""
    if reserved is None:
        return {}
    return {
        "reserved_ip_id": reserved.id,
        "reserved_ip_name": reserved.name,
        "reserved_ip": reserved.ip,
    }
