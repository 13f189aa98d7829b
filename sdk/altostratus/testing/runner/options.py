"""Resource options as the engine's resource monitor reads them from a registration.

``RegisterResource`` in ``pkg/resource/deploy/source_eval.go`` first lets a child inherit
``deleted_with``, ``protect`` and ``retain_on_delete`` from its parent when it leaves them unset
(``inheritFromParent``), then gathers the options into a ``TransformResourceOptions`` (what
transforms see and may change), and builds the resource's goal from the result. ``options_of``,
``inherit_from_parent`` and ``goal_of`` follow those three steps.

``refused`` names, in one line, an option the runner does not apply to a registration: the
deployment fails there rather than go on as if the option were not given.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2
from pulumi.runtime.proto import alias_pb2, resource_pb2

from altostratus.testing._properties import Properties, from_struct
from altostratus.testing._results import is_dynamic
from altostratus.testing.runner.state import Alias, Goal

Options = resource_pb2.TransformResourceOptions
PROVIDER_PREFIX = "pulumi:providers:"
HOOK_KINDS = (
    "before_create",
    "after_create",
    "before_update",
    "after_update",
    "before_delete",
    "after_delete",
    "on_error",
)
"""The lifecycle points a ``ResourceHookBinding`` binds hooks to."""


def options_of(request: Any) -> Any:
    """The registration's options, as the monitor hands them to transforms (``opts``)."""
    aliases = [alias_pb2.Alias(urn=urn) for urn in request.aliasURNs]
    aliases += list(request.aliases)
    opts = Options(
        depends_on=list(request.dependencies),
        ignore_changes=list(request.ignoreChanges),
        replace_on_changes=list(request.replaceOnChanges),
        version=request.version,
        aliases=aliases,
        provider=request.provider,
        providers=dict(request.providers),
        hide_diff=list(request.hideDiffs),
        plugin_download_url=request.pluginDownloadURL,
        deleted_with=request.deletedWith,
        replace_with=list(request.replace_with),
        additional_secret_outputs=list(request.additionalSecretOutputs),
        plugin_checksums=dict(request.pluginChecksums),
        **{"import": request.importId},
    )
    if request.HasField("protect"):
        opts.protect = request.protect
    if request.HasField("retainOnDelete"):
        opts.retain_on_delete = request.retainOnDelete
    if request.HasField("customTimeouts"):
        opts.custom_timeouts.CopyFrom(request.customTimeouts)
    if request.HasField("hooks"):
        opts.hooks.CopyFrom(request.hooks)
    if request.HasField("replacement_trigger"):
        opts.replacement_trigger.CopyFrom(request.replacement_trigger)
    # The Python SDK says whether it set ``delete_before_replace``; others only send a true one.
    if request.deleteBeforeReplaceDefined or request.deleteBeforeReplace:
        opts.delete_before_replace = request.deleteBeforeReplace
    return opts


def inherit_from_parent(opts: Any, parent: Goal | None) -> None:
    """``inheritFromParent``: unset ``deleted_with``, ``protect`` and ``retain_on_delete`` come
    from the parent's goal."""
    if parent is None:
        return
    if not opts.deleted_with:
        opts.deleted_with = parent.deleted_with
    if not opts.HasField("protect") and parent.protect is not None:
        opts.protect = parent.protect
    if not opts.HasField("retain_on_delete") and parent.retain_on_delete is not None:
        opts.retain_on_delete = parent.retain_on_delete


def refused(request: Any, opts: Any) -> str | None:
    """One line naming an option given that the runner does not apply, or None."""
    if request.envVarMappings and not request.type.startswith(PROVIDER_PREFIX):
        # The monitor's own check: ``RegisterResource`` refuses these outright.
        return "envVarMappings can only be used with provider resources"
    if any(getattr(opts.hooks, kind) for kind in HOOK_KINDS):
        return (
            "ResourceOptions(hooks=...) is not applied by altostratus.testing: the runner runs "
            'no resource hooks (run the stack with engine="pulumi")'
        )
    if not is_dynamic(request.type):
        return None  # another provider's resource: not run, so which plugin runs it is moot
    for option, given in (
        ("provider", opts.provider),
        ("version", opts.version),
        ("plugin_download_url", opts.plugin_download_url),
    ):
        if given:
            return (
                f"ResourceOptions({option}=...) is not applied by altostratus.testing: every "
                "altostratus resource uses the one provider process configured with the stack's "
                "configuration (an altostratus.Provider in the options sends the resource through "
                "the provider plugin instead)"
            )
    return None


def goal_of(
    urn: str,
    request: Any,
    properties: Properties,
    opts: Any,
    dependencies: list[str],
    property_dependencies: dict[str, list[str]],
) -> Goal:
    """The resource's goal from its (transformed) options, as ``RegisterResource`` builds it."""
    return Goal(
        urn=urn,
        type=request.type,
        name=request.name,
        properties=properties,
        custom=bool(request.custom),
        parent=request.parent,
        dependencies=dependencies,
        property_dependencies=property_dependencies,
        additional_secret_outputs=list(opts.additional_secret_outputs),
        delete_before_replace=(
            opts.delete_before_replace if opts.HasField("delete_before_replace") else None
        ),
        aliases=[_alias(alias) for alias in opts.aliases],
        import_id=getattr(opts, "import"),
        protect=opts.protect if opts.HasField("protect") else None,
        retain_on_delete=opts.retain_on_delete if opts.HasField("retain_on_delete") else None,
        deleted_with=opts.deleted_with,
        replace_with=list(opts.replace_with),
        ignore_changes=list(opts.ignore_changes),
        replace_on_changes=list(opts.replace_on_changes),
        replacement_trigger=(
            _value(opts.replacement_trigger) if opts.HasField("replacement_trigger") else None
        ),
        provider=opts.provider,
    )


def _alias(alias: Any) -> Alias:
    if alias.urn:
        return Alias(urn=alias.urn)
    spec = alias.spec
    return Alias(
        name=spec.name,
        type=spec.type,
        parent=spec.parentUrn,
        no_parent=spec.noParent,
        stack=spec.stack,
        project=spec.project,
    )


def _value(value: struct_pb2.Value) -> Any:
    """A single property value off the wire, secrets and unknowns kept (None for a null)."""
    holder = struct_pb2.Struct()
    holder.fields["value"].CopyFrom(value)
    return from_struct(holder).get("value")
