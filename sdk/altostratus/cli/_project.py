"""A Pulumi project directory, as ``altostratus run`` finds and runs it.

A project is a directory with a ``Pulumi.yaml`` naming it and a Python runtime, and the program
(``__main__.py``, or where ``main:`` points). The program runs in this process as
``altostratus.testing`` runs a project, from its own folder as the language host runs it; when it
raises, the traceback kept is the program's own, from its first frame in the project on.
"""

from __future__ import annotations

import os
import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from altostratus.testing._project import entry_point, load_project_name, run_project

_RUNTIME = re.compile(
    r"^runtime:[ \t]*(?:['\"]?(\w+)|\n[ \t]+name:[ \t]*['\"]?(\w+))", re.MULTILINE
)


class NotAProject(Exception):
    """The directory is not a Pulumi project this command can run; the message says why."""


@dataclass
class Project:
    directory: Path
    name: str
    given: str
    """The directory as the user named it."""
    traceback: str = field(default="", repr=False)
    """The program's traceback when it last raised, or empty."""

    @classmethod
    def load(cls, given: str) -> Project:
        directory = Path(given).expanduser()
        if not directory.is_dir():
            raise NotAProject(f"{given} is not a directory")
        settings = directory / "Pulumi.yaml"
        if not settings.is_file():
            raise NotAProject(f"{given} is not a Pulumi project: it has no Pulumi.yaml")
        try:
            name = load_project_name(directory)
        except ValueError as error:
            raise NotAProject(str(error)) from None
        runtime = _RUNTIME.search(settings.read_text(encoding="utf-8", errors="replace"))
        language = next((g for g in runtime.groups() if g), "") if runtime else ""
        if language != "python":
            raise NotAProject(
                f"{given} is a {language or 'Pulumi'} project without a Python runtime; "
                "this command runs Python programs"
            )
        entry = entry_point(directory)
        if not entry.is_file():
            missing = os.path.relpath(entry, directory.resolve())
            raise NotAProject(f"{given} is not a Python Pulumi project: it has no {missing}")
        return cls(directory.resolve(), name, given)

    def __call__(self) -> None:
        """Run the program (a ``Stack`` calls this inside its Pulumi runtime)."""
        self.traceback = ""
        try:
            run_project(self.directory)
        except Exception as error:
            self.traceback = self._own_traceback(error)
            raise

    def _own_traceback(self, error: BaseException) -> str:
        """The traceback from the program's first frame on (this command's frames left out)."""
        frames = error.__traceback__
        while frames is not None:
            source = Path(frames.tb_frame.f_code.co_filename)
            if source.is_absolute() and source.resolve().is_relative_to(self.directory):
                break
            frames = frames.tb_next
        lines = traceback.format_exception(type(error), error, frames or error.__traceback__)
        return "".join(lines)
