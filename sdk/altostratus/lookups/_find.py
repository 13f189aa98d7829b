"""What every lookup shares: the program's client, finding the one match, results, Output forms.

A lookup runs in the program's process, as the provider function of a generated Pulumi SDK runs
in a provider: it reads the program's configuration with the providers' keys and fallbacks
(``altostratus:apiKey``, ``altostratus:apiUrl``, ``altostratus:region``,
``altostratus:requestTimeoutSeconds``; then the environment and the service CLI's files), and
describes what it finds with the providers' own outputs, so a lookup's result and the resource's
``get`` carry the same values under the same names. The outputs the resource keeps secret come
back as secret Outputs.

Under Pulumi's mocks (``pulumi.runtime.set_mocks``) a lookup sends no request: it is an invoke
that the mocks' ``call`` answers (see ``mocked``), with the token ``altostratus:index:get<Name>``
(``getNetwork``, ``getObjectStore``, ``getQuota``, ``getRegions``, ...) and the arguments given
(those left out, or None, are not sent). ``call`` returns the record's outputs by name, with its
``id``.
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import pulumi
import pulumi.runtime
from pulumi.runtime.mocks import MockMonitor
from pulumi.runtime.settings import get_monitor

from altostratus.client._settings import region_code
from altostratus.client.errors import NotFoundError
from altostratus.providers import _config, _threads

if TYPE_CHECKING:
    from altostratus.client import Client

ResultT = TypeVar("ResultT", bound="LookupResult")
T = TypeVar("T")


class Findable(Protocol):
    """What a lookup asks of a resource's provider (the hooks of ``providers._records``): the
    records to search, and the outputs of the one found."""

    @property
    def kind(self) -> str: ...

    @property
    def regional(self) -> bool: ...

    def _listed(self, api: Client, region: str | None) -> list[Any]: ...

    def _fetch(self, api: Client, id_: str, props: dict[str, Any]) -> dict[str, Any]: ...


class NoSingleMatchError(LookupError):
    """A lookup found nothing, or several records where it needs one."""


class _ProgramConfig:
    """The running program's stack configuration, read by full key (``altostratus:apiKey``)."""

    def get(self, key: str) -> Any:
        return pulumi.runtime.get_config(key)


_lock = threading.Lock()
_clients: dict[tuple[tuple[str, str], ...], Client] = {}


def session() -> tuple[Client, dict[str, str]]:
    """The client of the program's configuration (one per configuration), and that config; in
    the provider plugin's process, the provider's (its Invoke runs the lookups)."""
    if _threads.in_plugin():
        return _config.client(), _config.current()
    stack_config = _config.settings_of(_ProgramConfig())
    key = tuple(sorted(stack_config.items()))
    with _lock:
        api = _clients.get(key)
        if api is None:
            api = _clients[key] = _config.new_client(stack_config)
    return api, stack_config


TOKEN_PREFIX = "altostratus:index:get"


def under_mocks() -> bool:
    """Whether the program runs under ``pulumi.runtime.set_mocks`` (not under the runner of
    ``altostratus.testing``, whose monitor stands for the engine: ``stands_for_engine``); never
    in the provider plugin's process, whose Invoke runs the lookups against the service."""
    if _threads.in_plugin():
        return False
    monitor = get_monitor()
    return isinstance(monitor, MockMonitor) and not getattr(monitor, "stands_for_engine", False)


def mocked(kind: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The answer of the mocks' ``call`` to the lookup ``get<kind>`` with ``args`` (the given
    ones); failures the mocks return fail the invoke, as under the engine."""
    token = f"{TOKEN_PREFIX}{kind}"
    given = {key: value for key, value in args.items() if value is not None}
    return dict(pulumi.runtime.invoke(token, given).value or {})


@dataclasses.dataclass(frozen=True)
class LookupResult:
    """Base of the lookups' results: the record's id and the resource's outputs of the same
    names; a field named in the resource's secret outputs is a secret Output."""

    id: str

    @classmethod
    def of(
        cls: type[ResultT], id_: str, outputs: Mapping[str, Any], secrets: tuple[str, ...] = ()
    ) -> ResultT:
        values: dict[str, Any] = {}
        for field in dataclasses.fields(cls):
            value = id_ if field.name == "id" else outputs.get(field.name)
            # In the plugin's process the schema marks them (its Invoke answers plain values).
            secret = field.name in secrets and not _threads.in_plugin()
            values[field.name] = pulumi.Output.secret(value) if secret else value
        return cls(**values)


def described(kind: str, keys: Mapping[str, Any], region: str | None) -> str:
    """``network labelled 'app' in LON1``-like words for messages."""
    words = [kind, *(f"{name}={value!r}" for name, value in keys.items())]
    if region:
        words.append(f"in {region}")
    return " ".join(words)


def only(found: list[T], ids: Callable[[T], str], what: str) -> T:
    """The one record found; none or several is a ``NoSingleMatchError``."""
    if not found:
        raise NoSingleMatchError(f"no {what} exists")
    if len(found) > 1:
        listed = ", ".join(sorted(ids(record) for record in found))
        raise NoSingleMatchError(
            f"{len(found)} records match: {what} ({listed}); look it up by id or a unique key"
        )
    return found[0]


def same(found: Any, wanted: Any) -> bool:
    """Whether a record's value is the one looked for; a list (a webhook's events) is a set."""
    if isinstance(wanted, (list, tuple)) and isinstance(found, (list, tuple)):
        return sorted({str(item) for item in found}) == sorted({str(item) for item in wanted})
    return bool(found == wanted)


def matches(record: Any, keys: Mapping[str, Any]) -> bool:
    return all(same(getattr(record, name, None), value) for name, value in keys.items())


def find(
    provider: Findable,
    *,
    id: str | None,
    keys: Mapping[str, Any],
    region: str | None = None,
) -> tuple[str, dict[str, Any]]:
    """The id and the resource's outputs of the one record with ``id`` (if given) whose fields
    equal ``keys`` (the given ones), among the provider's records of ``region`` for a regional
    resource (the configured one when left out). Under Pulumi's mocks, the mocks' ``call``
    answers (see ``mocked``)."""
    if under_mocks():
        kind = type(provider).__name__.removesuffix("Provider")
        answer = mocked(kind, {"id": id, **keys, "region": region})
        return str(answer.pop("id", None) or id or ""), answer
    api, stack_config = session()
    keys = {name: value for name, value in keys.items() if value is not None}
    where = None
    if provider.regional:
        where = region_code(region) if region else _config.region_of(stack_config)
    props = {"region": where} if where else {}
    what = described(provider.kind, {"id": id, **keys} if id else keys, where)
    if id is not None:
        try:
            outputs = provider._fetch(api, id, props)
        except NotFoundError:
            raise NoSingleMatchError(f"no {what} exists") from None
        only([outputs] if matches_outputs(outputs, keys) else [], lambda _: id, what)
        return id, outputs
    if not keys:
        raise ValueError(f"looking up a {provider.kind} needs its id or a key")
    candidates = provider._listed(api, where)
    found = [r for r in candidates if matches(r, keys)] or searched(candidates, keys)
    record = only(found, lambda r: str(r.id), what)
    # A list may answer less than a read (a reserved IP's assignment): the match is read again.
    return str(record.id), provider._fetch(api, str(record.id), props)


SEARCHED = ("name", "label")
"""The keys a lookup also finds as the Terraform data sources find them (see ``searched``)."""


def searched(candidates: list[Any], keys: Mapping[str, Any]) -> list[Any]:
    """The records the Terraform data sources would find when no field equals a ``name`` or
    ``label`` key: those whose id, name or label is that text; else the one whose id, name or
    label holds it (a part must be unique: several are refused, listed). The other keys must
    still be equal."""
    text = {name: value for name, value in keys.items() if name in SEARCHED}
    rest = {name: value for name, value in keys.items() if name not in SEARCHED}
    if len(text) != 1 or not isinstance(next(iter(text.values())), str):
        return []
    wanted = next(iter(text.values()))
    pool = [r for r in candidates if matches(r, rest)]

    def names(record: Any) -> list[str]:
        values = (getattr(record, field, None) for field in ("id", "name", "label"))
        return [str(value) for value in values if value]

    exact = [r for r in pool if wanted in names(r)]
    if exact:
        return exact
    return [r for r in pool if any(wanted in value for value in names(r))]


def matches_outputs(outputs: Mapping[str, Any], keys: Mapping[str, Any]) -> bool:
    return all(same(outputs.get(name), value) for name, value in keys.items())


def options_given(lookup: Callable[..., Any], opts: object) -> pulumi.InvokeOptions | None:
    """A lookup's ``opts``, which must be a ``pulumi.InvokeOptions`` when given."""
    if opts is not None and not isinstance(opts, pulumi.InvokeOptions):
        raise TypeError(
            f"{lookup.__name__}: opts must be a pulumi.InvokeOptions, not {type(opts).__name__}"
        )
    return opts


def lifted(
    function: Callable[..., T],
    *,
    opts: pulumi.InvokeOptions | None = None,
    **inputs: pulumi.Input[Any] | None,
) -> pulumi.Output[T]:
    """The ``_output`` form of a lookup: its arguments as Inputs, its result as an Output (not
    run while an argument is unknown, as during a preview, nor before the resources of
    ``opts.depends_on`` are made); ``opts`` is given to the lookup."""
    given = {name: pulumi.Output.from_input(value) for name, value in inputs.items()}
    arguments = pulumi.Output.all(**given) if given else pulumi.Output.from_input({})
    waited = pulumi.Output.all(*(resource.urn for resource in depended_on(opts)))
    return pulumi.Output.all(waited, arguments).apply(
        lambda values: function(**values[1], opts=opts)
    )


def depended_on(opts: pulumi.InvokeOptions | None) -> list[pulumi.Resource]:
    """The resources an ``_output`` lookup waits for: ``InvokeOutputOptions.depends_on``, a
    resource or a list of them."""
    found = getattr(opts, "depends_on", None)
    if found is None:
        return []
    listed = found if isinstance(found, (list, tuple)) else [found]
    if not all(isinstance(resource, pulumi.Resource) for resource in listed):
        raise TypeError("a lookup's opts.depends_on must be a resource or a list of resources")
    return list(listed)
