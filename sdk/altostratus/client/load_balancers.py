from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from altostratus.client._collection import RegionalCollection, fields
from altostratus.client.models import LoadBalancer, LoadBalancerBackend

PATH = "/v2/vpc/loadbalancers"

Backends = Sequence[LoadBalancerBackend | Mapping[str, Any]]


def _backends(backends: Backends | None) -> list[dict[str, Any]] | None:
    """Backends as sent; a mapping with an unknown or missing field is refused (ValidationError)."""
    if backends is None:
        return None
    return [
        LoadBalancerBackend.model_validate(item).model_dump(exclude_none=True) for item in backends
    ]


class LoadBalancersAPI(RegionalCollection[LoadBalancer]):
    _path = PATH
    _model = LoadBalancer

    def create(
        self,
        *,
        name: str,
        network_id: str,
        backends: Backends,
        region: str | None = None,
        algorithm: str | None = None,
        external_traffic_policy: str | None = None,
        session_affinity: str | None = None,
        session_affinity_config_timeout: int | None = None,
        enable_proxy_protocol: str | None = None,
        max_concurrent_requests: int | None = None,
        firewall_id: str | None = None,
        options: Mapping[str, int | str] | None = None,
        firewall_rule: str | None = None,
    ) -> LoadBalancer:
        """Create a balancer; it answers `state == ""` until it is ready (`available`).
        `firewall_id` names a firewall of the region for it; without one, the service gives the
        balancer a firewall of its own, opening what `firewall_rule` names (`"all"`,
        `"80,443"`, `"8000-8080"`) or else each backend's source port, deleted with it.
        `options` holds `server_timeout` and `client_timeout`."""
        body = fields(
            name=name,
            network_id=network_id,
            backends=_backends(backends),
            algorithm=algorithm,
            external_traffic_policy=external_traffic_policy,
            session_affinity=session_affinity,
            session_affinity_config_timeout=session_affinity_config_timeout,
            enable_proxy_protocol=enable_proxy_protocol,
            max_concurrent_requests=max_concurrent_requests,
            firewall_id=firewall_id,
            options=None if options is None else dict(options),
            firewall_rule=firewall_rule,
        )
        return self._one(LoadBalancer, "POST", PATH, region=region, body=body)

    def update(
        self,
        id: str,
        *,
        name: str | None = None,
        algorithm: str | None = None,
        external_traffic_policy: str | None = None,
        session_affinity: str | None = None,
        enable_proxy_protocol: str | None = None,
        backends: Backends | None = None,
        region: str | None = None,
        session_affinity_config_timeout: int | None = None,
        max_concurrent_requests: int | None = None,
        options: Mapping[str, int | str] | None = None,
        firewall_rule: str | None = None,
    ) -> LoadBalancer:
        """Update a balancer in place; `backends`, when given, replaces the whole set."""
        body = fields(
            name=name,
            algorithm=algorithm,
            external_traffic_policy=external_traffic_policy,
            session_affinity=session_affinity,
            enable_proxy_protocol=enable_proxy_protocol,
            backends=_backends(backends),
            session_affinity_config_timeout=session_affinity_config_timeout,
            max_concurrent_requests=max_concurrent_requests,
            options=None if options is None else dict(options),
            firewall_rule=firewall_rule,
        )
        path = self._item(id)
        return self._one(LoadBalancer, "PUT", path, region=region, body=body, body_region=False)
