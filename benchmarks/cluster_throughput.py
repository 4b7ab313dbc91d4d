#!/usr/bin/env python3
"""Boards per second of ``colorit bench`` on one dataset: one process, ``--workers 2``
and a 2-worker Dask LocalCluster (``--scheduler local:2``), and any scheduler given with
``--scheduler``; a markdown table on stdout.

Each run is a fresh ``python -m colorit bench FILE --algo A --expect auto --json ...``
process. Two rates are given: over ``solve_s`` (the bench's solving phase: boards sent,
answers back; the cluster's start, reading the file and the interpreter are left out,
a worker's loading of the kernels is in) and over the whole process. The setups take
turns, ``--repeat`` times, so that a change in the machine's load falls on all of them;
the table has each setup's best run (the least disturbed by other work on the machine)
and its median, and the 1-minute load average before and after all runs (on a shared
machine: rerun when it is far above the workers' count).

    python benchmarks/cluster_throughput.py                       # pc19, 1000 boards, auto
    python benchmarks/cluster_throughput.py --set b24c4n1000 --repeat 3
    python benchmarks/cluster_throughput.py --scheduler tcp://127.0.0.1:8786 --setups w1,tcp

The dataset is read where it is (``../shared/datasets`` beside the repository, or
``--datasets``/``COLORIT_DATASETS``), never copied.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"

#: name -> (label, bench options)
SETUPS: dict[str, tuple[str, list[str]]] = {
    "w1": ("--workers 1", ["--workers", "1"]),
    "w2": ("--workers 2", ["--workers", "2"]),
    "local2": ("--scheduler local:2", ["--scheduler", "local:2"]),
}


def run_once(boards: Path, options: list[str], args: argparse.Namespace, out: Path) -> dict[str, Any]:
    summary = out / "summary.json"
    summary.unlink(missing_ok=True)
    cmd = [sys.executable, "-m", "colorit", "bench", str(boards), "--algo", args.algo, "--json", str(summary), "-q", *options]
    if boards.with_suffix(".opt").exists() or boards.with_suffix(".best").exists():
        cmd += ["--expect", "auto"]
    if args.limit:
        cmd += ["--limit", str(args.limit)]
    if args.time_limit:
        cmd += ["--time-limit", str(args.time_limit)]
    env = dict(os.environ, PYTHONPATH=str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    process_s = time.monotonic() - t0
    if proc.returncode != 0 or not summary.exists():
        raise SystemExit(f"{' '.join(cmd)}: exit {proc.returncode}\n{proc.stderr}")
    doc = json.loads(summary.read_text())
    doc["process_s"] = process_s
    doc["command"] = "colorit bench " + " ".join(cmd[4:]).replace(str(summary), "s.json")
    return doc


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default="pc19_b14c6n1000", help="dataset name (a .txt in the datasets folder)")
    p.add_argument("--datasets", help="folder of the datasets (default: $COLORIT_DATASETS or ../shared/datasets)")
    p.add_argument("--algo", default="auto")
    p.add_argument("--limit", type=int, help="only the first N boards")
    p.add_argument("--time-limit", type=float, help="seconds per board (default: bench's)")
    p.add_argument("--repeat", type=int, default=2, help="runs of each setup (default 2)")
    p.add_argument("--setups", default="w1,w2,local2", help="which of w1, w2, local2, tcp (default: w1,w2,local2)")
    p.add_argument("--scheduler", help="a running scheduler's address, for the 'tcp' setup")
    args = p.parse_args(argv)

    folder = Path(args.datasets or os.environ.get("COLORIT_DATASETS") or DEFAULT_DATASETS)
    boards = folder / f"{args.set}.txt"
    if not boards.is_file():
        p.error(f"{boards}: no such dataset")
    setups = dict(SETUPS)
    if args.scheduler:
        setups["tcp"] = (f"--scheduler {args.scheduler}", ["--scheduler", args.scheduler])
    names = [n.strip() for n in args.setups.split(",") if n.strip()]
    for n in names:
        if n not in setups:
            p.error(f"unknown setup {n!r} (choices: {', '.join(setups)}; 'tcp' needs --scheduler)")

    runs: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeat):
            for n in names:
                doc = run_once(boards, setups[n][1], args, Path(tmp))
                runs[n].append(doc)
                print(
                    f"run {r + 1} {setups[n][0]}: {doc['boards']} boards, solve {doc['solve_s']:.2f} s, "
                    f"process {doc['process_s']:.2f} s, load {os.getloadavg()[0]:.2f}",
                    file=sys.stderr,
                )
    load_after = os.getloadavg()[0]

    print(f"{boards.name}, --algo {args.algo}{f', first {args.limit} boards' if args.limit else ''}; "
          f"load average (1 min) {load_before:.2f} before, {load_after:.2f} after; {os.cpu_count()} cores\n")  # fmt: skip
    print(
        "| setup | boards | total moves | solve s: best (median) | boards/s solving: best (median) "
        "| process s: best (median) | boards/s whole process: best (median) | runs: solve s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for n in names:
        docs = runs[n]
        solve = [d["solve_s"] for d in docs]
        whole = [d["process_s"] for d in docs]
        count = docs[0]["boards"]
        s_best, s_med, w_best, w_med = min(solve), statistics.median(solve), min(whole), statistics.median(whole)
        each = ", ".join(f"{v:.2f}" for v in solve)
        print(
            f"| `{setups[n][0]}` | {count} | {docs[0]['total_moves']} | {s_best:.2f} ({s_med:.2f}) | "
            f"{count / s_best:.0f} ({count / s_med:.0f}) | {w_best:.2f} ({w_med:.2f}) | {count / w_best:.0f} ({count / w_med:.0f}) | {each} |"
        )
    print()
    for n in names:
        print(f"- `{runs[n][0]['command']}`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
