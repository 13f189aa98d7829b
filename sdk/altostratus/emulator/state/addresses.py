"""Address allocation: private ranges for networks, hosts inside them, and public addresses.

Public addresses come from the documentation ranges (203.0.113.0/24 first, then 198.51.100.0/24
and 192.0.2.0/24) and are unique across the whole emulator, as real public addresses are.
"""

from __future__ import annotations

import heapq
from collections.abc import Collection, Iterable
from ipaddress import IPv4Address, IPv4Network

from altostratus.emulator.errors import Conflict

PUBLIC_RANGES = tuple(IPv4Network(n) for n in ("203.0.113.0/24", "198.51.100.0/24", "192.0.2.0/24"))
_AUTO_SPACE = IPv4Network("10.0.0.0/8")


class RangeAllocator:
    """The /24 blocks of 10.0.0.0/8 that the networks of one account and region cover, handing
    out the first free one.

    Each block counts the networks overlapping it (a user's range may cover many blocks, or share
    one). Freed blocks below the scan position wait in a heap, so an allocation costs O(log n)
    amortized, whatever the number of networks, instead of testing every block against every
    network.
    """

    _BLOCKS = _AUTO_SPACE.num_addresses >> 8

    def __init__(self, taken: Iterable[IPv4Network] = ()) -> None:
        self._cover: dict[int, int] = {}
        self._next = 0  # every block below it is covered or in ``_freed``
        self._freed: list[int] = []
        for network in taken:
            self.take(network)

    def _blocks(self, network: IPv4Network) -> range:
        if not network.overlaps(_AUTO_SPACE):
            return range(0)
        first = max(int(network.network_address), int(_AUTO_SPACE.network_address))
        last = min(int(network.broadcast_address), int(_AUTO_SPACE.broadcast_address))
        base = int(_AUTO_SPACE.network_address)
        return range((first - base) >> 8, ((last - base) >> 8) + 1)

    def take(self, network: IPv4Network) -> None:
        for block in self._blocks(network):
            self._cover[block] = self._cover.get(block, 0) + 1

    def release(self, network: IPv4Network) -> None:
        for block in self._blocks(network):
            count = self._cover.get(block, 0) - 1
            if count > 0:
                self._cover[block] = count
                continue
            self._cover.pop(block, None)
            if block < self._next:
                heapq.heappush(self._freed, block)

    def allocate(self) -> IPv4Network:
        """The first free /24 (taken by the call); 409 when none is left."""
        block = None
        while self._freed:
            candidate = heapq.heappop(self._freed)
            if candidate not in self._cover:
                block = candidate
                break
        if block is None:
            while self._next in self._cover:
                self._next += 1
            if self._next >= self._BLOCKS:
                raise Conflict("No free private range is left", "network_range_exhausted")
            block = self._next
        network = IPv4Network((int(_AUTO_SPACE.network_address) + (block << 8), 24))
        self.take(network)
        return network


def usable_hosts(network: IPv4Network) -> int:
    return max(network.num_addresses - 2, 0)


def gateway(network: IPv4Network) -> IPv4Address:
    return network.network_address + 1


def allocate_host(network: IPv4Network, taken: Collection[IPv4Address]) -> IPv4Address:
    """The first usable host of ``network`` not in ``taken`` (the gateway is always taken)."""
    for host in network.hosts():
        if host not in taken and host != gateway(network):
            return host
    raise Conflict("The network has no free address left", "network_addresses_exhausted")


#: Every public address, in the order they are handed out.
_PUBLIC = tuple(str(host) for block in PUBLIC_RANGES for host in block.hosts())
_PUBLIC_PLACE = {address: place for place, address in enumerate(_PUBLIC)}


class PublicPool:
    """Public addresses handed out to reserved IPs and load balancers: the first free one in
    order, from a heap of the free, so an allocation costs O(log n) however many are used."""

    def __init__(self) -> None:
        self.used = set()

    @property
    def used(self) -> set[str]:
        """The addresses handed out (read-only; set it whole to restore a saved pool)."""
        return self._used

    @used.setter
    def used(self, addresses: set[str]) -> None:
        self._used = set(addresses)
        #: Once a state folder sets it, the addresses handed out or released since it last
        #: took them.
        self.changed: set[str] | None = None
        self._free = [place for place, address in enumerate(_PUBLIC) if address not in addresses]

    def allocate(self) -> str:
        if not self._free:
            raise Conflict("No public address is left", "ip_pool_exhausted")
        address = _PUBLIC[heapq.heappop(self._free)]
        self._used.add(address)
        if self.changed is not None:
            self.changed.add(address)
        return address

    def release(self, address: str) -> None:
        if address in self._used:
            self._used.discard(address)
            if self.changed is not None:
                self.changed.add(address)
            if address in _PUBLIC_PLACE:
                heapq.heappush(self._free, _PUBLIC_PLACE[address])
