#!/usr/bin/env python3
"""A campaign over a set nobody has proven (b24c6n1000): passes of the exact search with
growing per-board limits, each board's best answer and bound kept in a results file.

    python benchmarks/campaign.py --limit-s 160                 # one more pass, local:2
    python benchmarks/campaign.py --report                      # only the figures
    python benchmarks/campaign.py --results new.jsonl --limit-s 1200 --max-memory 16G
                                                                # the whole set from nothing

A pass is ``colorit bench SET --results results/SET.jsonl --resume --time-limit S
--scheduler local:2``: the proven boards stay, every board not yet proven that has not
had ``S`` seconds is solved again from its answer and lower bound. Then, from the results
file: boards proven, the total, the certified lower bound on the optimal total (the sum
of the boards' bounds) and the width of that interval, and the comparison with the best
known answers (``SET.best``) where there are some. Every answer in the file is replayed
on its board when it is read.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATASETS = Path(os.environ.get("COLORIT_DATASETS") or REPO.parent / "shared" / "datasets")


def report(set_path: Path, results: Path) -> None:
    sys.path.insert(0, str(REPO))
    from colorit.batch.results import Campaign
    from colorit.io.datasets import read_boards

    boards = read_boards(set_path)
    camp = Campaign(results, boards)
    camp.read()  # every answer replayed on its board
    t = camp.totals()
    best_path = set_path.with_suffix(".best")
    vs_best = ""
    if best_path.is_file():
        best = [int(x) for x in best_path.read_text().split()]
        mine = {i: len(r.moves) for i, r in camp.records.items()}
        known = sum(best[i] for i in mine)
        shorter = sum(1 for i, n in mine.items() if n < best[i])
        longer = sum(1 for i, n in mine.items() if n > best[i])
        below = sum(1 for i, r in camp.records.items() if r.proven and len(r.moves) < best[i])
        vs_best = (f"; best known total of these boards {known} ({t['total_moves'] - known:+d}: {shorter} shorter, "
                   f"{longer} longer; {below} proven below the best known)")
    print(f"{set_path.name}: {t['boards']} boards, {t['proven']} proven, total {t['total_moves']}, certified lower bound "
          f"{t['certified_lower_bound']} (interval {t['interval_pct']:.2f}% wide), {t['seconds'] / 3600:.1f} h of solving"
          + vs_best)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--set", default="b24c6n1000.txt")
    p.add_argument("--results", default=None, help="default: results/SET.jsonl in the repository")
    p.add_argument("--limit-s", type=float, default=None, help="per-board limit of the pass to run")
    p.add_argument("--scheduler", default="local:2")
    p.add_argument("--max-memory", default=None)
    p.add_argument("--report", action="store_true", help="only print the figures of the results file")
    args = p.parse_args()
    set_path = DATASETS / args.set
    results = Path(args.results or REPO / "results" / (set_path.stem + ".jsonl"))
    if not args.report:
        if args.limit_s is None:
            p.error("give --limit-s for a pass (or --report)")
        results.parent.mkdir(parents=True, exist_ok=True)
        cmd = [sys.executable, "-m", "colorit", "bench", str(set_path), "--results", str(results), "--time-limit",
               f"{args.limit_s:g}", "--scheduler", args.scheduler]
        if results.exists():
            cmd.append("--resume")
        if args.max_memory:
            cmd += ["--max-memory", args.max_memory]
        print("$ colorit bench " + " ".join(cmd[4:]), flush=True)
        t0 = time.monotonic()
        code = subprocess.run(cmd, cwd=REPO).returncode
        # the bench and every process under it (Dask's workers are waited for)
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(f"pass of {args.limit_s:g} s a board: exit {code}, {time.monotonic() - t0:.0f} s wall, "
              f"{used.ru_utime + used.ru_stime:.0f} s CPU", flush=True)
    report(set_path, results)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
