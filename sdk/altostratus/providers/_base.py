"""The machinery every provider shares.

A provider declares its input ``fields`` (from its ``Args``) and the hooks of
``_records.RecordHooks`` that only call the client: ``_post`` (the create request), ``_put`` (the
update request), ``_settle`` (turn a created or adopted record into outputs, reading or waiting
where the answer is thin), ``_lookup`` (existing records matching the identifying inputs),
``_fetch`` (live outputs), ``_apply`` (in-place update, then live outputs) and ``_remove``.
This class owns the Pulumi side (check, diff, create, read, update, delete), and is the one place
where client errors become Pulumi outcomes:

- read: ``NotFoundError`` means gone, and so does a record being removed (``deleting``: it will
  be gone without anyone's action); any other error is raised, never taken as gone;
- delete: ``NotFoundError`` means done; ``InUseError`` is retried while what holds the record is
  going away (else it fails early, naming the holder), and the delete returns once the record is
  gone (see ``_removal``);
- create of a resource that refers to another record and names no region: made in that record's
  region, found when the service answers that the record is not in the region asked (see
  ``_regions``); every ``NotFoundError`` shown names the region asked;
- create: after ``OutcomeUnknownError`` (no answer, a 5xx, or a success that is not the record)
  or a success answer naming no record matching the program (see ``_created``; an id reading
  as 404 right after), the resource is looked up by its identifying fields and adopted when
  found, otherwise created again (at most three attempts), so no duplicate is made;
  a resource made by a create that cannot finish (not ready in time, or its follow-up read or
  assignment failed) is deleted again, so none is left outside state;
- create of a resource declared with ``adopt``: the existing record is adopted, never created,
  and only when it matches the program (see ``_adopt``);
- every other error is raised as one line naming the operation, the resource kind, its id or
  name, and the API's status, code and reason (the API names no request id); a 401 adds that
  the stack's stored key may be stale and how to use the current one (refresh and destroy
  configure the provider from the state).

Under the engine, the SDK's provider process (``python -m pulumi.dynamic``) sends a failing
call's ``traceback.format_exc()`` as the gRPC error's details, which the engine prints whole; in
that process ``configure`` sets ``sys.tracebacklimit`` to 0, so the error is the exception's one
line, unless ``altostratus:debug`` (or ``ALTOSTRATUS_DEBUG``) is set (see ``one_line_errors``).

Providers hold no state: they pickle by reference to their class (see ``__reduce__``), and the
settings and client live in ``_config`` at process level.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any, ClassVar

from pulumi.dynamic import (
    CheckFailure,
    CheckResult,
    ConfigureRequest,
    CreateResult,
    DiffResult,
    ReadResult,
    ResourceProvider,
    UpdateResult,
)

from altostratus.client.errors import (
    AltostratusError,
    APIError,
    APITimeoutError,
    AuthenticationError,
    ConflictError,
    NotFoundError,
    OutcomeUnknownError,
)
from altostratus.providers import _config, _lifetime, _progress, _regions, _threads
from altostratus.providers._adopt import ADOPT_ID, adopt, check_adoption, refuse_replacing
from altostratus.providers._created import created_record, made_instead
from altostratus.providers._inputs import (
    AUTONAMING,
    NAME_PREFIX,
    READ_GIVEN,
    auto_name,
    bucket_safe,
)
from altostratus.providers._records import RecordHooks, RecordT
from altostratus.providers._removal import remove_until_gone
from altostratus.providers._validate import contains_unknown
from altostratus.providers._wait import WaitFailed

if TYPE_CHECKING:
    from altostratus.client import Client

_CREATE_ATTEMPTS = 3
STALE_KEY_HINT = (
    "the API key stored with the stack may be stale (pulumi refresh and destroy use the "
    "configuration saved by the last pulumi up): run pulumi up with the current key first, "
    "or pass --run-program"
)
_SETTLE_DELAYS = (0.5, 1.0, 2.0, 4.0)


class ProviderError(Exception):
    """A provider operation failed; the message is the one line the user sees, naming the
    operation, the resource and the API's status, code and reason.

    Public as ``altostratus.ProviderError``: the engine prints a failing call as the exception's
    qualified name and message (``altostratus.ProviderError: could not create network 'app':
    400 ...``), and the runner does the same.
    """

    __module__ = "altostratus"


def _first_get(props: dict[str, Any]) -> bool:
    """Whether a read is the first of a resource declared with ``get``: the properties are only
    those locating it (a refresh's are the outputs the state recorded). Such a read fails when
    the record is gone: the engine's read step cannot tell "gone" from the dynamic provider's
    answer (it always carries ``__provider``), and would keep a resource with no outputs."""
    given = props.get(READ_GIVEN)
    if given is None:
        return False
    known = {key for key, value in props.items() if value is not None}
    return known <= {*dict(given), READ_GIVEN, "__provider"}


def one_line_errors(*, debug: bool) -> None:
    """In the provider process only: the tracebacks the SDK formats for a failing call hold no
    frame (``sys.tracebacklimit = 0``: the exception's own line), or all of them when ``debug``."""
    if _threads.in_provider_process():
        sys.tracebacklimit = None if debug else 0


class Provider(RecordHooks[RecordT], ResourceProvider):
    naming: ClassVar[str | None] = None
    """The input auto-named from the resource name when left out: "name" (unique, with a random
    suffix, kept stable across updates) or "label" (the resource name itself)."""
    bucket_names: ClassVar[bool] = False
    unique_lookup: ClassVar[bool] = True
    """Whether ``_lookup`` matches on a unique name (else several matches are ambiguous)."""
    serialize_as_secret_always: bool = False
    """The pickled provider (``__provider``, below) is its class's reference, no setting and no
    key: the SDK stores it in plain text instead of as a secret, which the engine would encrypt
    in each resource's inputs and outputs at every checkpoint (the SDK still makes it a secret
    if it ever captured a secret Output)."""

    def __reduce__(self) -> tuple[type[Provider[RecordT]], tuple[()]]:
        return (type(self), ())

    def configure(self, req: ConfigureRequest) -> None:
        """Take the stack config; in the provider process, also its bound of calls at once, and
        its end with the engine's (see ``_lifetime``)."""
        _config.configure(req.config)
        one_line_errors(debug=_config.debug())
        _threads.serve_at_once(_config.provider_threads())
        _lifetime.end_with_engine()

    def _check_together(self, inputs: dict[str, Any]) -> list[CheckFailure]:
        """Rules spanning several inputs (known values only)."""
        return []

    # -- check and diff -----------------------------------------------------------------------
    def check(self, olds: dict[str, Any], news: dict[str, Any]) -> CheckResult:
        names = {field.name for field in self.fields}
        failures = [
            CheckFailure(key, f"{key} is not an input of the {self.kind}")
            for key in news
            if key not in names and key not in (NAME_PREFIX, ADOPT_ID, AUTONAMING, "__provider")
        ]
        failures += check_adoption(self, news)
        inputs: dict[str, Any] = {}
        for field in self.fields:
            value = news.get(field.name)
            if value is None:
                if field.name == "region":
                    if not _regions.refers(self, news):
                        inputs["region"] = _config.region()
                elif field.required and field.name != self.naming:
                    failures.append(CheckFailure(field.name, f"{field.name} is required"))
                continue
            reason = None if contains_unknown(value) else field.validate(value)
            if reason is not None:
                failures.append(CheckFailure(field.name, f"{field.name} {reason}"))
            valid = reason is None and not contains_unknown(value)
            inputs[field.name] = field.coerce(value) if valid else value
        if self.naming is not None and self.naming not in inputs:
            failures += self._name(olds, news, inputs)
        if news.get(ADOPT_ID) is not None:
            inputs[ADOPT_ID] = news[ADOPT_ID]
        if not failures:
            failures = self._check_together(inputs)
        return CheckResult(inputs, failures)

    def _name(
        self, olds: dict[str, Any], news: dict[str, Any], inputs: dict[str, Any]
    ) -> list[CheckFailure]:
        """Default the name (or label) from the resource name, once.

        A check with olds (an update) keeps the default made before, even when the resource was
        renamed with ``aliases`` and its prefix changed: the engine carries the state across the
        rename, so the name must stay. A replacement is checked with no olds and gets a fresh
        name, so create-before-delete never collides with the old one. The engine's autonaming,
        when it sends one, makes the default instead (see ``_autonamed``).
        """
        assert self.naming is not None
        prefix = str(news.get(NAME_PREFIX) or self.kind.replace(" ", "-"))
        inputs[NAME_PREFIX] = prefix
        autonaming = news.get(AUTONAMING)
        if NAME_PREFIX in olds and olds.get(self.naming):
            inputs[self.naming] = olds[self.naming]
        elif isinstance(autonaming, dict):
            return self._autonamed(autonaming, inputs)
        elif self.naming == "label":
            inputs["label"] = prefix
        else:
            inputs["name"] = auto_name(prefix, bucket=self.bucket_names)
        return []

    def _autonamed(self, autonaming: dict[str, Any], inputs: dict[str, Any]) -> list[CheckFailure]:
        """The default name as the stack's ``pulumi:autonaming`` makes it (through the plugin):
        the name the engine proposes, as it is under ``enforce`` and lowered to a bucket's
        alphabet for a store under ``propose``; none under ``disable``, where the program must
        name the resource."""
        assert self.naming is not None
        if autonaming.get("mode") == "disable":
            return [
                CheckFailure(
                    self.naming,
                    f"{self.naming} is required: automatic names are disabled for this resource "
                    "(pulumi:autonaming)",
                )
            ]
        proposed = str(autonaming.get("proposed_name") or "")
        if autonaming.get("mode") == "propose" and self.bucket_names:
            proposed = bucket_safe(proposed)
        (field,) = [field for field in self.fields if field.name == self.naming]
        reason = field.validate(proposed)
        if reason is not None:
            return [
                CheckFailure(
                    self.naming,
                    f"{self.naming} {reason} (the name pulumi:autonaming proposed: {proposed!r})",
                )
            ]
        inputs[self.naming] = field.coerce(proposed)
        return []

    def _changed(self, olds: dict[str, Any], news: dict[str, Any]) -> list[str]:
        changed = []
        for field in self.fields:
            if field.at_create or (field.name not in news and field.keep_when_absent):
                continue
            new, old = news.get(field.name), olds.get(field.name)
            if contains_unknown(new) or field.normalize(old) != field.normalize(new):
                changed.append(field.name)
        return changed

    def diff(self, _id: str, olds: dict[str, Any], news: dict[str, Any]) -> DiffResult:
        changed = self._changed(olds, news)
        replace_fields = {field.name for field in self.fields if field.replaces}
        replaces = [name for name in changed if name in replace_fields]
        with self._failing("replace", _id):
            refuse_replacing(self, news, replaces)
        fixed_name = self.naming == "name" and NAME_PREFIX not in news and "name" not in changed
        return DiffResult(
            changes=bool(changed),
            replaces=replaces,
            delete_before_replace=bool(replaces) and fixed_name,
        )

    # -- create, read, update, delete ---------------------------------------------------------
    def create(self, props: dict[str, Any]) -> CreateResult:
        inputs = {k: v for k, v in props.items() if k != "__provider"}
        ident = inputs.get("name") or inputs.get("label") or inputs.get("url") or ""
        if inputs.get(ADOPT_ID):
            return self._adopt(inputs, str(inputs[ADOPT_ID]))
        if _regions.refers(self, inputs) and not self.reference_missing:
            # Made in its referenced record's region, read first (see _regions).
            with self._failing("create", str(ident)):
                inputs["region"] = _regions.located(self, _config.client(), inputs)
        with self._failing("create", str(ident), inputs):
            api = _config.client()
            try:
                record = self._create_once(api, inputs)
            except ConflictError as error:
                if not error.code.endswith("_duplicate_name"):
                    raise
                raise ProviderError(self._name_taken(api, inputs, ident, error)) from None
            try:
                try:
                    outs = self._settle(api, inputs, record)
                except NotFoundError:
                    # The answered id names no record (see _created): look, as for a lost answer.
                    found = made_instead(self, api, inputs, record)
                    if found is None:
                        raise
                    record = found
                    outs = self._settle(api, inputs, record)
            except (AltostratusError, WaitFailed) as error:
                # The resource exists but the create cannot report it: remove it, not orphan it.
                abandoned = self._abandon(api, str(record.id), inputs)
                asked = isinstance(error, NotFoundError) and self.regional
                where = f" in {self._region(inputs)}" if asked else ""
                message = f"could not create {self._what(ident)}{where}: {error}; {abandoned}"
                raise ProviderError(message) from None
        return CreateResult(str(record.id), self._outputs(outs, inputs))

    def _name_taken(
        self, api: Client, inputs: dict[str, Any], ident: object, error: APIError
    ) -> str:
        """The error of a create refused because the name is taken: the record holding it, and
        how to take it over when an interrupted run of this stack made it. The record is never
        taken over here: one made by hand under the same name must not become the stack's."""
        with suppress(AltostratusError):
            found = self._lookup(api, inputs)
            if len(found) == 1:
                held_by = str(getattr(found[0], "id", ""))
                return (
                    f"could not create {self._what(ident)}: {error}; the {self.kind} "
                    f"{held_by} has that name: if an interrupted pulumi up of this stack made "
                    f"it, take it over with adopt (id {held_by}), else choose another name"
                )
        return f"could not create {self._what(ident)}: {error}"

    def _adopt(self, inputs: dict[str, Any], id_: str) -> CreateResult:
        """The create of a resource declared with ``adopt`` (see ``_adopt``)."""
        with self._failing("adopt", id_):
            if _regions.refers(self, inputs):
                # Adopted where its referenced record is; a reference found nowhere is left for
                # the adoption to report as a difference (see _adopt).
                with suppress(_regions.RegionError):
                    inputs["region"] = _regions.located(self, _config.client(), inputs)
            try:
                live = adopt(self, _config.client(), inputs)
            except NotFoundError:
                where = f" in {self._region(inputs)}" if self.regional else ""
                message = f"could not adopt the {self.kind} {id_}: not found{where}"
                raise ProviderError(message) from None
        return CreateResult(id_, self._outputs(live, inputs))

    def _abandon(self, api: Client, id_: str, inputs: dict[str, Any]) -> str:
        """Delete a resource whose create cannot finish, so that nothing is left outside state."""
        try:
            self._remove(api, id_, inputs)
        except NotFoundError:
            pass
        except (AltostratusError, ProviderError) as error:
            return (
                f"deleting the unfinished {self.kind} {id_} failed too ({error}): delete it by hand"
            )
        return f"the unfinished {self.kind} {id_} was deleted"

    def _create_once(self, api: Client, inputs: dict[str, Any]) -> Any:
        for attempt in range(1, _CREATE_ATTEMPTS + 1):
            failure: Exception
            try:
                answer = self._post_where_referred(api, inputs)
            except OutcomeUnknownError as unknown:
                found = self._look_for_created(api, inputs, unknown)
                failure = unknown
            else:
                record = created_record(self, api, inputs, answer)
                if record is not None:
                    return record
                # A success that names no such record (see _created): as good as lost.
                found = self._lookup(api, inputs)
                failure = ProviderError(
                    f"the service answered the create of the {self.kind} with the id "
                    f"{answer.id!r}, which names no {self.kind} matching the program, "
                    f"and none was found"
                )
            if len(found) == 1 or (found and self.unique_lookup):
                return found[0]
            if found:
                raise ProviderError(
                    f"the outcome of creating the {self.kind} is unknown and "
                    f"{len(found)} matching {self.kind}s exist; refusing to guess"
                ) from None
            if attempt == _CREATE_ATTEMPTS:
                raise failure
        raise AssertionError("unreachable")

    def _post_where_referred(self, api: Client, inputs: dict[str, Any]) -> Any:
        """``_post``, sent again to the referenced record's region when the service answers
        that the record is not in the region asked (see ``_regions``); ``inputs`` then name it."""
        try:
            return self._post(api, inputs)
        except APIError as error:
            if not _regions.missing(self, inputs, error):
                raise
            inputs["region"] = _regions.located(self, api, inputs, asked=True)
        return self._post(api, inputs)

    def _look_for_created(
        self, api: Client, inputs: dict[str, Any], unknown: OutcomeUnknownError
    ) -> list[Any]:
        """Records matching a create whose answer was lost.

        An answer that never came in time may belong to a request the service is still working
        on, so after a timeout the lookup is repeated for a while (``_SETTLE_DELAYS``) before the
        caller concludes that nothing was made. After an answer (a 5xx) or a dropped connection,
        the service is done with the request and one lookup tells.
        """
        why = unknown.cause if unknown.cause is not None else unknown
        _progress.say(f"the create's answer was lost ({why}); looking for what it made")
        found: list[Any] = self._lookup(api, inputs)
        if isinstance(unknown.cause, APITimeoutError):
            for delay in _SETTLE_DELAYS:
                if found:
                    break
                time.sleep(delay)
                found = self._lookup(api, inputs)
        return found

    def read(self, id_: str, props: dict[str, Any]) -> ReadResult:
        with self._failing("read", id_, props):
            try:
                live = self._fetch(_config.client(), id_, props)
            except NotFoundError:
                if _first_get(props):
                    raise ProviderError(self._not_there(id_, props)) from None
                return ReadResult(id_=None, outs={})
        if self._being_removed(live):
            if _first_get(props):
                # The engine would keep a resource with no outputs (see _first_get): fail.
                raise ProviderError(f"could not read {self._what(id_)}: it is being deleted")
            return ReadResult(id_=None, outs={})
        outs = self._outputs(live, props)
        if READ_GIVEN in props:
            # Read with ``get``: the inputs stay those the program gave (see READ_GIVEN).
            given = dict(props[READ_GIVEN] or {})
            outs[READ_GIVEN] = given
            return ReadResult(id_=id_, outs=outs, inputs={**given, READ_GIVEN: given})
        # A value the service answers that no program could give (a load balancer's empty
        # ``enable_proxy_protocol``: none set) is no input: an import writes code from these.
        inputs = {
            field.name: outs[field.name]
            for field in self.fields
            if outs.get(field.name) is not None
            and not field.secret
            and field.validate(outs[field.name]) is None
        }
        if NAME_PREFIX in props:
            inputs[NAME_PREFIX] = props[NAME_PREFIX]
        return ReadResult(id_=id_, outs=outs, inputs=inputs)

    def _not_there(self, id_: str, props: dict[str, Any]) -> str:
        """The error of a ``get`` whose record does not exist where it looked."""
        if not self.regional:
            return f"could not read {self._what(id_)}: it does not exist"
        region = self._region(props)
        named = (props.get(READ_GIVEN) or {}).get("region")
        why = "" if named else " (the configured region: get looks there when given no region)"
        return f"could not read {self._what(id_)}: it does not exist in {region}{why}"

    def update(self, id_: str, olds: dict[str, Any], news: dict[str, Any]) -> UpdateResult:
        news = {k: v for k, v in news.items() if k != "__provider"}
        changed = set(self._changed(olds, news))
        if self.regional and news.get("region") is None and olds.get("region"):
            # A program naming no region keeps the one the create found (see _regions).
            news["region"] = olds["region"]
        for field in self.fields:
            if field.at_create:
                news[field.name] = olds.get(field.name)  # the value the create used
        with self._failing("update", id_, news):
            live = self._apply(_config.client(), id_, olds, news, changed)
        known = {k: v for k, v in olds.items() if k != NAME_PREFIX}
        return UpdateResult(self._outputs(live, {**known, **news}))

    def delete(self, id_: str, props: dict[str, Any]) -> None:
        with self._failing("delete", id_, props):
            remove_until_gone(self, _config.client(), id_, props)

    def _outputs(self, live: dict[str, Any], inputs: dict[str, Any]) -> dict[str, Any]:
        """Live outputs, completed by the inputs the service does not echo."""
        outs = {k: v for k, v in live.items() if k != "id"}
        for field in self.fields:
            echoed = field.name in outs and not field.keep_when_absent
            if outs.get(field.name) is None and not echoed and field.name in inputs:
                outs[field.name] = inputs[field.name]
        if NAME_PREFIX in inputs:
            outs[NAME_PREFIX] = inputs[NAME_PREFIX]
        return outs

    def _what(self, ident: object) -> str:
        return f"{self.kind} {ident!r}" if ident else f"the {self.kind}"

    @contextmanager
    def _failing(
        self, action: str, ident: str, props: dict[str, Any] | None = None
    ) -> Iterator[None]:
        """Turn what fails into one ``ProviderError`` line; a 404 names the region asked (that
        of the resource's ``props`` when it ends). Progress lines said meanwhile name it."""
        try:
            with _progress.about(self._what(ident)):
                yield
        except AuthenticationError as error:
            raise ProviderError(
                f"could not {action} {self._what(ident)}: {error}; {STALE_KEY_HINT}"
            ) from None
        except NotFoundError as error:
            asked = self.regional and props is not None
            where = f" in {self._region(props)}" if asked and props is not None else ""
            raise ProviderError(f"could not {action} {self._what(ident)}{where}: {error}") from None
        except (AltostratusError, WaitFailed, ValueError) as error:
            raise ProviderError(f"could not {action} {self._what(ident)}: {error}") from None
