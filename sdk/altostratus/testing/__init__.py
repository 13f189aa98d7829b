"""Test your Pulumi programs offline, in seconds: the real providers against the emulator.

``Stack`` runs a program (a function, or a project directory with ``Pulumi.yaml`` and
``__main__.py``) the way ``pulumi preview``, ``up``, ``refresh`` and ``destroy`` do, with the
altostratus providers running in the real ``python -m pulumi.dynamic`` process, as under the
engine, against an emulator (``altostratus.emulator``)::

    from altostratus.testing import DeploymentFailed, Stack

    def test_the_firewall_opens_only_https(altostratus_stack):
        stack = altostratus_stack("infra/")          # or Stack("infra/", emulator=emulator)
        result = stack.up()
        assert result.outputs["url"].value.startswith("https://")
        stack.set_config("cidr", "10.9.0.0/24")
        assert stack.preview().changed() == {"Network:app": "replace", ...}

Each operation answers a ``Result``: the stack's outputs (``OutputValue`` with ``secret``), each
resource's operation (``create``, ``same``, ``update``, ``replace``, ``delete``, ``read``) with
its inputs and outputs, whether ``--expect-no-changes`` would pass, and, when it fails,
``DeploymentFailed`` carrying the same ``Result`` with each failure as a ``Failure`` record
(resource, operation, message, the property a check refused).

What the in-process runner does as the engine does (each rule cites the engine's or the SDK's
source): the program runs as the Python language host runs it (``run_in_stack``: in the event
loop, ``pulumi.run``, the organization ``organization``, registrations completed before a
program error surfaces, stack outputs as the SDK serializes them); check against the old
inputs, only the first invalid resource reported; diff against the old outputs ("changes
unknown" diffs the inputs); create, update, or replace (checked again with no olds; the
replacement created first and the old resource, marked for deletion once it exists, deleted at
the end, dependents first; delete-before-replace when the diff or ``delete_before_replace``
asks, deleting first the dependents it would replace); resources no longer declared deleted; a
resource a delete-before-replace deleted kept "pending replacement" when the deployment fails,
and recreated (not deleted again) by the next; after the first failed step no other step starts
(those running finish and are kept); resources registered concurrently as their inputs resolve;
preview with unknowns and no change; secrets marked by key and ``additional_secret_outputs``;
the stack configuration stored with the state as the provider's inputs and used by refresh and
destroy; refresh and destroy in parallel, four steps per CPU as the engine's default
``--parallel``; refresh operations from the provider's diff of the refreshed state against the
inputs (``RefreshStep.ResultOp``); ``ResourceOptions(id=...)`` reads (an id a preview does not
know yet is not read; reading another resource under the URN of an owned one deletes the owned
one; declaring a resource that was only read creates one in its place); URNs as the engine makes
them, so ``aliases`` by name or by URN carry a resource over (a component's children with it),
and two resources of one URN fail the deployment; ``import_`` failing as the engine fails for
dynamic providers (and changing nothing for the id the resource has). The resource options
``protect``, ``ignore_changes``, ``retain_on_delete``, ``deleted_with``, ``replace_with``,
``replacement_trigger``, ``transforms`` (the resource's, its ancestors', the stack's) and
``urn`` act as under the engine.

What it does not do, so that nobody mistakes it for the engine:

- the options ``hooks``, and ``provider``, ``version`` and ``plugin_download_url`` on an
  altostratus resource, fail the deployment in one line naming them; ``state_migrations`` fail
  as under the engine; ``replace_on_changes`` (the dynamic provider's diff names no keys),
  ``custom_timeouts`` (the dynamic provider takes none), ``hide_diffs``, ``providers`` and
  ``env_var_mappings`` have no effect, as under the engine (the testing guide's table of options);
- no ``--target``, ``--continue-on-error``, plans, policy packs, ``pulumi import``, explicit
  provider resources: every dynamic resource uses one provider configured with the stack's
  configuration;
- resources of other providers are not run: they get the outputs the test supplies
  (``other_resources``), by default their inputs; provider functions answer through ``invoke``;
- a ``StackReference`` sees the outputs the test gives (``references``/``set_reference``);
- ``up()`` is ``pulumi up --skip-preview``: call ``preview()`` first to see what ``pulumi up``
  would show;
- the engine's step generator checks and diffs one registration at a time; the runner checks and
  diffs registrations that arrive together at once (the calls interleave differently; each
  resource's outcome is the same);
- the program runs in the test's process and interpreter, not in its project's virtualenv
  (from its folder, or the one ``main:`` names, as the language host runs it);
- of a project's configuration files, the defaults of ``Pulumi.yaml`` and the plain values of
  ``Pulumi.<stack>.yaml`` are read, not the encrypted ones (the test sets those);
- the state lives in memory (``Stack.state``), nothing is written to a backend.

With ``engine="pulumi"`` (or ``"auto"``, or ``ALTOSTRATUS_TESTING_ENGINE``) the same API runs the
program with the real engine through Pulumi's Automation API and a local file backend in a
temporary directory, where the ``pulumi`` CLI is installed (see ``Stack`` for what differs).

The pytest plugin ``altostratus.testing.pytest_plugin`` gives ``altostratus_stack``: a factory of
stacks wired to a freshly reset emulator.

The block below is the one list of the public names, loaded on first use (see
``altostratus._exports``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from altostratus._exports import lazy_exports

if TYPE_CHECKING:
    from altostratus.testing._project import ConfigValue as ConfigValue
    from altostratus.testing._properties import plain_secrets as plain_secrets
    from altostratus.testing._properties import reveal as reveal
    from altostratus.testing._properties import secret as secret
    from altostratus.testing._results import CheckFailureResult as CheckFailureResult
    from altostratus.testing._results import DeploymentFailed as DeploymentFailed
    from altostratus.testing._results import Failure as Failure
    from altostratus.testing._results import OutputValue as OutputValue
    from altostratus.testing._results import ResourceResult as ResourceResult
    from altostratus.testing._results import Result as Result
    from altostratus.testing._results import StepEvent as StepEvent
    from altostratus.testing._stack import Stack as Stack
    from altostratus.testing.runner.process import CheckFailed as CheckFailed
    from altostratus.testing.runner.process import CheckFailure as CheckFailure
    from altostratus.testing.runner.process import ProviderProcess as ProviderProcess
    from altostratus.testing.runner.processes import ProviderProcesses as ProviderProcesses
    from altostratus.testing.runner.state import ResourceState as ResourceState
    from altostratus.testing.runner.state import Snapshot as Snapshot
else:
    __all__, __getattr__, __dir__ = lazy_exports(globals())
