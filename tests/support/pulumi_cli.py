"""A Pulumi project driven through the real ``pulumi`` CLI, with a local backend and passphrase."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from altostratus.emulator import Emulator

PASSPHRASE = "test-passphrase"


class Project:
    """A copy of a project directory in ``work``, run by the CLI against ``emulator``.

    Projects made with the same ``work`` share one local backend (``work/state``) and one
    ``PULUMI_HOME``, so one stack's ``StackReference`` reads another's outputs. The program runs
    on this interpreter's environment, where altostratus is installed, instead of ``./venv``.
    """

    def __init__(self, source: Path, work: Path, emulator: Emulator) -> None:
        self.dir = work / source.name
        shutil.copytree(source, self.dir)
        text = (self.dir / "Pulumi.yaml").read_text()
        text = text.replace("virtualenv: venv", f"virtualenv: {Path(sys.prefix)}")
        (self.dir / "Pulumi.yaml").write_text(text)
        (work / "state").mkdir(exist_ok=True)
        self.emulator = emulator
        self.env = {
            **os.environ,
            "PULUMI_HOME": str(work / "home"),
            "PULUMI_BACKEND_URL": (work / "state").as_uri(),
            "PULUMI_CONFIG_PASSPHRASE": PASSPHRASE,
            "PULUMI_SKIP_UPDATE_CHECK": "true",
        }

    def __call__(self, *args: str, ok: bool = True) -> str:
        pulumi = shutil.which("pulumi")
        assert pulumi is not None, "the pulumi CLI is not on PATH"
        answer = subprocess.run(
            [pulumi, *args, "--non-interactive"],
            cwd=self.dir,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if ok:
            assert answer.returncode == 0, answer.stdout + answer.stderr
        return answer.stdout

    def init(self, stack: str = "dev", config: dict[str, str] | None = None) -> None:
        """``pulumi stack init`` with the emulator's URL and key (secret) and ``config``."""
        self("stack", "init", stack)
        self("config", "set", "altostratus:apiUrl", self.emulator.api_url)
        self("config", "set", "--secret", "altostratus:apiKey", self.emulator.api_key)
        for key, value in (config or {}).items():
            self("config", "set", key, value)

    def operations(self, *args: str) -> dict[str, str]:
        """The operation per resource (``Type:name``) of ``pulumi preview --json``."""
        shown = json.loads(self("preview", "--json", *args))
        found: dict[str, str] = {}
        for step in shown.get("steps", []):
            urn = step["urn"]
            kind = urn.split("::")[2].split("$")[-1].rsplit(":", 1)[-1]
            if kind in ("Stack", "default") or "providers:" in urn:
                continue
            found[f"{kind}:{urn.split('::')[-1]}"] = step["op"]
        return found

    def export(self, *, show_secrets: bool = False) -> dict[str, Any]:
        args = ("stack", "export", "--show-secrets") if show_secrets else ("stack", "export")
        exported: dict[str, Any] = json.loads(self(*args))
        return exported
