"""The container image: the Dockerfile's names still exist, and (with podman) the image
builds and runs as docs/guide.md says.

The tests marked ``container`` build the image with podman (or reuse it: podman caches
the build's layers) and run it; pyproject's ``addopts`` leaves them out, so run them with
``bin/test -m container tests/test_container.py``. They skip, saying why, where podman or
a base image is missing: ``python:3.11-slim`` (``podman pull python:3.11-slim``), or
the local image ``COLORIT_BASE_IMAGE`` names. The image is tagged ``COLORIT_IMAGE``
(default ``localhost/colorit``). Every port is published on 127.0.0.1 only, and every
command has a time limit.

The other tests always run: the modules, commands, files and extras the Dockerfile names
must exist in this checkout (a rename would otherwise break only the image), and the
guide must show the commands run here.
"""

from __future__ import annotations

import contextlib
import fnmatch
import importlib.util
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from colorit import solve
from colorit.io.csvfile import read_board_csv

REPO = Path(__file__).resolve().parents[1]
DOCKERFILE = REPO / "Dockerfile"
DOCKERIGNORE = REPO / ".dockerignore"
GUIDE = REPO / "docs" / "guide.md"

IMAGE = os.environ.get("COLORIT_IMAGE", "localhost/colorit")
BASE_IMAGES = [
    b for b in (os.environ.get("COLORIT_BASE_IMAGE"), "docker.io/library/python:3.11-slim", "localhost/colorit-base:bookworm") if b
]
#: A first build installs the wheels and compiles every kernel (minutes on a small
#: machine); later builds reuse podman's cached layers.
BUILD_TIMEOUT_S = 1800
RUN_TIMEOUT_S = 300
#: How long a served page may take to answer after the container starts (its solver
#: workers load their kernels first).
SERVE_UP_S = 180
#: ``podman stop`` waits this long for the server to end on SIGTERM before killing it.
STOP_GRACE_S = 30

#: The commands the guide shows (``{image}``, ``{dir}`` and ``{port}`` filled in here).
RUN_DEMO = ["podman", "run", "--rm", "-v", "{dir}:/demofiles", "{image}"]
RUN_SERVE = ["podman", "run", "-d", "-p", "127.0.0.1:{port}:8000", "{image}", "serve", "--host", "0.0.0.0"]
GUIDE_COMMANDS = [
    "podman build -t colorit .",
    'podman run --rm -v "$PWD/demofiles:/demofiles" colorit',
    "podman run --rm -p 127.0.0.1:8000:8000 colorit serve --host 0.0.0.0",
    "--memory 1g --cpus 1",
    "docker build -t colorit .",
    'docker run --rm -v "$PWD/demofiles:/demofiles" -u "$(id -u):$(id -g)" colorit',
    "docker run --rm -p 127.0.0.1:8000:8000 colorit serve --host 0.0.0.0",
    "buildah bud",
]


# --- always run: what the Dockerfile names exists -------------------------------------


def _instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions as (KEYWORD, arguments), continuations joined."""
    lines: list[str] = []
    for raw in DOCKERFILE.read_text(encoding="utf-8").splitlines():
        if lines and lines[-1].endswith("\\"):
            lines[-1] = lines[-1][:-1] + " " + raw.strip()
        elif raw.strip() and not raw.lstrip().startswith("#"):
            lines.append(raw.strip())
    out = []
    for line in lines:
        keyword, _, rest = line.partition(" ")
        out.append((keyword.upper(), rest.strip()))
    return out


def _one(keyword: str) -> str:
    found = [rest for k, rest in _instructions() if k == keyword]
    assert len(found) == 1, f"the Dockerfile has {len(found)} {keyword} instructions"
    return found[0]


def test_the_dockerfile_runs_modules_that_exist() -> None:
    runs = " ".join(rest for k, rest in _instructions() if k == "RUN")
    modules = re.findall(r"python3? -m ([\w.]+)", runs)
    assert "colorit.runtime.warmup" in modules, "the image must compile the kernels while it is built"
    for module in modules:
        if module.startswith("colorit"):
            assert importlib.util.find_spec(module) is not None, f"the Dockerfile runs {module}, which does not exist"
    from colorit.runtime import warmup

    assert callable(getattr(warmup, "main", None))


def test_the_dockerfile_installs_extras_that_exist() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runs = " ".join(rest for k, rest in _instructions() if k == "RUN")
    extras = re.findall(r"colorit-src\[([\w,]+)\]", runs)
    assert extras, "the Dockerfile installs the package with its extras"
    for extra in extras[0].split(","):
        assert extra in project["optional-dependencies"], f"no extra {extra!r} in pyproject.toml"
    assert "web" in extras[0], "the image must be able to serve"


def test_the_dockerfile_entrypoint_and_cmd_exist() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    entrypoint = json.loads(_one("ENTRYPOINT"))
    assert entrypoint == ["colorit"] and "colorit" in project["scripts"]
    cmd = json.loads(_one("CMD"))
    board, answer = cmd
    assert board.startswith("/demofiles/") and answer.startswith("/demofiles/")
    assert (REPO / "demofiles" / Path(board).name).is_file(), f"CMD solves {board}, not in demofiles/"
    # an answer left in demofiles/ by an earlier run is not sent into the image
    ignored = DOCKERIGNORE.read_text(encoding="utf-8").split()
    assert any(fnmatch.fnmatch(f"demofiles/{Path(answer).name}", line) for line in ignored)
    from colorit.cli import COMMANDS, _command_for

    assert _command_for(board) == "solve" and "serve" in COMMANDS


def test_the_dockerfile_copies_what_is_there_and_not_ignored() -> None:
    ignored = [line.strip() for line in DOCKERIGNORE.read_text(encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    for rest in (rest for k, rest in _instructions() if k == "COPY"):
        *sources, _ = rest.split()
        for source in sources:
            assert (REPO / source).exists(), f"the Dockerfile copies {source}, which is not in the checkout"
            assert source not in ignored, f"the Dockerfile copies {source}, which .dockerignore leaves out"
    assert "NUMBA_CACHE_DIR" in _one("ENV")


def test_the_guide_shows_the_commands_run_here() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    for command in GUIDE_COMMANDS:
        assert command in text, f"docs/guide.md does not show {command!r}"


# --- with podman: build and run the image ---------------------------------------------


def _podman(*args: str, timeout: float = RUN_TIMEOUT_S, check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["podman", *args], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError(f"podman {' '.join(args)} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
    return done


def _fill(command: list[str], **values: object) -> list[str]:
    return [part.format(**values) for part in command]


@pytest.fixture(scope="module")
def image() -> str:
    """The image, built from this checkout (podman reuses cached layers)."""
    if shutil.which("podman") is None:
        pytest.skip("podman is not installed")
    base = next((b for b in BASE_IMAGES if _podman("image", "exists", b, check=False).returncode == 0), None)
    if base is None:
        pytest.skip(
            "no base image here: podman pull python:3.11-slim, or name a local one in "
            f"COLORIT_BASE_IMAGE (looked for {', '.join(BASE_IMAGES)})"
        )
    started = time.monotonic()
    build = _podman("build", "--pull=never", "--build-arg", f"BASE_IMAGE={base}", "-t", IMAGE, str(REPO), timeout=BUILD_TIMEOUT_S)
    print(f"podman build from {base}: {time.monotonic() - started:.0f} s", file=sys.stderr)
    assert _podman("image", "exists", IMAGE, check=False).returncode == 0, build.stdout[-2000:]
    return IMAGE


def _demofiles(tmp_path: Path) -> Path:
    folder = tmp_path / "demofiles"
    shutil.copytree(REPO / "demofiles", folder)
    for stale in folder.glob("*-result.csv"):
        stale.unlink()
    return folder


def _optimum(board_csv: Path) -> int:
    return len(solve(read_board_csv(board_csv), "astar").moves)


def _check_on_host(board: Path, answer: Path) -> str:
    """``colorit check`` of this checkout (the library replays the answer)."""
    done = subprocess.run(
        [sys.executable, "-m", "colorit", "check", str(board), str(answer)], capture_output=True, text=True, timeout=RUN_TIMEOUT_S
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


#: The first test also builds the image.
container_timeout = pytest.mark.timeout(BUILD_TIMEOUT_S + 2 * RUN_TIMEOUT_S)


@pytest.mark.container
@container_timeout
def test_the_default_command_solves_the_mounted_demofiles(image: str, tmp_path: Path) -> None:
    folder = _demofiles(tmp_path)
    done = _podman(*_fill(RUN_DEMO, dir=folder, image=image)[1:])
    answer = folder / "sample-result.csv"
    assert answer.is_file(), f"no answer on the host:\n{done.stdout}\n{done.stderr}"
    moves = len(answer.read_text(encoding="ascii").split())
    assert f"proven optimal: {moves} moves" in done.stdout, done.stdout
    assert _check_on_host(folder / "sample.csv", answer).startswith(f"valid: {moves} moves")
    assert moves == _optimum(folder / "sample.csv")


@pytest.mark.container
@container_timeout
def test_any_user_may_run_the_image(image: str, tmp_path: Path) -> None:
    """``-u UID:GID`` (the answer then belongs to the user): the kernels compiled at build
    time are readable by everyone, and the answer is written as that user."""
    folder = _demofiles(tmp_path)
    folder.chmod(0o777)
    done = _podman("run", "--rm", "-u", "4321:4321", "-v", f"{folder}:/demofiles", image)
    answer = folder / "sample-result.csv"
    assert answer.is_file(), done.stdout + done.stderr
    assert answer.stat().st_uid == 4321
    _check_on_host(folder / "sample.csv", answer)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 (127.0.0.1 only)
        return response.status, response.read()


@contextlib.contextmanager
def _served(image: str, *options: str) -> Iterator[tuple[str, str]]:
    """A ``serve`` container (name, base URL); stopped and removed afterwards."""
    port = _free_port()
    command = _fill(RUN_SERVE, port=port, image=image)
    at = command.index(image)
    name = f"colorit-test-{os.getpid()}-{port}"
    cid = _podman(*command[1:at], "--name", name, *options, *command[at:]).stdout.strip()
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVE_UP_S
        while True:
            with contextlib.suppress(OSError):
                if _get(url + "/api/health")[0] == 200:
                    break
            state = _podman("inspect", "--format", "{{.State.Status}}", cid).stdout.strip()
            assert state == "running", f"the server ended ({state}):\n" + _podman("logs", cid, check=False).stdout
            assert time.monotonic() < deadline, f"no answer from {url} after {SERVE_UP_S} s:\n" + _podman("logs", cid, check=False).stdout
            time.sleep(1)
        yield cid, url
    finally:
        _podman("rm", "-f", "-t", "0", cid, check=False)


def _health(url: str) -> dict[str, object]:
    status, body = _get(url + "/api/health")
    assert status == 200
    health: dict[str, object] = json.loads(body)
    assert health["ok"] is True
    return health


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@pytest.mark.container
@container_timeout
def test_serve_answers_and_stops_cleanly(image: str) -> None:
    with _served(image) as (cid, url):
        health = _health(url)
        assert health["workers"] == len(os.sched_getaffinity(0)), health
        status, page = _get(url + "/")
        assert status == 200 and b"<html" in page.lower()
        host_pids = [int(p) for p in _podman("top", cid, "hpid").stdout.split()[1:]]
        assert len(host_pids) >= 1 + int(health["workers"])  # the server and its workers
        started = time.monotonic()
        _podman("stop", "-t", str(STOP_GRACE_S), cid)
        took = time.monotonic() - started
        state = json.loads(_podman("inspect", cid).stdout)[0]["State"]
        logs = _podman("logs", cid).stdout
        assert took < STOP_GRACE_S - 5, f"podman stop took {took:.0f} s: the server did not end on SIGTERM"
        assert state["ExitCode"] == 0, (state, logs)
        assert "stopped (SIGTERM); solver workers ended" in logs, logs
        left = [pid for pid in host_pids if _alive(pid)]
        assert not left, f"processes left running after podman stop: {left}"
    assert _podman("container", "exists", cid, check=False).returncode != 0


@pytest.mark.container
@container_timeout
def test_the_memory_limit_sets_the_default_cap(image: str, tmp_path: Path) -> None:
    folder = _demofiles(tmp_path)
    done = _podman("run", "--rm", "--memory", "1g", "-v", f"{folder}:/demofiles", image)
    assert "max memory 512M (half of the container's 1G)" in done.stdout, done.stdout
    _check_on_host(folder / "sample.csv", folder / "sample-result.csv")
    refused = _podman("run", "--rm", "--memory", "1g", image, "/demofiles/sample.csv", "/tmp/out.csv", "--max-memory", "2G", check=False)
    assert refused.returncode == 2
    assert "is more than the 1G this container may use" in refused.stderr, refused.stderr


@pytest.mark.container
@container_timeout
def test_the_cpu_limit_sets_the_worker_count(image: str) -> None:
    with _served(image, "--memory", "1g", "--cpus", "1") as (_, url):
        health = _health(url)
        assert health["workers"] == 1, health
