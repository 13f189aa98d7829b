"""The spec's subscribable event names, from which a test delivery to ``*`` picks one."""

from __future__ import annotations

_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("instance", ("created", "deleted", "firewall.updated", "rebooted", "resized")),
    ("instance", ("started", "stopped", "tags.updated")),
    ("domain", ("created", "updated", "deleted")),
    ("domain_record", ("created", "deleted", "updated")),
    ("firewall", ("created", "updated", "deleted")),
    ("firewall_rule", ("created", "deleted")),
    ("kubernetes_cluster", ("created", "deleted", "updated")),
    ("kubernetes_cluster_pool", ("updated",)),
    ("kubernetes_cluster_node", ("recycled",)),
    ("network", ("created", "updated", "deleted")),
    ("ip", ("created", "updated", "deleted")),
    ("ssh_key", ("created", "updated", "deleted")),
    ("volume", ("created", "updated", "deleted", "attached", "detached", "resize")),
    ("app", ("created", "deleted")),
    ("objectstore", ("created", "updated", "deleted")),
    ("objectstorecredential", ("created", "updated", "deleted")),
    ("subnet", ("created", "deleted")),
    ("database", ("created", "updated", "deleted", "restored")),
    ("databasebackup", ("created", "updated", "deleted")),
    ("instance_snapshot", ("created", "updated", "deleted")),
    ("resource_snapshot_schedule", ("created", "updated", "deleted")),
)

EVENT_NAMES: tuple[str, ...] = tuple(
    f"{resource}.{action}" for resource, actions in _GROUPS for action in actions
)
"""Every event name a webhook can subscribe to, ``*`` excepted."""
