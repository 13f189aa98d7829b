"""The emulator's state: every account and resource, behind one lock.

``State`` composes one store per resource kind, built from the table of kinds (``kinds``), and
answers the S3 front and the webhook worker as their
directory. Request handlers run with ``lock`` held; side effects that call into the S3 service or
the webhook worker are queued in ``Effects`` and run after the lock is released.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from altostratus.emulator.clock import Clock
from altostratus.emulator.s3 import S3Bucket, S3Key
from altostratus.emulator.state.accounts import Account, Accounts
from altostratus.emulator.state.addresses import PublicPool
from altostratus.emulator.state.app_environments import AppEnvironments
from altostratus.emulator.state.application_deployments import ApplicationDeployments
from altostratus.emulator.state.apps import Apps
from altostratus.emulator.state.base import Effects, Store
from altostratus.emulator.state.credentials import Credentials
from altostratus.emulator.state.firewalls import Firewalls
from altostratus.emulator.state.ids import IdSource, StateLock
from altostratus.emulator.state.kinds import KINDS, Kind
from altostratus.emulator.state.load_balancers import LoadBalancers
from altostratus.emulator.state.networks import Networks
from altostratus.emulator.state.object_stores import ObjectStore, ObjectStores
from altostratus.emulator.state.platform_applications import PlatformApplications
from altostratus.emulator.state.platform_environments import PlatformEnvironments
from altostratus.emulator.state.reserved_ips import ReservedIps
from altostratus.emulator.state.webhooks import Webhook, Webhooks
from altostratus.emulator.vocabulary import Region, region_catalogue
from altostratus.emulator.webhooks import DeliveryTarget

DEFAULT_ACCOUNT_NAME = "default"


class BucketHost(Protocol):
    """The S3 service as the state drives it."""

    def create_bucket(self, name: str) -> None: ...

    def delete_bucket(self, name: str) -> None: ...

    def contents(self, name: str) -> tuple[int, int]:
        """The bucket's bytes and its objects."""
        ...

    def reset(self) -> None: ...


@dataclass
class Settings:
    lb_ready_seconds: float = 2.0
    objectstore_ready_seconds: float = 1.0
    delete_seconds: float = 0.0
    """Emulated seconds a deleted network, firewall, load balancer, reserved IP or object store
    stays in its deleting state before it is gone; 0: gone at once."""
    bytes_per_gb: int = 1024**3
    s3_url: str = ""
    regions: dict[str, Region] = field(default_factory=region_catalogue)
    """The regions served: the service's, and any extra ones."""


class NoBuckets:
    """Stands in for the S3 service until one is attached."""

    def create_bucket(self, name: str) -> None:
        pass

    def delete_bucket(self, name: str) -> None:
        pass

    def contents(self, name: str) -> tuple[int, int]:
        return 0, 0

    def reset(self) -> None:
        pass


class State:
    # One store per kind of ``KINDS``, under its ``attribute`` (typed here for the callers).
    networks: Networks
    firewalls: Firewalls
    credentials: Credentials
    object_stores: ObjectStores
    load_balancers: LoadBalancers
    reserved_ips: ReservedIps
    webhooks: Webhooks
    platform_environments: PlatformEnvironments
    platform_applications: PlatformApplications
    application_deployments: ApplicationDeployments
    app_environments: AppEnvironments
    apps: Apps

    def __init__(
        self,
        clock: Clock,
        *,
        api_key: str = "local-dev-key",
        settings: Settings | None = None,
        ids: IdSource | None = None,
    ) -> None:
        """``ids``: where ids, keys and secrets come from (random by default; see ``ids``)."""
        self.lock = StateLock(ids or IdSource())
        self.clock = clock
        self.buckets: BucketHost = NoBuckets()
        self.settings = settings or Settings()
        with self.lock:
            self.accounts = Accounts()
            self.default_account = self.accounts.add(DEFAULT_ACCOUNT_NAME, api_key)
            self.rebuild()

    def rebuild(self, *, with_defaults: bool = True) -> None:
        """Empty stores; each account's default networks too, unless ``with_defaults`` is false
        (a saved state brings its own)."""
        self.public_pool = PublicPool()
        for kind in KINDS:
            setattr(self, kind.attribute, kind.store(self))
        # Settled at every request: the tuple is made once per set of stores, not per request.
        self._stores = tuple(self.store(kind) for kind in reversed(KINDS))
        if with_defaults:
            for account in self.accounts.by_id.values():
                self.networks.add_defaults(account.id)

    def store(self, kind: Kind) -> Store[Any, Any, Any]:
        """The store of ``kind``."""
        found: Store[Any, Any, Any] = getattr(self, kind.attribute)
        return found

    def stores(self) -> tuple[Store[Any, Any, Any], ...]:
        """Every resource store, those whose records refer to others' first."""
        return self._stores

    def settle(self, effects: Effects) -> None:
        """Remove the records whose deleting time is over (call with ``lock`` held)."""
        now = self.clock.monotonic()
        for store in self._stores:
            if store.removals:  # most requests find none waiting: no call for those
                store.settle(now, effects)

    def reset(self) -> None:
        """Every account but the default one, and every resource, gone; fresh default networks;
        a seeded id sequence started again (drawing the default account's id as at the start, the
        same one)."""
        with self.lock:
            self.lock.ids.restart()
            default = self.default_account
            kept_id = None if self.lock.ids.seed is not None else default.id
            self.accounts = Accounts()
            self.default_account = self.accounts.add(default.name, default.api_key, kept_id)
            self.rebuild()

    def add_account(self, name: str) -> Account:
        with self.lock:
            account = self.accounts.add(name)
            self.networks.add_defaults(account.id)
            return account

    # The S3 front's directory.

    def s3_key(self, access_key_id: str) -> S3Key | None:
        with self.lock:
            credential = self.credentials.by_key(access_key_id)
            if credential is None:
                return None
            return S3Key(
                credential.access_key_id, credential.secret_access_key_id, credential.account_id
            )

    def s3_bucket(self, name: str) -> S3Bucket | None:
        with self.lock:
            for store in self.object_stores.records.find("bucket", name):
                if self._present(store):
                    return self._bucket(store)
            return None

    def s3_buckets_of(self, access_key_id: str) -> list[S3Bucket]:
        with self.lock:
            credential = self.credentials.by_key(access_key_id)
            if credential is None:
                return []
            stores = self.object_stores.records.find("owner_id", credential.id)
            return [self._bucket(s) for s in stores if self._present(s)]

    def _present(self, store: ObjectStore) -> bool:
        """False once the store's deleting time is over (the next API request removes it)."""
        at = self.object_stores.removals.get(store.id)
        return at is None or at > self.clock.monotonic()

    def _bucket(self, store: ObjectStore) -> S3Bucket:
        owner = self.credentials.records[store.owner_id]
        size = store.max_size_gb * self.settings.bytes_per_gb
        return S3Bucket(store.bucket, store.account_id, owner.access_key_id, size)

    # The webhook worker's directory.

    def delivery_targets(self, account_id: str, event: str) -> list[DeliveryTarget]:
        with self.lock:
            return [
                target_of(w)
                for w in self.webhooks.all(account_id)
                if not w.disabled and ("*" in w.events or event in w.events)
            ]

    def delivery_target(self, webhook_id: str) -> DeliveryTarget | None:
        with self.lock:
            webhook = self.webhooks.records.get(webhook_id)
            if webhook is None or webhook.disabled:
                return None
            return target_of(webhook)

    def record_delivery_failure(self, webhook_id: str, reason: str, disable: bool) -> None:
        with self.lock:
            webhook = self.webhooks.records.get(webhook_id)
            if webhook is not None:
                webhook.failures += 1
                webhook.last_failure_reason = reason
                webhook.disabled = webhook.disabled or disable


def target_of(webhook: Webhook) -> DeliveryTarget:
    """The webhook's delivery target, whatever its state."""
    return DeliveryTarget(
        webhook.id, webhook.account_id, webhook.url, webhook.secret, tuple(webhook.events)
    )
