from __future__ import annotations

import builtins
from collections.abc import Mapping

from altostratus.client._collection import Collection, fields, segment
from altostratus.client.models import App, LogLine

PATH = "/api/v1/apps"


class AppsAPI(Collection):
    """The applications of ``cli deploy`` (``/api/v1/apps``), by organization; no region."""

    _regional = False

    def deploy(
        self,
        org: str,
        name: str,
        *,
        runtime: str,
        digest: str,
        files: int | None = None,
        environment: str | None = None,
    ) -> App:
        """Deploy the pushed tree (its ``digest``); an application of that name gets a new
        build."""
        body = fields(
            name=name,
            organization=org,
            runtime=runtime,
            digest=digest,
            files=files,
            environment=environment,
        )
        return self._one(App, "POST", PATH, body=body)

    def list(self, org: str) -> list[App]:
        return self._many(App, f"{PATH}/{segment(org)}")

    def get(self, org: str, name: str) -> App:
        return self._one(App, "GET", _item(org, name))

    def logs(self, org: str, name: str, *, build: bool = False) -> builtins.list[LogLine]:
        """The latest build's lines (``build``), or the runtime's."""
        query = {"build": "true"} if build else None
        answer = self._send("GET", f"{_item(org, name)}/logs", query=query)
        lines = answer.get("lines") if isinstance(answer, dict) else None
        return [LogLine.model_validate(line) for line in lines or []]

    def variables(self, org: str, name: str) -> dict[str, str]:
        answer = self._send("GET", f"{_item(org, name)}/env")
        found = answer.get("vars") if isinstance(answer, dict) else None
        return {str(k): str(v) for k, v in (found or {}).items()}

    def set_variables(self, org: str, name: str, variables: Mapping[str, str]) -> App:
        """Set ``variables`` (the others are kept); a build follows."""
        body = {"vars": dict(variables)}
        return self._one(App, "PUT", f"{_item(org, name)}/env", body=body)

    def redeploy(self, org: str, name: str) -> App:
        return self._one(App, "POST", f"{_item(org, name)}/redeploy")

    def delete(self, org: str, name: str) -> None:
        self._send("DELETE", _item(org, name))


def _item(org: str, name: str) -> str:
    return f"{PATH}/{segment(org)}/{segment(name)}"
