"""The two front ends, the one place that tells them apart: which provider process serves a
resource.

A resource of ``altostratus``'s own classes is dynamic (``pulumi-python:dynamic:...``): the
engine serves it with ``python -m pulumi.dynamic`` configured with the whole stack
configuration. A resource of ``altostratus.plugin`` (or given an ``altostratus.Provider``) is
``altostratus:index:<Name>``: the engine serves it with the plugin process of its provider
instance (``pkg/resource/deploy/providers/registry.go``), either the default provider, which
the engine registers from the stack's ``altostratus:*`` configuration
(``pulumi:providers:altostratus::default_<version>``), or an explicit provider resource, each
configured with its own inputs. Both processes answer the same ResourceProvider calls, so the
step logic is the same for both: it calls ``Providers``, which hands each call to the process
of the resource's front end and provider instance.

Provider resources are kept in the state as the engine keeps them: their inputs are the
provider's configuration (secrets marked) and their outputs the same; each plugin resource
records its provider's reference (``<urn>::<id>``). ``pulumi refresh`` and ``pulumi destroy``
configure each instance from those stored inputs, as the engine does.
"""

from __future__ import annotations

import threading
import uuid

from altostratus._version import package_version
from altostratus.testing._properties import Properties
from altostratus.testing._results import DYNAMIC, PLUGIN, front_of, urn_type
from altostratus.testing.runner.process import (
    CheckFailure,
    DiffAnswer,
    PluginProcess,
    ProviderProcess,
)
from altostratus.testing.runner.processes import PROVIDER_KEYS, ProviderProcesses
from altostratus.testing.runner.state import PLUGIN_PROVIDER, ResourceState, Snapshot


class NoProvider(RuntimeError):
    """A plugin resource whose provider instance is not known (not registered, nor in the
    state)."""


def default_provider_name(version: str | None = None) -> str:
    """The engine's name for the default provider of a version (``default_1_2_3``)."""
    return "default_" + (version or package_version()).replace(".", "_").replace("+", "_")


def default_provider_urn(stack: str, project: str) -> str:
    name = default_provider_name()
    return f"urn:pulumi:{stack}::{project}::{PLUGIN_PROVIDER}::{name}"


def default_provider_inputs(config: Properties) -> Properties:
    """The default provider's inputs: the stack's ``altostratus:*`` keys without their
    namespace, and the plugin's version (``GetPackageConfig`` in ``target.go``)."""
    inputs = {
        str(key).removeprefix(PROVIDER_KEYS): value
        for key, value in config.items()
        if str(key).startswith(PROVIDER_KEYS)
    }
    inputs["version"] = package_version()
    return inputs


def new_provider_id() -> str:
    """A provider resource's id: the engine gives each a random UUID."""
    return str(uuid.uuid4())


class Providers:
    """The provider calls of one operation, each sent to the process that serves the resource.

    ``dynamic_config`` configures the dynamic provider (the stack's configuration in an ``up``,
    the stored one in a refresh or destroy); the plugin's instances are those of ``state`` and
    those ``instance`` adds; ``default``, the default provider's URN and inputs in an ``up``,
    serves the lookups and is registered with the first plugin resource that names no
    provider. Every process used is kept from eviction until ``close``.
    """

    def __init__(
        self,
        processes: ProviderProcesses,
        dynamic_config: Properties,
        state: Snapshot,
        default: tuple[str, Properties] | None = None,
    ) -> None:
        self.processes = processes
        self.dynamic_config = dynamic_config
        self.default = default
        self._lock = threading.Lock()
        self._instances: dict[str, Properties] = {}
        self._provider_of: dict[str, str] = {}
        self._pinned: dict[tuple[str, str], ProviderProcess] = {}
        for res in state.resources:
            if res.type == PLUGIN_PROVIDER:
                self._instances.setdefault(f"{res.urn}::{res.id}", res.inputs)
            if res.provider and not res.delete:
                self._provider_of.setdefault(res.urn, res.provider)

    def instance(self, reference: str, inputs: Properties) -> None:
        """The provider of ``reference`` (``<urn>::<id>``) is configured with ``inputs``."""
        with self._lock:
            self._instances[reference] = inputs

    def use(self, urn: str, reference: str) -> None:
        """The plugin resource ``urn`` is served by the provider of ``reference``."""
        with self._lock:
            self._provider_of[urn] = reference

    def serving(self, res: ResourceState) -> Calls:
        """What serves the resource of the state ``res``: for a plugin resource, the provider
        its state names (an old resource replaced along with its provider is deleted by its old
        provider, as the engine does), else the process of its URN."""
        if res.provider and front_of(res.type) == PLUGIN:
            return self._plugin_process(res.provider, res.urn)
        return self

    def process_for(self, urn: str) -> ProviderProcess:
        """The process that serves the resource ``urn`` (started if need be)."""
        if front_of(urn_type(urn)) == DYNAMIC:
            return self._pinned_process((DYNAMIC, ""), self.dynamic_config, plugin=False)
        with self._lock:
            instance = self._provider_of.get(urn, "")
        return self._plugin_process(instance, urn)

    def _plugin_process(self, reference: str, serving: str) -> ProviderProcess:
        """The plugin process of the provider of ``reference`` ("" for the default
        provider)."""
        with self._lock:
            found = self._instances.get(reference)
        if found is None and self.default is not None and reference == "":
            reference, found = self.default
        if found is None:
            raise NoProvider(f"no instance of the altostratus provider plugin serves {serving}")
        return self._pinned_process(("plugin", reference), found, plugin=True)

    def _pinned_process(
        self, key: tuple[str, str], config: Properties, *, plugin: bool
    ) -> ProviderProcess:
        with self._lock:
            process = self._pinned.get(key)
        if process is not None:
            return process
        process = self.processes.pinned(config, plugin=plugin)
        with self._lock:
            kept = self._pinned.setdefault(key, process)
        if kept is not process:
            self.processes.release(process)
        return kept

    def config_replaces(self, urn: str, olds: Properties, news: Properties) -> list[str]:
        """The settings whose change replaces the provider resource ``urn`` (the plugin's
        ``DiffConfig``, asked of a process configured with the new settings)."""
        process = self._pinned_process(("config", urn), news, plugin=True)
        assert isinstance(process, PluginProcess)
        return process.diff_config(urn, olds, news)

    def close(self) -> None:
        """Let go of the processes this operation used (they may be evicted now)."""
        with self._lock:
            pinned = list(self._pinned.values())
            self._pinned.clear()
        for process in pinned:
            self.processes.release(process)

    # -- the calls, as a provider process answers them ---------------------------------------
    def check_result(
        self, urn: str, olds: Properties, news: Properties
    ) -> tuple[Properties, list[CheckFailure]]:
        return self.process_for(urn).check_result(urn, olds, news)

    def diff(
        self,
        urn: str,
        id_: str,
        olds: Properties,
        news: Properties,
        old_inputs: Properties | None = None,
    ) -> DiffAnswer:
        return self.process_for(urn).diff(urn, id_, olds, news, old_inputs)

    def create(self, urn: str, props: Properties) -> tuple[str, Properties]:
        return self.process_for(urn).create(urn, props)

    def read(
        self, urn: str, id_: str, outputs: Properties, inputs: Properties
    ) -> tuple[str, Properties, Properties | None]:
        return self.process_for(urn).read(urn, id_, outputs, inputs)

    def update(self, urn: str, id_: str, olds: Properties, news: Properties) -> Properties:
        return self.process_for(urn).update(urn, id_, olds, news)

    def delete(self, urn: str, id_: str, outputs: Properties) -> None:
        self.process_for(urn).delete(urn, id_, outputs)

    def invoke(self, token: str, args: Properties, reference: str = "") -> Properties:
        """A plugin function (``altostratus:index:get<Name>``), answered by the provider of
        ``reference`` (by default, the default provider)."""
        return self._plugin_process(reference, token).invoke(token, args)


Calls = ProviderProcess | Providers
"""What the step logic calls: the router of an operation (or one process, in tests)."""


def serving(calls: Calls, res: ResourceState) -> Calls:
    """What serves the resource of the state ``res`` (see ``Providers.serving``)."""
    return calls.serving(res) if isinstance(calls, Providers) else calls
