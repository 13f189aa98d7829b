"""Users' programs through the type checkers users run, in strict mode: mypy and pyright.

``user_programs/correct.py`` and the examples must check clean. Each other program marks the
lines where an error is expected, with a fragment of its message (the input it names):
``# expect: "labl"`` for both checkers, ``# expect-mypy: ...`` or ``# expect-pyright: ...`` for
one. Every marked line must have its error and no other line may have one. Each checker runs
once over all the programs; mypy keeps its cache in the system's temporary folder, one per
checkout, so that later runs check only what changed.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import pytest

import altostratus
import altostratus.client
import altostratus.client.errors
import altostratus.emulator
import altostratus.lookups
import altostratus.testing
import altostratus.webhooks

ROOT = Path(__file__).parents[1]
PROGRAMS = Path(__file__).parent / "user_programs"
PUBLIC_PACKAGES = (
    altostratus,
    altostratus.client,
    altostratus.client.errors,
    altostratus.lookups,
    altostratus.testing,
    altostratus.emulator,
    altostratus.webhooks,
)
_MARK = re.compile(r"# expect(?:-(?P<checker>mypy|pyright))?: (?P<fragment>.+?)\s*(?=# expect|$)")
_MYPY_CONFIG = """\
[mypy]
strict = True
[mypy-boto3.*,botocore.*]
ignore_missing_imports = True
"""

Errors = dict[str, dict[int, list[str]]]
"""{file name: {line: messages}}"""


@pytest.fixture(scope="module")
def programs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The user programs and every example's modules (renamed ``<example>__<module>.py``, as
    each example has its own ``__main__``), side by side in a temporary folder."""
    folder = tmp_path_factory.mktemp("programs")
    for program in PROGRAMS.glob("*.py"):
        shutil.copy(program, folder / program.name)
    for module in (ROOT / "examples").glob("*/*.py"):
        example = module.parent.name.replace("-", "_")
        shutil.copy(module, folder / f"{example}__{module.name}")
    (folder / "every_public_name.py").write_text(every_public_name(), encoding="utf-8")
    return folder


def every_public_name() -> str:
    """A program that uses every name the public packages list in ``__all__``: each must
    resolve for the type checker as it does at run time, lazy loading notwithstanding."""
    lines = []
    for package in PUBLIC_PACKAGES:
        alias = package.__name__.replace(".", "_")
        lines.append(f"import {package.__name__} as {alias}")
        lines += [f"_{alias}_{name}: object = {alias}.{name}" for name in package.__all__]
    return "\n".join(lines) + "\n"


def expected(checker: str) -> Errors:
    found: Errors = defaultdict(dict)
    for program in PROGRAMS.glob("*.py"):
        lines = program.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, start=1):
            fragments = [
                mark["fragment"]
                for mark in _MARK.finditer(line)
                if mark["checker"] in (None, checker)
            ]
            if fragments:
                found[program.name][number] = fragments
    return found


def mypy_errors(folder: Path) -> Errors:
    checkout = hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]
    config = folder / "mypy.ini"
    config.write_text(_MYPY_CONFIG, encoding="utf-8")
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(config),
        "--cache-dir",
        str(Path(tempfile.gettempdir()) / f"altostratus-mypy-{checkout}"),
        "--no-error-summary",
        "--hide-error-context",
        *sorted(path.name for path in folder.glob("*.py")),
    ]
    answer = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)
    assert answer.returncode in (0, 1), answer.stderr or answer.stdout
    errors: Errors = defaultdict(lambda: defaultdict(list))
    for line in answer.stdout.splitlines():
        match = re.match(r"^(?P<file>[^:]+):(?P<line>\d+): error: (?P<message>.*)$", line)
        if match:
            errors[match["file"]][int(match["line"])].append(match["message"])
    return errors


def pyright_errors(folder: Path) -> Errors:
    """Pyright's errors, in strict mode but for modules that use boto3 (which has no types)."""
    pyright = shutil.which("pyright", path=str(Path(sys.executable).parent))
    if pyright is None:
        pytest.skip("pyright is not installed: pip install -e '.[dev]'")
    typed = [p.name for p in folder.glob("*.py") if "boto3" not in p.read_text(encoding="utf-8")]
    (folder / "pyrightconfig.json").write_text(json.dumps({"strict": typed}), encoding="utf-8")
    command = [pyright, "--pythonpath", sys.executable, "--outputjson", "."]
    answer = subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=600)
    report = json.loads(answer.stdout)
    errors: Errors = defaultdict(lambda: defaultdict(list))
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            line = diagnostic["range"]["start"]["line"] + 1
            errors[Path(diagnostic["file"]).name][line].append(diagnostic["message"])
    return errors


def unmet(found: Errors, wanted: Errors) -> list[str]:
    """Marked lines without their error, and errors on lines that are not marked."""
    problems = []
    for program, lines in wanted.items():
        for line, fragments in lines.items():
            messages = " ".join(found.get(program, {}).get(line, []))
            problems += [
                f"{program}:{line}: no error naming {fragment}"
                for fragment in fragments
                if fragment not in messages
            ]
    for program, lines in found.items():
        for line, messages in lines.items():
            if line not in wanted.get(program, {}):
                problems += [f"{program}:{line}: unexpected error: {m}" for m in messages]
    return problems


def test_the_wrong_programs_mark_errors_and_the_correct_one_marks_none() -> None:
    wanted = expected("mypy")
    assert "correct.py" not in wanted
    assert {"misspelt_input.py", "wrong_type.py", "wrong_nested_field.py"} <= set(wanted)


def test_mypy_strict_finds_exactly_the_marked_errors(programs: Path) -> None:
    assert unmet(mypy_errors(programs), expected("mypy")) == []


@pytest.mark.slow
def test_pyright_finds_exactly_the_marked_errors(programs: Path) -> None:
    assert unmet(pyright_errors(programs), expected("pyright")) == []
