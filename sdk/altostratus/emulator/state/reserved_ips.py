"""Reserved IPs: public addresses allocated at create, assignable to a load balancer."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any

from altostratus.emulator.errors import not_found
from altostratus.emulator.reading.bodies import ReservedIpCreate, ReservedIpUpdate
from altostratus.emulator.state.accounts import require_quota
from altostratus.emulator.state.base import Effects, Record, Store, entry, new_id


@dataclass
class ReservedIp(Record):
    name: str
    ip: str
    assigned_to_id: str | None = None


class ReservedIps(Store[ReservedIp, ReservedIpCreate, ReservedIpUpdate]):
    kind = "ip"
    label = "reserved IP"
    indexed = ("name", "assigned_to_id")
    takes_time = True

    def answer_inputs(self, reserved: ReservedIp) -> Hashable:
        balancer = self.state.load_balancers.records.get(reserved.assigned_to_id or "")
        return () if balancer is None else (balancer.id, balancer.name)

    def seed_entry(self, reserved: ReservedIp) -> dict[str, Any]:
        """With the balancer it is assigned to (``assign_to_id``), unless that one is going."""
        balancers = self.state.load_balancers
        assigned = reserved.assigned_to_id
        if assigned not in balancers.records or assigned in balancers.removals:
            assigned = None
        return entry(reserved, name=reserved.name, assign_to_id=assigned)

    def describe(self, reserved: ReservedIp) -> dict[str, Any]:
        """The retrieve answer, and a list's item: ``assigned_to`` only while assigned (the
        spec's list summary has id, name and ip; the official CLI reads ``assigned_to`` from the
        list)."""
        body: dict[str, Any] = {"id": reserved.id, "name": reserved.name, "ip": reserved.ip}
        balancer = self.state.load_balancers.records.get(reserved.assigned_to_id or "")
        if balancer is not None:
            body["assigned_to"] = {"id": balancer.id, "type": "loadbalancer", "name": balancer.name}
        return body

    def assigned_to(self, balancer_id: str) -> ReservedIp | None:
        found = self.records.find("assigned_to_id", balancer_id)
        return found[0] if found else None

    def create(
        self, account_id: str, region: str, effects: Effects, fields: ReservedIpCreate
    ) -> ReservedIp:
        """Named by its address when ``name`` is absent, as the official Go client documents."""
        if fields.name is not None:
            self.check_name_free(account_id, region, fields.name)
        require_quota(self.state, account_id, "public_ip_address")
        ip = self.state.public_pool.allocate()
        reserved = ReservedIp(
            id=new_id(),
            account_id=account_id,
            region=region,
            name=ip if fields.name is None else fields.name,
            ip=ip,
        )
        self.records[reserved.id] = reserved
        effects.emit(account_id, "ip.created", reserved.id)
        return reserved

    def update(self, reserved: ReservedIp, effects: Effects, changes: ReservedIpUpdate) -> None:
        self.require_live(reserved)
        self.rename(reserved, changes.name)
        effects.emit(reserved.account_id, "ip.updated", reserved.id)

    def assign(
        self, reserved: ReservedIp, effects: Effects, balancer_id: str, kind: str | None = None
    ) -> None:
        """Attach to a balancer of the same account and region; whatever it held is released.
        ``kind`` is the ``assign_to_type`` sent: ``instance`` is never found (404
        ``database_instance_not_found``: the emulator serves no instances)."""
        self.require_live(reserved)
        if kind == "instance":
            raise not_found("instance", "instance")
        balancers = self.state.load_balancers
        balancer = balancers.get_live(reserved.account_id, reserved.region, balancer_id)
        previous = self.assigned_to(balancer.id)
        if previous is not None and previous is not reserved:
            self.unassign(previous, effects)
        reserved.assigned_to_id = balancer.id
        effects.emit(reserved.account_id, "ip.updated", reserved.id)

    def unassign(self, reserved: ReservedIp, effects: Effects) -> None:
        """Idempotent: unassigning an unassigned IP succeeds and changes nothing."""
        if reserved.assigned_to_id is None:
            return
        reserved.assigned_to_id = None
        effects.emit(reserved.account_id, "ip.updated", reserved.id)

    def remove(self, reserved: ReservedIp, effects: Effects) -> None:
        self.state.public_pool.release(reserved.ip)
        del self.records[reserved.id]
        effects.emit(reserved.account_id, "ip.deleted", reserved.id)
