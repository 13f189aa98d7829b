"""The emulator's image checked end to end: ``tools/container/check`` (``.ci/run`` runs it).

Where Docker can run (the daemon is started if it is installed and not running), it builds a
base image from Debian's packages (``debootstrap``), the emulator's image on it from wheels made
here (no registry, no index needed; the base's folder and the dependencies' wheels are cached
under ``~/.cache/altostratus/``, and the image's layers are reused), and then:

- starts the image on a volume and waits until it answers ``/_emulator/health``;
- deploys ``examples/object-storage`` against it (the real Pulumi engine if it is built, else the
  library's runner) and makes a boto3 round trip through its S3 port;
- restarts it on the same volume, checks that the records and the object survived, destroys the
  stack;
- removes what it made (the base image, its cached folder and the image, whose layers the next
  build reuses, stay), and prints the image's size
  and the time from ``docker run`` to healthy beside the in-process emulator's start.

A wrong variable and a volume of another state format, each refused in one line, are checked by
the suite (``tests/emulator/test_container.py``) on the image built here.

It exits 0 when the checks pass, 1 when one fails, and 3, after one line saying why, when Docker
cannot run here (not installed, no daemon, no base image can be made).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path.home() / ".cache" / "altostratus"
BASE_FOLDER = CACHE / "container-base" / "rootfs"
BASE_IMAGE = "altostratus-base:bookworm"
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
ENGINE_BIN = CACHE / "pulumi-3.274.1" / "bin"
NOT_PRESENT = 3
#: The image built, kept (as the base is) so that the next build reuses its layers.
IMAGE = "altostratus-emulator:check"
#: Seconds the container may take to answer its health check.
HEALTHY_WITHIN = 180.0


class NotPresent(Exception):
    """Docker cannot run here: the step is reported as not present."""


class CheckFailed(Exception):
    """A check of the image failed: one line saying which."""


def docker(*args: str, check: bool = True, quiet: bool = True) -> str:
    done = subprocess.run(
        ["docker", *args],
        capture_output=quiet,
        text=True,
        check=False,
    )
    if check and done.returncode != 0:
        detail = (done.stderr or done.stdout or "").strip().splitlines()
        raise CheckFailed(f"docker {args[0]} failed: {detail[-1] if detail else done.returncode}")
    return (done.stdout or "").strip()


@contextlib.contextmanager
def daemon() -> Iterator[None]:
    """A running Docker daemon: the one running, or one started here (and stopped after)."""
    if shutil.which("docker") is None:
        raise NotPresent("docker is not installed")
    if subprocess.run(["docker", "info"], capture_output=True, check=False).returncode == 0:
        yield
        return
    if shutil.which("dockerd") is None or os.geteuid() != 0:
        raise NotPresent("no Docker daemon runs, and none can be started here (dockerd as root)")
    log = tempfile.NamedTemporaryFile(prefix="dockerd-", suffix=".log", delete=False)  # noqa: SIM115
    started = subprocess.Popen(
        ["dockerd", "--storage-driver=vfs"], stdout=log, stderr=subprocess.STDOUT
    )
    try:
        deadline = time.monotonic() + 30
        while subprocess.run(["docker", "info"], capture_output=True).returncode != 0:
            if started.poll() is not None or time.monotonic() > deadline:
                raise NotPresent(f"the Docker daemon did not start (see {log.name})")
            time.sleep(0.5)
        yield
    finally:
        started.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            started.wait(timeout=20)


def base_image() -> str:
    """The local base image: Debian with Python 3 and venv, made by debootstrap once."""
    if docker("image", "inspect", BASE_IMAGE, check=False):
        return BASE_IMAGE
    if not BASE_FOLDER.is_dir():
        if shutil.which("debootstrap") is None:
            raise NotPresent("no base image, and debootstrap (to make one) is not installed")
        partial = BASE_FOLDER.with_name("rootfs.partial")
        shutil.rmtree(partial, ignore_errors=True)
        print(f"making the base image's root filesystem in {BASE_FOLDER} (once)", flush=True)
        subprocess.run(
            [
                "debootstrap",
                "--variant=minbase",
                "--include=python3,python3-venv",
                SUITE,
                str(partial),
                MIRROR,
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        for leftover in ("var/cache/apt/archives", "var/lib/apt/lists", "usr/share/doc"):
            for path in (partial / leftover).glob("*"):
                if path.is_file():
                    path.unlink()
                elif path.is_dir() and path.name != "partial":
                    shutil.rmtree(path)
        partial.rename(BASE_FOLDER)
    tar = subprocess.Popen(["tar", "-C", str(BASE_FOLDER), "-c", "."], stdout=subprocess.PIPE)
    subprocess.run(
        ["docker", "import", "-", BASE_IMAGE], stdin=tar.stdout, check=True, capture_output=True
    )
    tar.wait()
    return BASE_IMAGE


def base_python_minor(base: str) -> str:
    """The base's Python 3 minor version: from the cached folder (``python3`` links to
    ``python3.X``), else asked of the image."""
    link = BASE_FOLDER / "usr" / "bin" / "python3"
    if base == BASE_IMAGE and link.is_symlink():
        return os.readlink(link).removeprefix("python3.")
    return docker("run", "--rm", base, "python3", "-c", "import sys; print(sys.version_info[1])")


def dependency_wheels(folder: Path, inside: str) -> None:
    """The wheels of the package's dependencies and of setuptools, for the base's Python."""
    pip = [sys.executable, "-m", "pip", "--quiet"]
    requirements = [f"{ROOT}[emulator]", "setuptools>=77"]  # setuptools builds the package
    if inside == str(sys.version_info[1]):
        subprocess.run([*pip, "wheel", "--wheel-dir", str(folder), *requirements], check=True)
    else:  # the base's Python is another: its binary wheels, downloaded
        platforms = ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux_2_28_x86_64")
        subprocess.run(
            [
                *pip,
                "download",
                "--dest",
                str(folder),
                "--only-binary=:all:",
                "--implementation",
                "cp",
                "--python-version",
                f"3.{inside}",
                *(option for name in platforms for option in ("--platform", name)),
                *requirements,
            ],
            check=True,
        )


def build(base: str, image: str, work: Path) -> None:
    """The image built from the repository's Dockerfile on ``base``, from wheels made here."""
    context = work / "context"
    context.mkdir()
    for name in ("Dockerfile", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, context / name)
    shutil.copytree(
        ROOT / "sdk" / "altostratus",
        context / "sdk" / "altostratus",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    wheels = context / "wheels"
    inside = base_python_minor(base)
    # The dependencies' wheels depend on pyproject.toml and the base's Python alone: kept.
    key = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + inside.encode()).hexdigest()
    kept = CACHE / "container-wheels" / key[:16]
    if not kept.is_dir():
        made = kept.with_name(f"{kept.name}.partial")
        shutil.rmtree(made, ignore_errors=True)
        dependency_wheels(made, inside)
        for wheel in made.glob("altostratus-*.whl"):  # the package is built from its source
            wheel.unlink()
        made.rename(kept)
    shutil.copytree(kept, wheels)
    before = docker("image", "inspect", "--format", "{{.Id}}", image, check=False)
    docker(
        "build",
        "--quiet",
        "--build-arg",
        f"BASE_IMAGE={base}",
        "--build-arg",
        "PIP_OPTIONS=--no-index --find-links /src",
        "--tag",
        image,
        str(context),
    )
    if before and docker("image", "inspect", "--format", "{{.Id}}", image) != before:
        # The build it replaces is left untagged: removed, or every run would keep one more
        # copy of the image (whole copies, on Docker's vfs storage). Its layers still in use stay.
        docker("image", "rm", before, check=False)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def health(api_url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{api_url}/_emulator/health", timeout=2) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


class Container:
    """One run of the image: published on the same ports as it listens on, so the URLs the
    emulator reports (``--public-host 127.0.0.1``) are the host's."""

    def __init__(self, image: str, volume: str, port: int, s3_port: int) -> None:
        self.image, self.volume, self.port, self.s3_port = image, volume, port, s3_port
        self.api_url = f"http://127.0.0.1:{port}"
        self.s3_url = f"http://127.0.0.1:{s3_port}"
        self.id = ""
        #: Seconds ``docker run --detach`` took to return (the container made and started).
        self.launched = 0.0

    def run(self, *settings: str) -> float:
        """Start it; the seconds from ``docker run`` until it answered its health check."""
        started = time.monotonic()
        self.id = docker(
            "run",
            "--detach",
            "--volume",
            f"{self.volume}:/var/lib/altostratus",
            "--publish",
            f"127.0.0.1:{self.port}:{self.port}",
            "--publish",
            f"127.0.0.1:{self.s3_port}:{self.s3_port}",
            "--env",
            f"ALTOSTRATUS_EMULATOR_PORT={self.port}",
            "--env",
            f"ALTOSTRATUS_EMULATOR_S3_PORT={self.s3_port}",
            *settings,
            self.image,
        )
        self.launched = time.monotonic() - started
        while not health(self.api_url):
            if time.monotonic() - started > HEALTHY_WITHIN or not self.running():
                raise CheckFailed(f"the container did not become healthy: {self.logs()[-300:]}")
            time.sleep(0.05)
        return time.monotonic() - started

    def docker_healthy(self) -> float:
        """Seconds until Docker's own health check (the image's HEALTHCHECK) says healthy."""
        started = time.monotonic()
        while docker("inspect", "--format", "{{.State.Health.Status}}", self.id) != "healthy":
            if time.monotonic() - started > HEALTHY_WITHIN:
                raise CheckFailed("Docker never marked the container healthy")
            time.sleep(0.2)
        return time.monotonic() - started

    def running(self) -> bool:
        return docker("inspect", "--format", "{{.State.Running}}", self.id) == "true"

    def logs(self) -> str:
        done = subprocess.run(["docker", "logs", self.id], capture_output=True, text=True)
        return done.stdout + done.stderr

    def stop(self) -> None:
        if self.id:
            docker("stop", "--time", "20", self.id)
            docker("rm", self.id)
            self.id = ""


def in_process_start() -> tuple[float, float]:
    """Seconds for ``Emulator().start()`` here (imports made), and for ``altostratus emulator``
    from its process's start to its health check answering."""
    from altostratus.emulator import Emulator

    started = time.monotonic()
    with Emulator():
        in_process = time.monotonic() - started
    port = free_port()
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "altostratus", "emulator", "--port", str(port), "--s3-port", "0"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while not health(f"http://127.0.0.1:{port}"):
            if process.poll() is not None:
                raise CheckFailed("altostratus emulator did not start")
            time.sleep(0.02)
        return in_process, time.monotonic() - started
    finally:
        process.terminate()
        process.wait(timeout=20)


def deploy_and_survive(container: Container) -> None:
    """The example deployed, an object put, the container restarted on its volume, both found
    again, the stack destroyed."""
    import boto3
    import httpx

    from altostratus.testing import Stack

    if (ENGINE_BIN / "pulumi").exists():
        os.environ["PATH"] = f"{ENGINE_BIN}{os.pathsep}{os.environ['PATH']}"
    stack = Stack(
        str(ROOT / "examples" / "object-storage"),
        config={"altostratus:apiUrl": container.api_url},
        secrets={"altostratus:apiKey": "local-dev-key"},
        engine="auto",
    )
    try:
        up = stack.up()
        if up.failures:
            raise CheckFailed(f"the example's up failed: {up.failures[0]}")
        outputs = up.output_values()
        if outputs["endpoint_url"] != container.s3_url:  # --public-host: the host's address
            raise CheckFailed(f"the store's endpoint is {outputs['endpoint_url']}")
        print(f"  deployed examples/object-storage ({stack.engine}): {sorted(up.operations)}")
        s3 = boto3.client(
            "s3",
            endpoint_url=outputs["endpoint_url"],
            aws_access_key_id=outputs["access_key_id"],
            aws_secret_access_key=outputs["secret_access_key"],
            region_name="us-east-1",
        )
        body = b"kept across a restart\n"
        s3.put_object(Bucket=outputs["bucket"], Key="survivor.txt", Body=body)
        if s3.get_object(Bucket=outputs["bucket"], Key="survivor.txt")["Body"].read() != body:
            raise CheckFailed("the object read back is not the one put")
        print("  boto3 round trip through the S3 port: put and read back")

        container.stop()
        restarted = container.run()
        headers = {"Authorization": "Bearer local-dev-key"}
        stores = httpx.get(f"{container.api_url}/v2/objectstores", headers=headers).json()
        endpoints = [store["objectstore_endpoint"] for store in stores["items"]]
        if f"{outputs['endpoint_url']}/{outputs['bucket']}" not in endpoints:
            raise CheckFailed(f"the object store did not survive the restart: {stores}")
        kept = s3.get_object(Bucket=outputs["bucket"], Key="survivor.txt")["Body"].read()
        if kept != body:
            raise CheckFailed("the object did not survive the restart")
        print(f"  restarted on the same volume ({restarted:.1f} s): the store and object kept")

        s3.delete_object(Bucket=outputs["bucket"], Key="survivor.txt")  # a store with objects
        down = stack.destroy()  # is kept by destroy unless force_destroy
        if down.failures:
            raise CheckFailed(f"the example's destroy failed: {down.failures[0]}")
        left = httpx.get(f"{container.api_url}/v2/objectstores", headers=headers).json()
        if left.get("items"):
            raise CheckFailed(f"destroy left object stores: {left}")
        print("  destroyed: no object store left")
    finally:
        stack.close()


def check(*, build_only: bool = False) -> None:
    suffix = f"{os.getpid()}"
    image = IMAGE
    volume = f"altostratus-check-{suffix}"
    with daemon(), tempfile.TemporaryDirectory(prefix="altostratus-image-") as work:
        base = base_image()
        started = time.monotonic()
        build(base, image, Path(work))
        built = time.monotonic() - started
        if build_only:
            print(f"  built {image} on {base} in {built:.0f} s")
            return
        container = Container(image, volume, free_port(), free_port())
        try:
            size = int(docker("image", "inspect", "--format", "{{.Size}}", image))
            print(f"  built on {base} in {built:.0f} s: {size / 1e6:.0f} MB")
            user = docker("image", "inspect", "--format", "{{.Config.User}}", image)
            if user in ("", "root", "0"):
                raise CheckFailed("the image runs as root")
            healthy = container.run("--env", "ALTOSTRATUS_EMULATOR_OBJECTSTORE_READY_SECONDS=0")
            launched = container.launched
            marked = container.docker_healthy()
            deploy_and_survive(container)
            container.stop()
            in_process, command = in_process_start()
            print(f"  image size: {size / 1e6:.0f} MB")
            driver = docker("info", "--format", "{{.Driver}}")
            print(
                f"  start: docker run to answering health {healthy:.2f} s, of which "
                f"{launched:.2f} s until docker run returned (the container's file system made, "
                f"storage driver {driver}) and {healthy - launched:.2f} s the emulator's start; "
                f"Docker's HEALTHCHECK (every 2 s) marks it healthy {marked:.1f} s later; "
                f"in process: Emulator().start() {in_process:.3f} s, "
                f"`altostratus emulator` to health {command:.2f} s"
            )
        finally:
            with contextlib.suppress(CheckFailed):
                container.stop()
            docker("volume", "rm", "--force", volume, check=False)


def main(arguments: list[str] | None = None) -> int:
    """``check``: build the image and check it; ``check --build-only``: build it (or find its
    layers kept) and stop, so that the suite's container tests can use it while the rest of the
    check runs beside them."""
    given = sys.argv[1:] if arguments is None else arguments
    if given not in ([], ["--build-only"]):
        print(f"usage: tools/container/check [--build-only] (not {' '.join(given)})")
        return 2
    try:
        check(build_only=given == ["--build-only"])
    except NotPresent as reason:
        print(f"not present: {reason}")
        return NOT_PRESENT
    except Exception as error:  # a check, a command or the deployment: one line, failed
        print(f"FAILED: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
