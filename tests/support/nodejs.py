"""The node_modules the TypeScript programs of the tests run on: the SDK of ``sdk/nodejs`` packed
(``tools.sdks.pack``) and installed beside ``@pulumi/pulumi`` and TypeScript, as a user installs
them.

It is installed once for its contents (the SDK's sources and the versions below) into the cache
folder beside the engine's, ``${XDG_CACHE_HOME:-~/.cache}/altostratus/nodejs-<hash>``, under a
lock, so the workers of one session and the sessions after it share one install; npm's own cache
makes a new one cheap. A program's folder links its ``node_modules`` there.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tools import schema, sdks

TYPESCRIPT = "5.9.3"
NODE_TYPES = "^20"


def _cache_root() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "altostratus"


def _manifest(tarball: str) -> dict[str, object]:
    return {
        "name": "altostratus-test-programs",
        "private": True,
        "dependencies": {
            schema.NPM_PACKAGE: f"file:{tarball}",
            "@pulumi/pulumi": schema.PULUMI_NODEJS,
            "typescript": TYPESCRIPT,
            "@types/node": NODE_TYPES,
        },
    }


def _key() -> str:
    digest = hashlib.sha256(json.dumps(_manifest("")).encode())
    for name, data in sorted(sdks.checked_in().items()):
        digest.update(name.encode() + b"\0" + data)
    return digest.hexdigest()[:16]


def node_modules() -> Path:
    """The installed node_modules folder, installed first if this SDK's is not yet."""
    root = _cache_root()
    root.mkdir(parents=True, exist_ok=True)
    folder = root / f"nodejs-{_key()}"
    with (root / f"{folder.name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (folder / "node_modules").is_dir():
            work = Path(tempfile.mkdtemp(prefix=f"{folder.name}-", dir=root))
            try:
                tarball = sdks.pack(work)
                (work / "package.json").write_text(json.dumps(_manifest(tarball.name), indent=2))
                answer = subprocess.run(
                    ["npm", "install", "--no-audit", "--no-fund", "--prefer-offline"],
                    cwd=work,
                    capture_output=True,
                    text=True,
                    timeout=600,
                    check=False,
                )
                assert answer.returncode == 0, answer.stderr
                shutil.rmtree(folder, ignore_errors=True)
                work.rename(folder)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    return folder / "node_modules"
