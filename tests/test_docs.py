"""The shell examples of README.md and docs/guide.md, run as written.

Every fenced ``sh`` block is run in a temporary folder holding a copy of ``demofiles/``
and a ``bin/colorit`` that runs this checkout (and ``../shared`` pointing at the
community's datasets where they are). The README is run as a new user runs it: in a
plain shell, with no ``colorit`` on the PATH; the guide, which is read after an install,
with this checkout's ``colorit`` first on the PATH. The benchmark sets a command names
come from a cache filled from the datasets folder (``COLORIT_DATA_DIR``), with no
download allowed (``COLORIT_DATASETS_URL`` names a closed port). In a block written as a session, a line
``$ command`` is run and the lines after it, up to the next ``$``, are the output it must
show (standard output and error together, compared as doctest does: ``...`` stands for
anything, runs of spaces are one space); other blocks are scripts whose every command
must exit 0. What cannot run here is left out by rule, not by hand:

- ``bin/test`` (it is what runs this test);
- ``docker``, ``podman`` and ``buildah`` lines (tests/test_container.py runs them where
  podman is present);
- commands naming ``../shared/datasets``, or a set by name, when the datasets are not
  beside the checkout.

``colorit serve`` runs until it shows its expected output, then gets Ctrl-C and must end
cleanly.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from conftest import DATASETS

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", REPO / "docs" / "guide.md"]
NOT_HERE = ("bin/test", "docker ", "podman ", "buildah ")
COMMAND_TIMEOUT_S = 240
_FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```", re.M | re.S)
_CHECKER = doctest.OutputChecker()
_FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass
class Step:
    command: str
    expected: list[str] = field(default_factory=list)
    checked: bool = False


@dataclass
class Example:
    doc: str
    line: int
    steps: list[Step]

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}"


def _join_continuations(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
    return out


def parse_examples(path: Path) -> list[Example]:
    text = path.read_text(encoding="utf-8")
    examples = []
    for m in _FENCE.finditer(text):
        if m.group(1) != "sh":
            continue
        line = text.count("\n", 0, m.start()) + 1
        body = m.group(2).splitlines()
        steps: list[Step] = []
        if any(b.startswith("$ ") for b in body):
            for b in body:
                if b.startswith("$ "):
                    steps.append(Step(b[2:].strip(), checked=True))
                elif steps and steps[-1].command.endswith("\\") and not steps[-1].expected:
                    steps[-1].command = steps[-1].command[:-1].rstrip() + " " + b.strip()
                elif steps:
                    steps[-1].expected.append(b)
        else:
            for b in _join_continuations([b for b in body if b.strip() and not b.lstrip().startswith("#")]):
                steps.append(Step(b.strip()))
        examples.append(Example(str(path.relative_to(REPO)), line, steps))
    return examples


ALL = [e for doc in DOCS for e in parse_examples(doc)]


def test_the_documents_have_examples() -> None:
    """A parser that found nothing would pass every example vacuously."""
    assert len([e for e in ALL if e.doc == "README.md"]) >= 5
    assert len([e for e in ALL if e.doc.endswith("guide.md")]) >= 10
    assert any(s.checked and s.expected for e in ALL for s in e.steps)


def test_the_parser_reads_sessions_and_scripts(tmp_path: Path) -> None:
    doc = tmp_path / "d.md"
    doc.write_text("x\n```sh\n$ echo a \\\n  b\na b\n$ true\n```\n```sh\n# c\necho 1\necho 2\n```\n```text\nno\n```\n")
    first, second = parse_examples_at(doc)
    assert [(s.command, s.expected, s.checked) for s in first.steps] == [("echo a b", ["a b"], True), ("true", [], True)]
    assert [s.command for s in second.steps] == ["echo 1", "echo 2"]


def parse_examples_at(path: Path) -> list[Example]:
    old = REPO
    try:
        globals()["REPO"] = path.parent
        return parse_examples(path)
    finally:
        globals()["REPO"] = old


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    work = root / "work"
    work.mkdir()
    shutil.copytree(REPO / "demofiles", work / "demofiles")
    (work / "bin").mkdir()
    launcher = work / "bin" / "colorit"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m colorit "$@"\n')
    launcher.chmod(0o755)
    if DATASETS.is_dir():
        (root / "shared").mkdir()
        (root / "shared" / "datasets").symlink_to(DATASETS)
    return work


#: The sets a document names (``bench pc19``), as their files in the datasets folder.
SETS_BY_NAME = {"pc19": "pc19_b14c6n1000"}


def _set_cache(work: Path) -> Path:
    """A cache of the sets the documents name, filled from the datasets folder."""
    cache = work.parent / "data"
    if not cache.exists():
        cache.mkdir()
        for stem in SETS_BY_NAME.values():
            for suffix in (".txt", ".opt"):
                if (DATASETS / (stem + suffix)).is_file():
                    shutil.copyfile(DATASETS / (stem + suffix), cache / (stem + suffix))
    return cache


def _names_a_set(command: str) -> bool:
    return re.search(r"\b(datasets fetch|bench)\s+(" + "|".join(SETS_BY_NAME) + r")\b", command) is not None


def _env(work: Path, colorit_on_path: bool = True) -> dict[str, str]:
    path = os.environ.get("PATH", "")
    if colorit_on_path:
        bindir = work.parent / "pathbin"
        bindir.mkdir(exist_ok=True)
        exe = bindir / "colorit"
        if not exe.exists():
            exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m colorit "$@"\n')
            exe.chmod(0o755)
        path = f"{bindir}{os.pathsep}{path}"
    else:
        path = os.pathsep.join(d for d in path.split(os.pathsep) if not (Path(d) / "colorit").exists())
    env = dict(os.environ, PATH=path, COLUMNS="100", NO_COLOR="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH")) if p)
    env["COLORIT_DATA_DIR"] = str(_set_cache(work))
    env["COLORIT_DATASETS_URL"] = "http://127.0.0.1:9/"  # nothing is downloaded here
    return env


def _matches(expected: list[str], got: str) -> bool:
    want = "\n".join(expected).strip() + "\n"
    return _CHECKER.check_output(want, got.strip() + "\n", _FLAGS)


def _run_server(step: Step, work: Path, env: dict[str, str]) -> None:
    proc = subprocess.Popen(shlex.split(step.command), cwd=work, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line:
                break
            seen.append(line.rstrip("\n"))
            if _matches(step.expected, "\n".join(seen)):
                break
        assert _matches(step.expected, "\n".join(seen)), f"{step.command!r} showed {seen!r}, expected {step.expected!r}"
    finally:
        os.killpg(proc.pid, signal.SIGINT)
        try:
            code = proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError(f"{step.command!r} did not stop on Ctrl-C") from None
    assert code in (0, 130), f"{step.command!r} ended with {code} after Ctrl-C"


@pytest.mark.parametrize("example", ALL, ids=[e.id for e in ALL])
def test_example(example: Example, workdir: Path) -> None:
    env = _env(workdir, colorit_on_path=example.doc != "README.md")
    ran = 0
    for step in example.steps:
        if step.command.startswith(NOT_HERE):
            continue
        if ("../shared/datasets" in step.command or _names_a_set(step.command)) and not DATASETS.is_dir():
            continue
        ran += 1
        if re.match(r"(bin/)?colorit serve\b", step.command):
            _run_server(step, workdir, env)
            continue
        proc = subprocess.run(["bash", "-o", "pipefail", "-c", step.command], cwd=workdir, env=env,
                              capture_output=True, text=True, timeout=COMMAND_TIMEOUT_S)
        got = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"{example.id}: {step.command!r} exited {proc.returncode}:\n{got[-2000:]}"
        if step.checked and step.expected:
            assert _matches(step.expected, got), f"{example.id}: {step.command!r} showed:\n{got}\nexpected:\n" + "\n".join(step.expected)
    if ran == 0:
        pytest.skip("every command of this example runs elsewhere (see the module docstring)")


def test_the_readme_is_read_in_a_few_minutes() -> None:
    """A newcomer's page: at most 160 lines, its "How fast" at most 25 (the figures live
    in docs/benchmarks.md), and every command of its shell blocks this checkout's
    ``bin/colorit``, which runs in a plain shell after the set-up."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 160
    fast = text.split("## How fast", 1)[1].split("\n## ", 1)[0]
    assert len(fast.strip().splitlines()) <= 25
    commands = [s.command for e in ALL if e.doc == "README.md" for s in e.steps]
    assert commands and all(re.match(r"(bin/colorit|bin/test)\b", c) for c in commands), commands


def test_the_benchmark_report_opens_with_its_headline_table() -> None:
    """A report, not a notebook: at most about 400 lines, its first section the headline
    table, and every row of it reproducible: a command, a date, a commit and a CPU."""
    text = (REPO / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400
    first = text.split("\n## ", 2)[1]
    assert first.startswith("Headline figures")
    rows = [line for line in first.splitlines() if line.startswith("| ") and not line.startswith("| claim")]
    assert len(rows) >= 10
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        command, date, commit, cpu = cells[-4:]
        assert command.startswith("`") and re.fullmatch(r"\d{4}-\d\d-\d\d", date), row
        assert re.fullmatch(r"`[0-9a-f]{7}`", commit) and cpu, row


def test_the_changelog_is_short_and_dated() -> None:
    """Keep a Changelog, for users: at most about 120 lines, the current version dated."""
    from colorit import __version__

    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 120
    assert re.search(rf"^## {re.escape(__version__)} - \d{{4}}-\d\d-\d\d$", text, re.M)
