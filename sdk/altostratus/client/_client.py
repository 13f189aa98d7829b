from __future__ import annotations

from collections.abc import Callable, Mapping
from types import TracebackType

from altostratus.client._http import BaseTransport, HTTPClient, Timeout
from altostratus.client._settings import DEFAULT_MAX_RETRY_SECONDS, Settings, resolve_settings
from altostratus.client.account import AccountAPI
from altostratus.client.app_environments import AppEnvironmentsAPI
from altostratus.client.application_deployments import ApplicationDeploymentsAPI
from altostratus.client.apps import AppsAPI
from altostratus.client.clusters import ClustersAPI
from altostratus.client.errors import clean_text
from altostratus.client.firewall_rules import FirewallRulesAPI
from altostratus.client.firewalls import FirewallsAPI
from altostratus.client.load_balancers import LoadBalancersAPI
from altostratus.client.login import LoginAPI
from altostratus.client.networks import NetworksAPI
from altostratus.client.object_store_credentials import ObjectStoreCredentialsAPI
from altostratus.client.object_stores import ObjectStoresAPI
from altostratus.client.platform_applications import PlatformApplicationsAPI
from altostratus.client.platform_environments import PlatformEnvironmentsAPI
from altostratus.client.quota import QuotaAPI
from altostratus.client.regions import RegionsAPI
from altostratus.client.reserved_ips import ReservedIpsAPI
from altostratus.client.webhooks import WebhooksAPI


class Client:
    """A client of the service's API, one attribute per collection.

    Settings left unset resolve as `resolve_settings` describes (`deadline`, default 90 s, bounds
    a whole call; `max_answer_bytes`, default 16 MiB, the answers read). `timeout` defaults to 5 s
    to connect and 30 s to read, and bounds each attempt's whole answer too; `max_retries` and
    `max_retry_seconds` bound the retries of one call (see `HTTPClient` for which calls are
    retried); `on_retry` is called with one line before each retry (what, why, the wait). Safe to
    share between threads. ``require_key=False`` makes a client without a key (its calls carry
    no Authorization), for the login calls of `login` only.
    """

    def __init__(
        self,
        api_key: str | None = None,
        api_url: str | None = None,
        region: str | None = None,
        *,
        timeout: float | Timeout | None = None,
        max_retries: int = 4,
        max_retry_seconds: float = DEFAULT_MAX_RETRY_SECONDS,
        deadline: float | None = None,
        max_answer_bytes: int | None = None,
        stack_config: Mapping[str, str] | None = None,
        transport: BaseTransport | None = None,
        on_retry: Callable[[str], None] | None = None,
        require_key: bool = True,
    ) -> None:
        self.settings: Settings = resolve_settings(
            api_key,
            api_url,
            region,
            deadline=deadline,
            max_answer_bytes=max_answer_bytes,
            stack_config=stack_config,
            require_key=require_key,
        )
        self.region = self.settings.region
        self._http = HTTPClient(
            self.settings,
            timeout=timeout,
            max_retries=max_retries,
            max_retry_seconds=max_retry_seconds,
            transport=transport,
            on_retry=on_retry,
        )
        self.networks = NetworksAPI(self._http, self.region)
        self.firewalls = FirewallsAPI(self._http, self.region)
        self.firewall_rules = FirewallRulesAPI(self._http, self.region)
        self.load_balancers = LoadBalancersAPI(self._http, self.region)
        self.reserved_ips = ReservedIpsAPI(self._http, self.region)
        self.object_stores = ObjectStoresAPI(self._http, self.region)
        self.object_store_credentials = ObjectStoreCredentialsAPI(self._http, self.region)
        self.webhooks = WebhooksAPI(self._http, self.region)
        self.quota = QuotaAPI(self._http, self.region)
        self.regions = RegionsAPI(self._http, self.region)
        # The platform's /api/v1 collections, in the key's organization's namespace.
        self.platform_environments = PlatformEnvironmentsAPI(self._http, self.region)
        self.clusters = ClustersAPI(self._http, self.region)
        self.platform_applications = PlatformApplicationsAPI(self._http, self.region)
        self.application_deployments = ApplicationDeploymentsAPI(self._http, self.region)
        # The command line's own /api/v1 calls: identity, login, applications.
        self.account = AccountAPI(self._http, self.region)
        self.login = LoginAPI(self._http, self.region)
        self.apps = AppsAPI(self._http, self.region)
        self.app_environments = AppEnvironmentsAPI(self._http, self.region)

    def __repr__(self) -> str:
        return f"Client(api_url={clean_text(self.settings.api_url)!r}, region={self.region!r})"

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
