#!/usr/bin/env python3
"""Answers at small budgets: the total moves ``colorit bench`` reaches with a short time
limit per board, one worker, against the set's known optimum and a target.

Each case is one fresh ``colorit bench SET --algo ALGO --time-limit T --limit N --json``
process (one worker, whole process timed); the table shows the total, how far it is from
the optimum (or the best known total), the boards proven and the wall time, and whether
the target total is met. The default cases are the small-budget targets: floodtest-1000
(centre start) at 0.01 s and 0.02 s a board (ColorFill's fast strategy: 19,893 in about
40 s), pc19 at 0.01 s (its optimum) and b24c6n1000 at 0.1 s. Budgets this small move
with the machine's load: compare versions in turns, in one run.

    python benchmarks/fast_answers.py                      # every default case
    python benchmarks/fast_answers.py --cases floodtest@0.01 --limit 200
    python benchmarks/fast_answers.py --algo beam --cases pc19@0.01

Big boards (``--big``): 50x50 and 100x100 boards with 6 colours (``colorit generate``,
seeds 1..``--big-boards``) at 10 s each, whose totals are to be compared between versions:
run this script from each version's checkout (``git worktree add``), one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("COLORIT_DATASETS") or REPO.parent / "shared" / "datasets")

#: name -> (file, time limit a board, target total at that limit)
CASES = {
    "floodtest@0.01": ("floodtest_b19c6n1000_center.txt", 0.01, 19893),
    "floodtest@0.02": ("floodtest_b19c6n1000_center.txt", 0.02, 19870),
    "pc19@0.01": ("pc19_b14c6n1000.txt", 0.01, 20086),
    "b24c6@0.1": ("b24c6n1000.txt", 0.1, 31940),
}


def known_total(path: Path, limit: int | None) -> tuple[int, str]:
    for suffix, kind in ((".opt", "optimum"), (".best", "best known")):
        lengths = path.with_suffix(suffix)
        if lengths.is_file():
            values = [int(x) for x in lengths.read_text().split()]
            return sum(values[:limit] if limit else values), kind
    return 0, "-"


def run_bench(python: str, cwd: Path, files: list[str], algo: str, seconds: float, limit: int | None) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        summary = Path(tmp) / "summary.json"
        cmd = [python, "-m", "colorit", "bench", *files, "--algo", algo, "--time-limit", str(seconds),
               "--json", str(summary), "-q"]
        if limit:
            cmd += ["--limit", str(limit)]
        t0 = time.monotonic()
        subprocess.run(cmd, cwd=cwd, check=False, stdout=subprocess.DEVNULL)
        wall = time.monotonic() - t0
        data = json.loads(summary.read_text())
    data["process_s"] = wall
    data["command"] = "colorit bench " + " ".join(cmd[4:]).replace(tmp, "TMP")
    return data


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--cases", default=",".join(CASES), help=f"comma-separated, of: {', '.join(CASES)}")
    p.add_argument("--algo", default="auto")
    p.add_argument("--limit", type=int, default=None, help="first N boards of each set")
    p.add_argument("--big", action="store_true", help="also the 50x50 and 100x100 boards at 10 s")
    p.add_argument("--big-boards", type=int, default=3)
    p.add_argument("--only-big", action="store_true")
    args = p.parse_args()
    python = sys.executable
    rows = []
    if not args.only_big:
        for name in args.cases.split(","):
            file, seconds, target = CASES[name]
            path = DATASETS / file
            data = run_bench(python, REPO, [str(path)], args.algo, seconds, args.limit)
            known, kind = known_total(path, args.limit)
            total = data["total_moves"]
            rows.append((name, data["boards"], total, f"{total - known:+d} ({kind} {known})", data["proven"],
                         f"{data['process_s']:.1f}", target if not args.limit else "-",
                         ("yes" if total <= target else "no") if not args.limit else "-", data["command"]))
    if args.big or args.only_big:
        with tempfile.TemporaryDirectory() as tmp:
            for side in (50, 100):
                files = []
                for seed in range(1, args.big_boards + 1):
                    out = Path(tmp) / f"b{side}-{seed}.csv"
                    subprocess.run([python, "-m", "colorit", "generate", "--size", f"{side}x{side}", "--colours", "6",
                                    "--seed", str(seed), "-o", str(out)], cwd=REPO, check=True, capture_output=True)
                    files.append(str(out))
                data = run_bench(python, REPO, files, args.algo, 10.0, None)
                rows.append((f"{side}x{side}/6 x{args.big_boards} @10", data["boards"], data["total_moves"], "-",
                             data["proven"], f"{data['process_s']:.1f}", "-", "-", data["command"]))
    print("| case | boards | total | vs known | proven | process s | target | met | command |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(str(x) for x in row) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
