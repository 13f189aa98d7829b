"""How a resource's records are created, read, updated and deleted through the client: the hooks
every kind answers.

``RecordHooks`` writes the contract down. Each kind answers its abstract hooks, the calls of the
client that only it knows: ``_post`` (create) and ``_put`` (update in place), as keyword calls a
type checker follows, ``_read`` (one record by id), ``_remove`` (its delete) and ``_lookup`` (the
records matching a create's identifying inputs, for a create whose answer was lost). The other
hooks have defaults built on those, which a kind overrides where it differs. A kind whose records
are a regional collection of the client answers ``_read``, ``_remove``, ``_lookup`` and
``_listed`` (the records a lookup searches) through ``RegionalRecords``, naming the collection
(``_records``, typed, so ``RecordT`` is the client model of its records). These hooks only call
the client; ``_base.Provider`` turns what they raise into Pulumi outcomes, and ``_removal``,
``_adopt`` and the lookups call them as declared here, so a kind that leaves one out cannot be
made (a type checker says so where it is).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from altostratus.client._settings import region_code
from altostratus.providers import _config
from altostratus.providers._inputs import Field
from altostratus.providers._wait import wait_until

if TYPE_CHECKING:
    from pydantic import BaseModel

    from altostratus.client import Client
    from altostratus.client._collection import RegionalCollection

RecordT = TypeVar("RecordT", bound="BaseModel")

_BY_KIND: dict[str, type[RecordHooks[Any]]] = {}
"""Each kind's hooks, by the name messages use ("load balancer"): the first class to declare it."""


def hooks_of(kind: str) -> type[RecordHooks[Any]]:
    """The hooks of the kind a message names ("load balancer"), once its module is imported."""
    return _BY_KIND[kind]


class RecordHooks(ABC, Generic[RecordT]):
    kind: ClassVar[str]
    """What the user calls this resource, for messages: "load balancer"."""
    fields: ClassVar[tuple[Field, ...]]
    """The inputs: ``inputs_of(<Name>Args)``."""
    regional: ClassVar[bool] = True
    full_create_answer: ClassVar[bool] = False
    full_update_answer: ClassVar[bool] = False
    """Whether the create / update answer is the whole record (else the record is read after)."""
    state_field: ClassVar[str | None] = None
    """The record's state field, for resources that provision after the create answer."""
    failed_states: ClassVar[frozenset[str]] = frozenset({"failed", "error"})
    status_field: ClassVar[str | None] = None
    """The field showing a removal under way, when it is not ``state_field``."""
    removal_takes_time: ClassVar[bool] = False
    """Whether the service may remove the record after answering its delete (see ``_removal``)."""
    reference: ClassVar[str | None] = None
    """The input naming the record this one refers to, whose region it is made in (see
    ``_regions``): ``network_id`` for a firewall."""
    referred_kind: ClassVar[str] = ""
    """What the user calls the referenced record: "network"."""
    read_under_reference: ClassVar[bool] = False
    """Whether a record is read under the one its reference names (a rule under its firewall):
    its import id is then ``<reference id>:<id>``."""
    reference_missing: ClassVar[frozenset[str]] = frozenset()
    """The codes of a create's answer saying the referenced record is not in the region asked;
    none: the create does not name it, so it is read before (see ``_regions``)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kind = cls.__dict__.get("kind")
        if isinstance(kind, str):
            _BY_KIND.setdefault(kind, cls)

    @abstractmethod
    def _post(self, api: Client, inputs: dict[str, Any]) -> Any:
        """Send the create request; the answer has the new record's ``id``."""

    @abstractmethod
    def _put(self, api: Client, id_: str, changes: dict[str, Any], props: dict[str, Any]) -> Any:
        """Send the update request with the ``changes`` (the changed inputs that the API updates
        in place) of the resource whose new inputs are ``props``."""

    @abstractmethod
    def _read(self, api: Client, id_: str, props: dict[str, Any]) -> RecordT:
        """The record ``id_`` of the resource whose properties are ``props``."""

    @abstractmethod
    def _remove(self, api: Client, id_: str, props: dict[str, Any]) -> None:
        """Send the delete request."""

    @abstractmethod
    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[RecordT]:
        """The records matching the identifying ``inputs`` of a create."""

    def _refers_in(self, api: Client, value: str, region: str) -> bool:
        """Whether the record the ``reference`` input names (``value``) is in ``region``."""
        raise NotImplementedError(f"the {self.kind} refers to no record")

    def _referred(self, value: str) -> str:
        """The referenced record, in words for messages: ``network 'f00d...'``."""
        return f"{self.referred_kind} {value!r}"

    def _where(self, props: dict[str, Any]) -> dict[str, Any]:
        return {"region": self._region(props)} if self.regional else {}

    def _settle(self, api: Client, inputs: dict[str, Any], record: Any) -> dict[str, Any]:
        """Outputs of a created (or adopted) record, once ready."""
        if not self._provisioned(record):
            record = wait_until(
                lambda: self._read(api, record.id, inputs),
                lambda current: str(getattr(current, str(self.state_field))),
                ready=self._provisioned,
                failed=self.failed_states,
                what=f"{self.kind} {record.id}",
                timeout=_config.wait_timeout(),
                now=str(getattr(record, str(self.state_field), None) or "unknown"),
            )
        elif not self.full_create_answer:
            return self._fetch(api, record.id, inputs)
        return self._live(api, record, inputs)

    def _status(self, record: Any) -> str | None:
        """The record's status text (``status_field`` or ``state_field``), if it has one."""
        field = self.status_field or self.state_field
        value = None if field is None else getattr(record, field, None)
        return None if value is None else str(value)

    def _being_removed(self, outputs: dict[str, Any]) -> bool:
        """Whether live outputs show a removal under way (a status of ``deleting``, any case)."""
        field = self.status_field or self.state_field
        return field is not None and str(outputs.get(field) or "").lower() == "deleting"

    def _ready(self, record: RecordT) -> bool:
        return True

    def _provisioned(self, record: RecordT) -> bool:
        """Whether a created record needs no readiness wait: it is ready, or it does not report
        its state at all (waiting for a state that is never answered would only time out)."""
        if self.state_field is None or getattr(record, self.state_field, None) is None:
            return True
        return self._ready(record)

    def _fetch(self, api: Client, id_: str, props: dict[str, Any]) -> dict[str, Any]:
        """The live outputs of the record ``id_``."""
        return self._live(api, self._read(api, id_, props), props)

    def _live(self, api: Client, record: RecordT, props: dict[str, Any]) -> dict[str, Any]:
        """Outputs of a record read from the API."""
        return {**record.model_dump(), **self._where(props)}

    def _apply(
        self, api: Client, id_: str, olds: dict[str, Any], news: dict[str, Any], changed: set[str]
    ) -> dict[str, Any]:
        params = self._updates(news, changed)
        if not params:
            return self._fetch(api, id_, news)
        answer = self._put(api, id_, params, news)
        if self.full_update_answer:
            return self._live(api, answer, news)
        return self._fetch(api, id_, news)

    def _updates(self, news: dict[str, Any], changed: set[str]) -> dict[str, Any]:
        """The changed inputs that the API updates in place."""
        updatable = {f.name for f in self.fields if not (f.replaces or f.at_create)}
        return {name: news.get(name) for name in sorted(changed & updatable)}

    @staticmethod
    def _region(props: dict[str, Any]) -> str:
        return region_code(str(props.get("region") or _config.region()))


class RegionalRecords(RecordHooks[RecordT]):
    """The hooks of a kind whose records are a regional collection of the client (``_records``):
    read, removed, listed and looked up (by ``name``) through it, in the resource's region."""

    @abstractmethod
    def _records(self, api: Client) -> RegionalCollection[RecordT]:
        """The client's collection of these records (``api.networks``)."""

    def _read(self, api: Client, id_: str, props: dict[str, Any]) -> RecordT:
        return self._records(api).get(id_, region=self._region(props))

    def _remove(self, api: Client, id_: str, props: dict[str, Any]) -> None:
        self._records(api).delete(id_, region=self._region(props))

    def _listed(self, api: Client, region: str | None) -> list[RecordT]:
        """The records of ``region`` (the configured one when None): what a lookup searches."""
        return self._records(api).list(region=region)

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[RecordT]:
        records = self._listed(api, self._region(inputs))
        return [record for record in records if getattr(record, "name", None) == inputs["name"]]
