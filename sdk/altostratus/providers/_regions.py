"""The region a resource is made in: the region of the record it refers to.

A resource that refers to another record (its kind's ``reference``: a firewall's or a load
balancer's ``network_id``, a rule's ``firewall_id``, a reserved IP's ``assign_to_id``, an object
store's ``access_key_id``) lives where that record lives, as on the service a firewall can only be
made in its network's region. When the program names no ``region``, the check leaves it out (the
referenced record may not exist yet, and a check calls no API), and the create finds the region:

1. it sends the create to the region named, or else the configured one; most stacks keep their
   records in one region, so this costs nothing more;
2. when the service answers that the referenced record is not there (the kind's
   ``reference_missing`` codes: ``404 database_network_not_found`` for a firewall), it reads the
   record in each other region the service lists (``GET /v2/regions``, in its order), and sends
   the create again to the region that has it.

A reserved IP's create does not name its balancer (the address is assigned after), so its
balancer is read first (one read, then the other regions). The region found is the one the
create sends and the ``region`` output the state records, which refresh, update and delete use;
an update whose program still names no region keeps it (see ``Provider.update``). A region named
that is not the referenced record's fails the create in one line naming both regions; a record
found in no region fails naming the regions asked, as does every other "not found" (see
``Provider._failing``). A resource that names no reference (a firewall on the default network,
an unassigned reserved IP, a store whose owner credential the service makes) is made in the
region named or configured.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from altostratus.client._settings import region_code
from altostratus.client.errors import APIError, BadRequestError, NotFoundError
from altostratus.providers import _config

if TYPE_CHECKING:
    from altostratus.client import Client
    from altostratus.providers._records import RecordHooks


class RegionError(ValueError):
    """The referenced record is in another region than the one named, or in none."""


def refers(hooks: RecordHooks[Any], inputs: dict[str, Any]) -> bool:
    """Whether the resource's inputs name a referenced record."""
    return hooks.reference is not None and bool(inputs.get(hooks.reference))


def first_region(inputs: dict[str, Any]) -> str:
    """The region a create is sent to first: the one named, else the configured one."""
    return region_code(str(inputs.get("region") or _config.region()))


def missing(hooks: RecordHooks[Any], inputs: dict[str, Any], error: APIError) -> bool:
    """Whether ``error``, the answer to a create, says the referenced record is not in the
    region asked (so it may be in another)."""
    return refers(hooks, inputs) and error.code in hooks.reference_missing


def located(
    hooks: RecordHooks[Any], api: Client, inputs: dict[str, Any], *, asked: bool = False
) -> str:
    """The region of the record the resource refers to (see the module); the inputs must name
    one (``refers``). ``asked``: the first region is known not to hold it."""
    assert hooks.reference is not None
    value = str(inputs[hooks.reference])
    named = region_code(str(inputs["region"])) if inputs.get("region") else None
    first = first_region(inputs)
    if not asked and hooks._refers_in(api, value, first):
        return first
    tried = [first]
    for region in api.regions.list():
        code = region_code(region.code)
        if code in tried:
            continue
        tried.append(code)
        if hooks._refers_in(api, value, code):
            if named is not None:
                raise RegionError(
                    f"its {hooks._referred(value)} is in {code}, not in {named} as its region "
                    f"says: name region {code!r}, or leave region out to follow the "
                    f"{hooks.referred_kind}"
                )
            return code
    if named is not None:
        raise RegionError(
            f"no {hooks._referred(value)} exists in {named} (nor in any other region)"
        )
    raise RegionError(
        f"no {hooks._referred(value)} exists in {first} (the configured region) nor in "
        f"{', '.join(tried[1:]) or 'any other region'}"
    )


def found(read: Callable[[], object]) -> bool:
    """Whether ``read`` finds its record: False on a 404, or on the 400 of a region that does
    not offer the kind at all (so it holds none)."""
    try:
        read()
    except NotFoundError:
        return False
    except BadRequestError as error:
        if error.code != "region_feature_unavailable":
            raise
        return False
    return True
