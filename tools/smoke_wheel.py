"""The installed-wheel smoke test: the package as a user gets it, far from the checkout.

    python -m tools.smoke_wheel DIST_DIR

takes the one wheel in ``DIST_DIR`` (``python -m build`` makes it) and

1. checks that it holds ``py.typed`` and every module of ``sdk/altostratus``;
2. installs it with its ``emulator`` extra, pytest and mypy into a fresh virtual environment in a
   temporary folder, and checks that ``altostratus`` is imported from there, not the checkout;
3. copies ``examples/load-balancer`` out and deploys it with ``altostratus run``;
4. copies ``examples/tested-web-tier`` out and runs its tests, which use the pytest plugin's
   ``altostratus_stack`` fixture;
5. checks that it installed the provider plugin's ``pulumi-resource-altostratus`` and that
   ``altostratus plugin install`` puts it in a Pulumi plugin folder (a temporary ``PULUMI_HOME``);
6. runs ``mypy --strict`` on a user's program (``tools/smoke_program.py``, copied out).

Every command runs from the temporary folder with the checkout off ``sys.path``. Each step prints
one line; a failing step prints its command's output and ends the script with status 1, keeping
the folder for a look.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sdk" / "altostratus"
EXAMPLE = "load-balancer"
TESTED_EXAMPLE = "tested-web-tier"


class SmokeFailed(Exception):
    """A step failed; the message says which and what it printed."""


def say(message: str) -> None:
    print(f"smoke-wheel: {message}", flush=True)


def wheel_in(folder: Path) -> Path:
    wheels = sorted(folder.glob("altostratus-*.whl"))
    if len(wheels) != 1:
        raise SmokeFailed(f"{folder} holds {len(wheels)} altostratus wheels, not one")
    return wheels[0]


def missing_files(wheel: Path) -> list[str]:
    """The package's modules, ``py.typed`` and the plugin's ``schema.json`` that the wheel does
    not hold."""
    wanted = {
        "altostratus/" + path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*")
        if path.is_file()
        and (path.suffix == ".py" or path.name in ("py.typed", "schema.json"))
        and "__pycache__" not in path.parts
    }
    with zipfile.ZipFile(wheel) as archive:
        held = set(archive.namelist())
    return sorted(wanted - held)


def run(command: Sequence[str | Path], cwd: Path, env: dict[str, str], step: str) -> str:
    """Run one step's command; its output, or `SmokeFailed` with that output."""
    answer = subprocess.run(
        [str(part) for part in command],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    if answer.returncode != 0:
        raise SmokeFailed(
            f"{step} failed (exit {answer.returncode}): "
            f"{' '.join(str(part) for part in command)}\n{answer.stdout}{answer.stderr}"
        )
    return answer.stdout


def venv_environment(venv: Path) -> dict[str, str]:
    """The environment a user's shell has with the virtual environment activated."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def smoke(dist: Path, work: Path) -> None:
    wheel = wheel_in(dist)
    missing = missing_files(wheel)
    if missing:
        raise SmokeFailed(f"{wheel.name} lacks {', '.join(missing)}")
    with zipfile.ZipFile(wheel) as archive:
        modules = sum(name.endswith(".py") for name in archive.namelist())
    say(f"{wheel.name} holds py.typed, schema.json and all {modules} modules of sdk/altostratus")

    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = venv_environment(venv)
    python = venv / "bin" / "python"
    install: list[str | Path] = [
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        f"{wheel}[emulator]",
        "pytest",
        "mypy",
    ]
    run(install, work, env, "installing the wheel")
    code = "import altostratus; print(altostratus.__file__); print(altostratus.__version__)"
    where, version = run([python, "-c", code], work, env, "importing altostratus").split()
    if not Path(where).resolve().is_relative_to(venv.resolve()):
        raise SmokeFailed(f"altostratus was imported from {where}, not from the new environment")
    say(f"installed {wheel.name}[emulator] into a fresh environment: altostratus {version}")
    say(f"altostratus is imported from {where}")

    shutil.copytree(ROOT / "examples" / EXAMPLE, work / EXAMPLE)
    said = run([venv / "bin" / "altostratus", "run", EXAMPLE], work, env, "altostratus run")
    if "Outputs:" not in said or "Destroying" not in said:
        raise SmokeFailed(f"altostratus run printed no outputs or no destroy:\n{said}")
    say(f"altostratus run {EXAMPLE} (a copy): deployed, printed its outputs, destroyed")

    project = work / TESTED_EXAMPLE
    shutil.copytree(ROOT / "examples" / TESTED_EXAMPLE, project)
    tests: list[str | Path] = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"]
    said = run(tests, project, env, "the example's tests")
    say(f"pytest in a copy of {TESTED_EXAMPLE} (the plugin's fixture): {said.splitlines()[-1]}")

    plugin = venv / "bin" / "pulumi-resource-altostratus"
    if not plugin.is_file():
        raise SmokeFailed(
            "the wheel installed no pulumi-resource-altostratus (the provider plugin)"
        )
    plugin_env = {**env, "PULUMI_HOME": str(work / "pulumi-home")}
    said = run([venv / "bin" / "altostratus", "plugin", "install"], work, plugin_env, "plugin")
    installed = work / "pulumi-home" / "plugins" / f"resource-altostratus-v{version}"
    if not (installed / "pulumi-resource-altostratus").is_file():
        raise SmokeFailed(f"altostratus plugin install wrote no plugin into {installed}:\n{said}")
    say(f"the provider plugin: {plugin.name} installed, altostratus plugin install: {said.strip()}")

    program = work / "program"
    program.mkdir()
    shutil.copy(ROOT / "tools" / "smoke_program.py", program / "program.py")
    checked: list[str | Path] = [
        python,
        "-m",
        "mypy",
        "--strict",
        "--cache-dir",
        work / "mypy-cache",
        "program.py",
    ]
    said = run(checked, program, env, "mypy --strict")
    say(f"mypy --strict on a user's program: {said.strip()}")


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if len(args) != 1:
        print("usage: python -m tools.smoke_wheel DIST_DIR", file=sys.stderr)
        return 2
    started = time.monotonic()
    work = Path(tempfile.mkdtemp(prefix="altostratus-smoke-"))
    try:
        smoke(Path(args[0]).resolve(), work)
    except SmokeFailed as failure:
        say(f"FAILED: {failure}")
        say(f"the environment and copies are kept in {work}")
        return 1
    shutil.rmtree(work, ignore_errors=True)
    say(f"passed in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
