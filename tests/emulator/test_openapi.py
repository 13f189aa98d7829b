"""The OpenAPI document is valid, covers every route, and describes the real answers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate

from altostratus.emulator.openapi import document
from altostratus.emulator.state.decisions import DECISIONS
from tests.support.service_api import Api, Reply

BACKEND = {"ip": "10.0.0.9", "protocol": "TCP", "source_port": 80, "target_port": 80}


def shape(path: str) -> str:
    return re.sub(r"[<{][^>}]+[>}]", "{}", path)


class Checker:
    """Calls through ``Api`` and validates every answer against the document."""

    def __init__(self, api: Api) -> None:
        self.api = api
        self.doc = document()
        self.templates = {shape(p): p for p in self.doc["paths"]}
        self.seen: set[tuple[str, str]] = set()

    def schema_for(self, method: str, url: str, status: int) -> dict[str, Any]:
        for template_shape, template in self.templates.items():
            pattern = "^" + re.escape(template_shape).replace(r"\{\}", "[^/]+") + "$"
            if re.match(pattern, url):
                operation = self.doc["paths"][template][method.lower()]
                self.seen.add((method.lower(), template))
                response = operation["responses"][str(status)]
                if "$ref" in response:
                    response = self.doc["components"]["responses"][str(status)]
                return response["content"]["application/json"]["schema"]  # type: ignore[no-any-return]
        raise AssertionError(f"{method} {url} is not documented")

    def call(self, method: str, path: str, body: dict[str, Any] | None = None, **kw: Any) -> Any:
        reply: Reply = self.api.call(method, path, body, **kw)
        schema = self.schema_for(method, self.api.url(path), reply.status)
        validator = OAS30Validator({**schema, "components": self.doc["components"]})
        errors = list(validator.iter_errors(reply.body))
        assert not errors, f"{method} {path}: {errors[0].message}"
        return reply.body


def test_the_document_is_valid_openapi() -> None:
    validate(document())


def test_every_route_is_documented(wsgi_api: Api) -> None:
    routes = {
        (rule.methods - {"HEAD", "OPTIONS"}).pop().lower() + " " + shape(rule.rule)
        for rule in wsgi_api.app.url_map.iter_rules()
    }
    documented = {
        f"{method} {shape(path)}"
        for path, operations in document()["paths"].items()
        for method in operations
    }
    assert routes == documented


def test_answers_match_the_document_for_every_operation(wsgi_api: Api) -> None:
    check = Checker(wsgi_api)
    for prefix in ("/v2/vpc", "/v2"):
        wsgi_api.prefix = prefix
        scenario(wsgi_api, check)
    platform_scenario(check)
    documented = {(m, p) for p, ops in document()["paths"].items() for m in ops}
    assert check.seen == documented


def scenario(api: Api, check: Checker) -> None:
    network = check.call("POST", "/networks", {"label": "n", "cidr_v4": "10.9.0.0/24"})
    check.call("GET", "/networks")
    check.call("GET", f"/networks/{network['id']}")
    check.call("PUT", f"/networks/{network['id']}", {"label": "m"})
    firewall = check.call("POST", "/firewalls", {"name": "fw", "network_id": network["id"]})
    check.call("GET", "/firewalls")
    check.call("GET", f"/firewalls/{firewall['id']}")
    check.call("PUT", f"/firewalls/{firewall['id']}", {"name": "fw2"})
    rules = f"/firewalls/{firewall['id']}/rules"
    rule = check.call("POST", rules, {"protocol": "tcp", "start_port": "22"})
    check.call("GET", rules)
    check.call("PUT", f"{rules}/{rule['id']}", {"label": "ssh"})
    check.call("DELETE", f"{rules}/{rule['id']}")
    body = {"name": "lb", "network_id": network["id"], "backends": [BACKEND]}
    balancer = check.call("POST", "/loadbalancers", body)
    check.call("GET", "/loadbalancers")
    api.advance(10)
    check.call("PUT", f"/loadbalancers/{balancer['id']}", {"algorithm": "least_connections"})
    reserved = check.call("POST", "/ips", {"name": "ip"})
    check.call(
        "POST",
        f"/ips/{reserved['id']}/actions",
        {"action": "assign", "assign_to_id": balancer["id"]},
    )
    check.call("GET", f"/ips/{reserved['id']}")
    check.call("GET", f"/loadbalancers/{balancer['id']}")
    check.call("GET", "/ips", query={"per_page": 1})
    check.call("PUT", f"/ips/{reserved['id']}", {"name": "ip2"})
    check.call("POST", f"/ips/{reserved['id']}/actions", {"action": "unassign"})
    check.call("GET", f"/ips/{reserved['id']}")
    check.call("DELETE", f"/ips/{reserved['id']}")
    check.call("DELETE", f"/loadbalancers/{balancer['id']}")
    check.call("DELETE", f"/firewalls/{firewall['id']}")
    check.call("DELETE", f"/networks/{network['id']}")
    credential = check.call("POST", "/objectstore/credentials", {"name": "c"})
    check.call("GET", "/objectstore/credentials")
    check.call("GET", f"/objectstore/credentials/{credential['id']}")
    check.call("PATCH", f"/objectstore/credentials/{credential['id']}", {"max_size_gb": 2})
    check.call("PUT", f"/objectstore/credentials/{credential['id']}", {"max_size_gb": 3})
    store = check.call("POST", "/objectstores", {"name": "s"})
    check.call("GET", "/objectstores")
    check.call("GET", f"/objectstores/{store['id']}")
    check.call("GET", f"/objectstores/{store['id']}/stats")
    check.call("PATCH", f"/objectstores/{store['id']}", {"max_size_gb": 2})
    check.call("PUT", f"/objectstores/{store['id']}", {"max_size_gb": 3})
    check.call("DELETE", f"/objectstores/{store['id']}")
    check.call("DELETE", f"/objectstore/credentials/{credential['id']}")
    webhook = check.call("POST", "/webhooks", {"url": "https://example.com"})
    check.call("GET", "/webhooks")
    check.call("PUT", f"/webhooks/{webhook['id']}", {"secret": "s"})
    check.call("POST", f"/webhooks/{webhook['id']}/test")
    check.call("DELETE", f"/webhooks/{webhook['id']}")
    check.call("GET", "/quota")
    check.call("GET", "/regions")
    check.call("GET", "/networks/nope")
    check.call("POST", "/networks", {})


def platform_scenario(check: Checker) -> None:
    """The ``/api/v1`` operations, in the emulator's own organization's namespace."""
    check.call("GET", "/api/v1/team-management/default/clusters")
    environment = {"name": "dev", "namespace": "default", "clusters": ["lon1-managed"]}
    check.call("POST", "/api/v1/environment", environment)
    check.call("GET", "/api/v1/environments")
    check.call("GET", "/api/v1/environment/default/dev")
    check.call("PUT", "/api/v1/environment", {**environment, "description": "d"})
    app = {"name": "web", "namespace": "default", "repository": "https://example.com/w.git"}
    check.call("POST", "/api/v1/application/register", app)
    check.call("GET", "/api/v1/konstruct-application/default")
    check.call("GET", "/api/v1/konstruct-application/default/web")
    deploy = {"application": "web", "namespace": "default", "environment": "dev"}
    check.call("POST", "/api/v1/application-deployment/deploy", deploy)
    check.call("GET", "/api/v1/application-deployment/default")
    check.call("GET", "/api/v1/application-deployment/default/web")
    check.call("POST", "/api/v1/environment", {"name": "idle", "namespace": "default"})
    check.call("DELETE", "/api/v1/environment/default/idle")
    check.call("GET", "/api/v1/environment/other/dev")
    check.call("GET", "/api/v1/whoami")
    check.call("POST", "/api/v1/app-environments", {"name": "eu", "organization": "default"})
    check.call("GET", "/api/v1/app-environments/default")
    pushed = {"name": "site", "organization": "default", "runtime": "python", "digest": "ab" * 32}
    check.call("POST", "/api/v1/apps", {**pushed, "environment": "eu", "files": 3})
    check.call("GET", "/api/v1/apps/default")
    check.call("GET", "/api/v1/apps/default/site")
    check.call("GET", "/api/v1/apps/default/site/logs", query={"build": "true"})
    check.call("PUT", "/api/v1/apps/default/site/env", {"vars": {"DEBUG": "1"}})
    check.call("GET", "/api/v1/apps/default/site/env")
    check.call("POST", "/api/v1/apps/default/site/redeploy")
    check.call("DELETE", "/api/v1/apps/default/site")


def test_the_document_is_served(wsgi_api: Api) -> None:
    response = wsgi_api.client.get("/openapi.json")
    assert response.status_code == 200 and response.json == document()


def test_the_decisions_where_the_spec_and_the_official_clients_disagree_are_listed(
    wsgi_api: Api,
) -> None:
    served = wsgi_api.call("GET", "/openapi.json").body
    listed = served["x-official-clients"]
    assert [d["shape"] for d in listed] == [d.shape for d in DECISIONS]
    assert all(d["spec"] and d["clients"] and d["emulator"] for d in listed)


def test_the_emulator_guide_shows_every_decision_in_its_official_clients_table() -> None:
    guide = (Path(__file__).parents[2] / "docs" / "emulator.md").read_text()
    table = guide[guide.index("| request shape | answer | why |") :]
    rows = [line for line in table.splitlines() if line.startswith("| ")]
    first_columns = [row.split(" | ")[0].removeprefix("| ") for row in rows]
    for decision in DECISIONS:
        assert decision.shape in first_columns, decision.shape
