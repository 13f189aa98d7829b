"""What ``pulumi import`` writes a program from: the inputs of a record read knowing only where
it is (its id; a rule's firewall too). Given back as a program's inputs, they pass the check
and differ from the record in nothing, so the code written previews with no change."""

from __future__ import annotations

import pytest

from altostratus.client import Client

from .scenarios import IDS, SCENARIOS, Scenario, dependencies


@pytest.mark.parametrize("scenario", SCENARIOS, ids=IDS)
def test_an_imported_records_inputs_pass_the_check_and_change_nothing(
    configured_client: Client, scenario: Scenario
) -> None:
    provider = scenario.provider
    checked = provider.check({}, scenario.inputs(dependencies(configured_client, scenario.needs)))
    assert checked.failures == []
    made = provider.create(checked.inputs)
    located = {"firewall_id": made.outs["firewall_id"]} if scenario.name == "firewall_rule" else {}

    imported = provider.read(str(made.id), located)
    assert imported.inputs is not None and imported.outs is not None
    again = provider.check({}, imported.inputs)
    assert again.failures == [], again.failures
    assert provider.diff(str(made.id), imported.outs, again.inputs).changes is False
    provider.delete(str(made.id), imported.outs)
