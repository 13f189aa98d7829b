"""Lookups of what belongs to the account: webhooks, the regions and the quota."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pulumi

from altostratus.client import Quota, Region
from altostratus.lookups._find import (
    LookupResult,
    find,
    lifted,
    mocked,
    session,
    under_mocks,
)
from altostratus.lookups._routed import routed
from altostratus.providers.webhook import Webhook, WebhookProvider


# <generated: GetWebhookResult>
@dataclass(frozen=True)
class GetWebhookResult(LookupResult):
    """What a lookup found: the id and every output of ``Webhook``, under the same
    names; the outputs it keeps secret are secret Outputs."""

    url: str | None
    events: list[str] | None
    secret: pulumi.Output[str]
    created_at: str | None
    disabled: bool | None
    failures: int | None
    last_failure_reason: str | None


# </generated>


@routed
def get_webhook(
    id: str | None = None,
    url: str | None = None,
    events: Sequence[str] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> GetWebhookResult:
    """The webhook with this ``id``, or its natural key: ``url``, and ``events`` (in any order)
    where several webhooks share a URL. Its ``secret``, the key that signs deliveries, is a
    secret Output."""
    provider = WebhookProvider()
    keys = {"url": url, "events": None if events is None else list(events)}
    id_, outputs = find(provider, id=id, keys=keys)
    return GetWebhookResult.of(id_, outputs, Webhook._secret_outputs)


def get_webhook_output(
    id: pulumi.Input[str] | None = None,
    url: pulumi.Input[str] | None = None,
    events: pulumi.Input[Sequence[pulumi.Input[str]]] | None = None,
    opts: pulumi.InvokeOptions | None = None,
) -> pulumi.Output[GetWebhookResult]:
    """``get_webhook`` on Inputs. On the Output, read the secret with
    ``.apply(lambda hook: hook.secret)``: ``Output.secret`` is a method of every Output."""
    return lifted(get_webhook, opts=opts, id=id, url=url, events=events)


@routed
def get_quota(opts: pulumi.InvokeOptions | None = None) -> Quota:
    """The account's limits and usage (``network_count_limit``, ``network_count_usage``, ...)."""
    if under_mocks():
        return Quota.model_validate(mocked("Quota", {}))
    api, _ = session()
    return api.quota.get()


def get_quota_output(opts: pulumi.InvokeOptions | None = None) -> pulumi.Output[Quota]:
    return lifted(get_quota, opts=opts)


@dataclass(frozen=True)
class GetRegionsResult:
    regions: list[Region]
    """The regions, in the service's order (``regions[0].code``, ``.name``, ``.country``)."""
    codes: list[str]
    """Their codes, as ``region=`` takes them: ``["LON1", "FRA1", ...]``."""
    default_region: str | None
    """The code of the account's default region."""


@routed
def get_regions(
    country: str | None = None, opts: pulumi.InvokeOptions | None = None
) -> GetRegionsResult:
    """The service's regions, those of ``country`` (``GB``, ``DE``; any case) when given."""
    if under_mocks():
        answer = mocked("Regions", {"country": country})
        regions = [Region.model_validate(region) for region in answer.get("regions") or []]
    else:
        api, _ = session()
        regions = api.regions.list()
    if country is not None:
        regions = [r for r in regions if (r.country or "").upper() == country.upper()]
    default = next((region.code for region in regions if region.default), None)
    return GetRegionsResult(regions, [region.code for region in regions], default)


def get_regions_output(
    country: pulumi.Input[str] | None = None, opts: pulumi.InvokeOptions | None = None
) -> pulumi.Output[GetRegionsResult]:
    return lifted(get_regions, opts=opts, country=country)
