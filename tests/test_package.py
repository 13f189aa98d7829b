from __future__ import annotations

import subprocess
import sys

import altostratus
import altostratus.client
import altostratus.providers


def test_the_public_surface_is_pinned() -> None:
    assert sorted(altostratus.__all__) == sorted(
        [
            "__version__",
            "Firewall",
            "FirewallArgs",
            "FirewallRule",
            "FirewallRuleArgs",
            "LoadBalancer",
            "LoadBalancerArgs",
            "LoadBalancerBackendArgs",
            "Network",
            "NetworkArgs",
            "ObjectStore",
            "ObjectStoreArgs",
            "ObjectStoreCredential",
            "ObjectStoreCredentialArgs",
            "ReservedIp",
            "ReservedIpArgs",
            "Webhook",
            "WebhookArgs",
            "APIConnectionError",
            "APIError",
            "APITimeoutError",
            "AltostratusError",
            "AuthenticationError",
            "BadRequestError",
            "Client",
            "ConfigurationError",
            "ConflictError",
            "NotFoundError",
            "OutcomeUnknownError",
            "PermissionDeniedError",
            "QuotaExceededError",
            "RateLimitError",
            "ServerError",
        ]
    )


def test_every_exported_name_resolves_to_its_home() -> None:
    for name in altostratus.__all__:
        value = getattr(altostratus, name)
        if name == "__version__":
            continue
        home = altostratus.providers if hasattr(altostratus.providers, name) else altostratus.client
        assert value is getattr(home, name)


def test_resources_are_the_pulumi_resources_not_the_client_models() -> None:
    assert altostratus.Network is altostratus.providers.Network
    assert altostratus.Network is not altostratus.client.Network


def test_importing_the_package_or_its_command_line_does_not_import_pulumi() -> None:
    code = "import altostratus, altostratus.cli, sys; print('pulumi' in sys.modules)"
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "False"


def test_an_unknown_name_raises_attribute_error() -> None:
    try:
        altostratus.Nope  # noqa: B018
    except AttributeError as error:
        assert "Nope" in str(error)
    else:
        raise AssertionError("no AttributeError")


def test_loading_the_resources_does_not_load_the_http_client() -> None:
    """A Pulumi program imports the resources but never calls the API itself."""
    code = (
        "import sys, altostratus as alto; alto.Network; alto.Webhook; "
        "print(sorted(m for m in ('httpx', 'altostratus.client._client') if m in sys.modules))"
    )
    answer = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert answer.stdout.strip() == "[]"
