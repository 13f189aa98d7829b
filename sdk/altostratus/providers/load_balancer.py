"""LoadBalancer: a balancer in front of backends of a network; create waits until available."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict

import pulumi
from typing_extensions import NotRequired

from altostratus.providers import _regions, _validate
from altostratus.providers._base import Provider
from altostratus.providers._inputs import arg, backend_set, inputs_of, region_arg, required, to_int
from altostratus.providers._records import RegionalRecords
from altostratus.providers._resource import AltostratusResource
from altostratus.providers._validate import contains_unknown

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.client import LoadBalancer as LoadBalancerRecord
    from altostratus.client.load_balancers import LoadBalancersAPI

_BACKEND_CHECKS = {
    "ip": _validate.ipv4_address,
    "protocol": _validate.one_of("TCP", "UDP"),
    "source_port": _validate.port_number,
    "target_port": _validate.port_number,
}
_BACKEND_OPTIONAL = {"health_check_port": _validate.port_number}


@dataclass
class LoadBalancerBackendArgs:
    ip: pulumi.Input[str]
    """The backend's private address, in the balancer's network."""
    protocol: pulumi.Input[str]
    """TCP or UDP."""
    source_port: pulumi.Input[int]
    """The port the balancer listens on."""
    target_port: pulumi.Input[int]
    """The backend's port the traffic goes to."""
    health_check_port: pulumi.Input[int] | None = None
    """The port health checks probe; the target port when left out."""


# <generated: LoadBalancerBackendArgsDict>
class LoadBalancerBackendArgsDict(TypedDict):
    ip: pulumi.Input[str]
    protocol: pulumi.Input[str]
    source_port: pulumi.Input[int]
    target_port: pulumi.Input[int]
    health_check_port: NotRequired[pulumi.Input[int]]


# </generated>


def _backend(value: Any) -> str | None:
    if not isinstance(value, dict):
        return "must be a backend with ip, protocol, source_port and target_port"
    unknown = sorted(set(value) - set(_BACKEND_CHECKS) - set(_BACKEND_OPTIONAL))
    if unknown:
        return f"has unknown fields {unknown}"
    for key, check in {**_BACKEND_CHECKS, **_BACKEND_OPTIONAL}.items():
        if key not in value:
            if key in _BACKEND_OPTIONAL:
                continue
            return f"{key} is required"
        if value[key] is None and key in _BACKEND_OPTIONAL:
            continue
        reason = None if contains_unknown(value[key]) else check(value[key])
        if reason is not None:
            return f"{key} {reason}"
    return None


def _backends(value: Any) -> Any:
    return [{k: to_int(v) for k, v in backend.items() if v is not None} for backend in value]


def _address(backend: dict[str, Any]) -> tuple[str, Any, Any]:
    return (
        str(backend.get("ip")),
        to_int(backend.get("source_port")),
        to_int(backend.get("target_port")),
    )


def completed_backends(answered: Any, given: Any) -> Any:
    """The answered backends, each field the service leaves out (the official clients' answers
    may lack ``protocol``) taken from the given backend of the same address and ports: what the
    service does not report stays as the program set it, rather than show as a change; and a
    ``health_check_port`` the program did not set is left out."""
    if not isinstance(answered, list) or not isinstance(given, list):
        return answered
    by_address = {_address(backend): backend for backend in given if isinstance(backend, dict)}
    completed = []
    for backend in answered:
        if isinstance(backend, dict):
            match = by_address.get(_address(backend), {})
            backend = {key: match.get(key) if v is None else v for key, v in backend.items()}
            if match and match.get("health_check_port") is None:
                # The service answers its own health check port where the program set none.
                backend.pop("health_check_port", None)
        completed.append(backend)
    return completed


@dataclass(kw_only=True)
class LoadBalancerArgs:
    network_id: pulumi.Input[str] = field(metadata=required(_validate.text, replaces=True))
    """The private network the balancer and its backends are in."""
    backends: pulumi.Input[
        Sequence[pulumi.Input[LoadBalancerBackendArgs | LoadBalancerBackendArgsDict]]
    ] = field(
        metadata=required(_validate.list_of(_backend), normalize=backend_set, coerce=_backends)
    )
    """The whole set of backends; an update replaces the set."""
    name: pulumi.Input[str] | None = arg(_validate.text)
    """Unique per region; ``<resource name>-<7 random characters>`` when left out."""
    region: pulumi.Input[str] | None = region_arg()
    algorithm: pulumi.Input[str] | None = arg(_validate.one_of("round_robin", "least_connections"))
    """round_robin (the service's default) or least_connections."""
    external_traffic_policy: pulumi.Input[str] | None = arg(_validate.one_of("Cluster", "Local"))
    """Cluster or Local."""
    session_affinity: pulumi.Input[str] | None = arg(_validate.one_of("None", "ClientIP"))
    """None, or ClientIP to keep a client on one backend."""
    session_affinity_config_timeout: pulumi.Input[int] | None = arg(
        _validate.positive_int, coerce=to_int
    )
    """Seconds a ClientIP affinity lasts."""
    enable_proxy_protocol: pulumi.Input[str] | None = arg(
        _validate.one_of("send", "accept", "send_accept")
    )
    """send, accept or send_accept."""
    max_concurrent_requests: pulumi.Input[int] | None = arg(_validate.positive_int, coerce=to_int)
    """The service's default is 10000."""
    firewall_id: pulumi.Input[str] | None = arg(_validate.text, replaces=True)
    """A firewall of the balancer's region for it; fixed at create."""


class LoadBalancerProvider(RegionalRecords["LoadBalancerRecord"], Provider["LoadBalancerRecord"]):
    removal_takes_time = True
    kind = "load balancer"
    naming = "name"
    reference = "network_id"
    referred_kind = "network"
    reference_missing = frozenset({"database_network_not_found"})
    full_update_answer = True
    state_field = "state"
    """The create answer is the balancer without its ``service_name``: the record is read once
    the balancer is available."""
    fields = inputs_of(LoadBalancerArgs)

    def _records(self, api: Client) -> LoadBalancersAPI:
        return api.load_balancers

    def _refers_in(self, api: Client, value: str, region: str) -> bool:
        return _regions.found(lambda: api.networks.get(value, region=region))

    def _post(self, api: Client, inputs: dict[str, Any]) -> LoadBalancerRecord:
        return api.load_balancers.create(
            name=inputs["name"],
            network_id=inputs["network_id"],
            backends=inputs["backends"],
            region=self._region(inputs),
            algorithm=inputs.get("algorithm"),
            external_traffic_policy=inputs.get("external_traffic_policy"),
            session_affinity=inputs.get("session_affinity"),
            session_affinity_config_timeout=inputs.get("session_affinity_config_timeout"),
            enable_proxy_protocol=inputs.get("enable_proxy_protocol"),
            max_concurrent_requests=inputs.get("max_concurrent_requests"),
            firewall_id=inputs.get("firewall_id"),
        )

    def _put(
        self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]
    ) -> LoadBalancerRecord:
        return api.load_balancers.update(
            id_,
            name=changes.get("name"),
            algorithm=changes.get("algorithm"),
            external_traffic_policy=changes.get("external_traffic_policy"),
            session_affinity=changes.get("session_affinity"),
            enable_proxy_protocol=changes.get("enable_proxy_protocol"),
            backends=changes.get("backends"),
            session_affinity_config_timeout=changes.get("session_affinity_config_timeout"),
            max_concurrent_requests=changes.get("max_concurrent_requests"),
            region=self._region(props),
        )

    def _ready(self, record: LoadBalancerRecord) -> bool:
        return record.state == "available"

    def _live(
        self, api: Client, record: LoadBalancerRecord, props: dict[str, Any]
    ) -> dict[str, Any]:
        live = super()._live(api, record, props)
        live["backends"] = completed_backends(live.get("backends"), props.get("backends"))
        return live


class LoadBalancer(
    AltostratusResource[LoadBalancerArgs], module="altostratus", name="LoadBalancer"
):
    """A load balancer. Changing ``network_id``, ``region`` or ``firewall_id`` replaces it; the
    name, algorithm, policies, ``max_concurrent_requests``, ``session_affinity_config_timeout``
    and the backend set update in place, as the service's own clients update them. Create
    returns once the balancer is ``available``."""

    _provider_class = LoadBalancerProvider
    _args_class = LoadBalancerArgs

    name: pulumi.Output[str]
    network_id: pulumi.Output[str]
    service_name: pulumi.Output[str]
    """The service's internal name for the balancer."""
    algorithm: pulumi.Output[str]
    backends: pulumi.Output[list[dict[str, Any]]]
    public_ip: pulumi.Output[str]
    """The public address, once the balancer is available."""
    private_ip: pulumi.Output[str]
    """The address in its network, once the balancer is available."""
    firewall_id: pulumi.Output[str]
    state: pulumi.Output[str]
    """available once provisioned (the create waits for it)."""
    max_concurrent_requests: pulumi.Output[int]
    created_at: pulumi.Output[str]
    """When the balancer was made (ISO 8601)."""
    external_traffic_policy: pulumi.Output[str]
    session_affinity: pulumi.Output[str]
    session_affinity_config_timeout: pulumi.Output[int]
    enable_proxy_protocol: pulumi.Output[str]
    region: pulumi.Output[str]

    # <generated: LoadBalancer.__init__>
    def __init__(
        self,
        resource_name: str,
        args: LoadBalancerArgs | None = None,
        opts: pulumi.ResourceOptions | None = None,
        *,
        network_id: pulumi.Input[str] | None = None,
        backends: pulumi.Input[
            Sequence[pulumi.Input[LoadBalancerBackendArgs | LoadBalancerBackendArgsDict]]
        ]
        | None = None,
        name: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        algorithm: pulumi.Input[str] | None = None,
        external_traffic_policy: pulumi.Input[str] | None = None,
        session_affinity: pulumi.Input[str] | None = None,
        session_affinity_config_timeout: pulumi.Input[int] | None = None,
        enable_proxy_protocol: pulumi.Input[str] | None = None,
        max_concurrent_requests: pulumi.Input[int] | None = None,
        firewall_id: pulumi.Input[str] | None = None,
    ) -> None:
        self._declare(
            resource_name,
            args,
            opts,
            network_id=network_id,
            backends=backends,
            name=name,
            region=region,
            algorithm=algorithm,
            external_traffic_policy=external_traffic_policy,
            session_affinity=session_affinity,
            session_affinity_config_timeout=session_affinity_config_timeout,
            enable_proxy_protocol=enable_proxy_protocol,
            max_concurrent_requests=max_concurrent_requests,
            firewall_id=firewall_id,
        )

    # </generated>
