"""``altostratus.Provider``: an explicit instance of the provider plugin.

A resource given ``opts=pulumi.ResourceOptions(provider=altostratus.Provider(...))`` is served by
the plugin process of that instance, with that instance's settings: one program reaches several
accounts, API URLs and default regions. A setting left out falls back as the configuration guide
says (the ``ALTOSTRATUS_*`` variables, the service CLI's files, the defaults); an explicit
provider does not read the stack's ``altostratus:*`` configuration, as Pulumi's providers do not.
"""

from __future__ import annotations

from typing import Any

import pulumi

from altostratus.plugin import names


class Provider(pulumi.ProviderResource):
    """The altostratus provider: the service's URL, key and default region, and the other
    settings of ``altostratus:*`` (``api_key`` is kept secret)."""

    def __init__(
        self,
        resource_name: str,
        opts: pulumi.ResourceOptions | None = None,
        *,
        api_key: pulumi.Input[str] | None = None,
        api_url: pulumi.Input[str] | None = None,
        region: pulumi.Input[str] | None = None,
        request_deadline_seconds: pulumi.Input[float] | None = None,
        max_answer_bytes: pulumi.Input[int] | None = None,
        wait_timeout_seconds: pulumi.Input[float] | None = None,
        request_timeout_seconds: pulumi.Input[float] | None = None,
        provider_threads: pulumi.Input[int] | None = None,
        debug: pulumi.Input[bool] | None = None,
    ) -> None:
        given = {
            "api_key": pulumi.Output.secret(api_key) if api_key is not None else None,
            "api_url": api_url,
            "region": region,
            "request_deadline_seconds": request_deadline_seconds,
            "max_answer_bytes": max_answer_bytes,
            "wait_timeout_seconds": wait_timeout_seconds,
            "request_timeout_seconds": request_timeout_seconds,
            "provider_threads": provider_threads,
            "debug": debug,
        }
        props: dict[str, Any] = {
            names.camel(key): value for key, value in given.items() if value is not None
        }
        secret = pulumi.ResourceOptions(additional_secret_outputs=["apiKey"])
        super().__init__(
            names.PACKAGE, resource_name, props, pulumi.ResourceOptions.merge(opts, secret)
        )
