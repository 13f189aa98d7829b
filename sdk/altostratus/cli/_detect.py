"""``cli detect``: which application a folder holds, and the digest of what ``cli deploy``
pushes.

A ``Dockerfile`` decides (it says how to build); then ``go.mod`` (Go), ``package.json``
(Node.js), then ``pyproject.toml``, ``requirements.txt``, ``setup.py`` or ``Pipfile`` (Python).
The folder's tree is pushed without what a build makes again or a checkout keeps
(``SKIPPED``)."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

MARKERS: tuple[tuple[str, str, str], ...] = (
    ("docker", "Dockerfile", "Dockerfile"),
    ("go", "go.mod", "Go"),
    ("nodejs", "package.json", "Node.js"),
    ("python", "pyproject.toml", "Python"),
    ("python", "requirements.txt", "Python"),
    ("python", "setup.py", "Python"),
    ("python", "Pipfile", "Python"),
)
SKIPPED = frozenset(
    {".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv", ".mypy_cache"}
)


@dataclass(frozen=True)
class Detected:
    runtime: str
    """``docker``, ``go``, ``nodejs`` or ``python``: what the service builds with."""
    language: str
    evidence: str
    """The file that decided."""
    name: str
    """The application's name the folder suggests (its package's, or the folder's)."""

    def describe(self) -> dict[str, str]:
        return {
            "runtime": self.runtime,
            "language": self.language,
            "evidence": self.evidence,
            "name": self.name,
        }


def detect(folder: Path) -> Detected | None:
    for runtime, marker, language in MARKERS:
        if (folder / marker).is_file():
            return Detected(runtime, language, marker, suggested_name(folder, marker))
    return None


def suggested_name(folder: Path, marker: str) -> str:
    """``package.json``'s name, ``go.mod``'s module's last part, or the folder's name; made a
    valid name (lower-case letters, digits and ``-``)."""
    name = folder.resolve().name
    try:
        if marker == "package.json":
            found = json.loads((folder / marker).read_text(encoding="utf-8")).get("name")
            name = found.rsplit("/", 1)[-1] if isinstance(found, str) and found else name
        elif marker == "go.mod":
            for line in (folder / marker).read_text(encoding="utf-8").splitlines():
                if line.startswith("module "):
                    name = line.split()[1].rsplit("/", 1)[-1]
                    break
    except (OSError, ValueError, AttributeError):
        pass
    cleaned = "".join(c if c.isalnum() else "-" for c in name.lower()).strip("-")
    return cleaned[:63].strip("-") or "app"


def tree_digest(folder: Path) -> tuple[str, int]:
    """The SHA-256 of the tree pushed (each file's path and bytes, in path order) and its
    number of files."""
    files: list[tuple[str, str]] = []
    for root, directories, names in os.walk(folder):
        directories[:] = sorted(d for d in directories if d not in SKIPPED)
        for name in names:
            path = Path(root) / name
            if path.is_symlink() or not path.is_file():
                continue
            relative = path.relative_to(folder).as_posix()
            files.append((relative, hashlib.sha256(path.read_bytes()).hexdigest()))
    whole = hashlib.sha256()
    for relative, digest in sorted(files):
        whole.update(f"{relative}\0{digest}\n".encode())
    return whole.hexdigest(), len(files)
