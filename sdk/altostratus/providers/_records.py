"""How a resource's records are created, read, updated and deleted through the client.

The defaults fit a collection of the client with ``create``, ``list``, ``get``, ``update`` and
``delete`` taking the inputs as keywords (and ``region`` where the resource has one); a provider
overrides the few that differ. These hooks only call the client; ``_base.Provider`` turns what
they raise into Pulumi outcomes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from altostratus.providers import _config
from altostratus.providers._inputs import Field
from altostratus.providers._wait import wait_until

if TYPE_CHECKING:
    from altostratus.client import Client


class RecordHooks:
    kind: ClassVar[str]
    """What the user calls this resource, for messages: "load balancer"."""
    fields: ClassVar[tuple[Field, ...]]
    collection: ClassVar[str]
    """The client's collection attribute (``load_balancers``), used by the default hooks."""
    regional: ClassVar[bool] = True
    full_create_answer: ClassVar[bool] = False
    full_update_answer: ClassVar[bool] = False
    """Whether the create / update answer is the whole record (else the record is read after)."""
    state_field: ClassVar[str | None] = None
    """The record's state field, for resources that provision after the create answer."""
    failed_states: ClassVar[frozenset[str]] = frozenset({"failed", "error"})

    def _api(self, api: Client) -> Any:
        return getattr(api, self.collection)

    def _where(self, props: dict[str, Any]) -> dict[str, Any]:
        return {"region": self._region(props)} if self.regional else {}

    def _post(self, api: Client, inputs: dict[str, Any]) -> Any:
        params = {field.name: inputs.get(field.name) for field in self.fields}
        return self._api(api).create(**{**params, **self._where(inputs)})

    def _settle(self, api: Client, inputs: dict[str, Any], record: Any) -> dict[str, Any]:
        """Outputs of a created (or adopted) record, once ready."""
        if self.state_field is not None and not self._ready(record):
            record = wait_until(
                lambda: self._api(api).get(record.id, **self._where(inputs)),
                lambda current: str(getattr(current, str(self.state_field))),
                ready=self._ready,
                failed=self.failed_states,
                what=f"{self.kind} {record.id}",
                timeout=_config.wait_timeout(),
            )
        elif not self.full_create_answer:
            return self._fetch(api, record.id, inputs)
        return self._live(api, record, inputs)

    def _ready(self, record: Any) -> bool:
        return True

    def _lookup(self, api: Client, inputs: dict[str, Any]) -> list[Any]:
        records = self._api(api).list(**self._where(inputs))
        return [record for record in records if record.name == inputs["name"]]

    def _fetch(self, api: Client, id_: str, props: dict[str, Any]) -> dict[str, Any]:
        return self._live(api, self._api(api).get(id_, **self._where(props)), props)

    def _live(self, api: Client, record: Any, props: dict[str, Any]) -> dict[str, Any]:
        """Outputs of a record read from the API."""
        return {**record.model_dump(), **self._where(props)}

    def _apply(
        self, api: Client, id_: str, olds: dict[str, Any], news: dict[str, Any], changed: set[str]
    ) -> dict[str, Any]:
        params = self._updates(news, changed)
        if not params:
            return self._fetch(api, id_, news)
        answer = self._api(api).update(id_, **params, **self._where(news))
        if self.full_update_answer:
            return self._live(api, answer, news)
        return self._fetch(api, id_, news)

    def _updates(self, news: dict[str, Any], changed: set[str]) -> dict[str, Any]:
        """The changed inputs that the API updates in place."""
        updatable = {field.name for field in self.fields if not field.replaces}
        return {name: news.get(name) for name in sorted(changed & updatable)}

    def _remove(self, api: Client, id_: str, props: dict[str, Any]) -> None:
        self._api(api).delete(id_, **self._where(props))

    @staticmethod
    def _region(props: dict[str, Any]) -> str:
        return str(props.get("region") or _config.region()).upper()
