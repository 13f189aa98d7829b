"""Networks: a default one per account and region, private ranges, gateway and free hosts."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from ipaddress import IPv4Address, IPv4Network
from typing import TYPE_CHECKING, Any

from altostratus.emulator.errors import Conflict, in_use, not_found
from altostratus.emulator.reading.bodies import NetworkCreate, NetworkUpdate
from altostratus.emulator.state.accounts import require_quota
from altostratus.emulator.state.addresses import (
    RangeAllocator,
    allocate_host,
    gateway,
    usable_hosts,
)
from altostratus.emulator.state.base import Effects, Record, Store, entry, new_id

if TYPE_CHECKING:
    from altostratus.emulator.state import State


@dataclass
class Network(Record):
    label: str
    name: str
    cidr: IPv4Network
    default: bool = False
    ipv4_enabled: bool = True
    nameservers: tuple[str, ...] = ()
    hosts_taken: frozenset[IPv4Address] = frozenset()

    def take_host(self) -> IPv4Address:
        host = allocate_host(self.cidr, self.hosts_taken)
        self.hosts_taken = frozenset(self.hosts_taken | {host})
        return host

    def release_host(self, host: IPv4Address) -> None:
        self.hosts_taken = frozenset(self.hosts_taken - {host})

    def describe(self, *, deleting: bool = False) -> dict[str, Any]:
        """The network object; ``status`` is ``Deleting`` while a delete is under way."""
        free = usable_hosts(self.cidr) - 1 - len(self.hosts_taken)
        return {
            "id": self.id,
            "name": self.name,
            "default": self.default,
            "cidr": str(self.cidr),
            "gateway_ipv4": str(gateway(self.cidr)),
            "label": self.label,
            "status": "Deleting" if deleting else "Active",
            "ipv4_enabled": self.ipv4_enabled,
            "nameservers_v4": list(self.nameservers),
            "free_ip_count": max(free, 0),
        }


class Networks(Store[Network, NetworkCreate, NetworkUpdate]):
    kind = "network"
    label = "network"
    takes_time = True

    def seed_entry(self, network: Network) -> dict[str, Any] | None:
        if network.default:  # each account gets its own
            return None
        return entry(
            network,
            label=network.label,
            cidr_v4=str(network.cidr),
            ipv4_enabled=network.ipv4_enabled,
            nameservers_v4=[str(n) for n in network.nameservers] or None,
        )

    def __init__(self, state: State) -> None:
        super().__init__(state)
        self._ranges: dict[tuple[str, str], RangeAllocator] = {}

    def count_own(self, account_id: str) -> int:
        """The account's networks but the default ones (the first of each region's, kept for
        good), without looking at every network."""
        defaults = 0
        for region in self.state.settings.regions:
            first = next(iter(self.records.scoped.get((account_id, region), {}).values()), None)
            defaults += first is not None and first.default
        return self.records.count(account_id) - defaults

    def ranges(self, account_id: str, region: str) -> RangeAllocator:
        """The ranges the account's networks of ``region`` cover, built on first use and kept
        up to date by every add and delete."""
        key = (account_id, region)
        allocator = self._ranges.get(key)
        if allocator is None:
            allocator = RangeAllocator(n.cidr for n in self.all(account_id, region))
            self._ranges[key] = allocator
        return allocator

    def default_of(self, account_id: str, region: str) -> Network:
        """The account's default network of the region (the first, kept for good)."""
        first = next(iter(self.records.scoped.get((account_id, region), {}).values()), None)
        if first is None or not first.default:
            raise not_found("network", "network")
        return first

    def add_defaults(self, account_id: str) -> None:
        for region in self.state.settings.regions:
            self._add(account_id, region, "Default", None, default=True)

    def _add(
        self,
        account_id: str,
        region: str,
        label: str,
        cidr: IPv4Network | None,
        *,
        default: bool = False,
        ipv4_enabled: bool = True,
        nameservers: tuple[str, ...] = (),
    ) -> Network:
        network_id = new_id()
        ranges = self.ranges(account_id, region)
        if cidr is None:
            cidr = ranges.allocate()
        else:
            ranges.take(cidr)
        network = Network(
            id=network_id,
            account_id=account_id,
            region=region,
            label=label,
            name=f"cust-{account_id[:8]}-{network_id[:8]}",
            cidr=cidr,
            default=default,
            ipv4_enabled=ipv4_enabled,
            nameservers=nameservers,
        )
        self.records[network.id] = network
        return network

    def create(
        self, account_id: str, region: str, effects: Effects, fields: NetworkCreate
    ) -> Network:
        require_quota(self.state, account_id, "network_count")
        network = self._add(
            account_id,
            region,
            fields.label,
            fields.cidr_v4,
            ipv4_enabled=fields.ipv4_enabled is not False,
            nameservers=fields.nameservers_v4 or (),
        )
        effects.emit(account_id, "network.created", network.id)
        return network

    def describe(self, network: Network) -> dict[str, Any]:
        return network.describe(deleting=self.deleting(network))

    def answer_inputs(self, network: Network) -> Hashable:
        return self.deleting(network)

    def update(self, network: Network, effects: Effects, changes: NetworkUpdate) -> None:
        self.require_live(network)
        network.label = changes.label
        if changes.nameservers_v4 is not None:
            network.nameservers = changes.nameservers_v4
        effects.emit(network.account_id, "network.updated", network.id)

    def delete_dependents(self, network: Network, effects: Effects) -> None:
        """The firewalls on the network go with it (their rules with them), as the official
        clients expect: both make a firewall per network and delete the network alone (see
        ``check_delete`` for what still refuses it)."""
        firewalls = self.state.firewalls
        for firewall in firewalls.records.find("network_id", network.id):
            firewalls.delete(firewall, effects)

    def check_delete(self, network: Network) -> None:
        """The default network is never deleted; a network is held by its load balancers (those
        being deleted too) and by a balancer using one of its firewalls, which the 409's reason
        names. Its firewalls alone do not hold it: they go with it."""
        if network.default:
            raise Conflict("The default network cannot be deleted", "network_delete_default")
        balancers = self.state.load_balancers.records
        holders = [
            f"load balancer {b.name!r} ({b.id})" for b in balancers.find("network_id", network.id)
        ]
        for firewall in self.state.firewalls.records.find("network_id", network.id):
            holders += [
                f"load balancer {b.name!r} ({b.id}) through its firewall {firewall.name!r}"
                for b in balancers.find("firewall_id", firewall.id)
                if b.network_id != network.id
            ]
        if holders:
            more = f" and {len(holders) - 3} more" if len(holders) > 3 else ""
            shown = ", ".join(holders[:3]) + more
            raise in_use("network", f"The network is still used by {shown}")

    def remove(self, network: Network, effects: Effects) -> None:
        del self.records[network.id]
        self.ranges(network.account_id, network.region).release(network.cidr)
        effects.emit(network.account_id, "network.deleted", network.id)
