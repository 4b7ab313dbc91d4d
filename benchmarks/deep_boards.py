#!/usr/bin/env python3
"""Deep optima in little memory: the 20 boards ``colorit generate --size 16x16 --colours 10
--seed 1`` .. ``--seed 20`` (optima 29-33 moves), proven with no memory cap and under
``--max-memory 1G``, one worker, whole process timed.

Each run is one fresh ``colorit bench s1.csv ... s20.csv --time-limit 3600 --json``
process (so start-up and kernel loading count); the table gives the total moves, boards
proven, wall time, peak RSS of the process and the largest table a board's search held.

    python benchmarks/deep_boards.py                  # uncapped and 1G
    python benchmarks/deep_boards.py --caps 1G,256M   # other caps
    python benchmarks/deep_boards.py --seeds 1-5      # fewer boards
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--caps", default="none,1G", help="comma-separated --max-memory values ('none': no cap)")
    p.add_argument("--seeds", default="1-20", help="first-last")
    p.add_argument("--algo", default="auto")
    args = p.parse_args()
    first, last = (int(x) for x in args.seeds.split("-"))
    python = sys.executable
    print("| cap | boards | total moves | proven | process s | peak RSS MB | largest table MB | command |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for seed in range(first, last + 1):
            out = Path(tmp) / f"s{seed}.csv"
            subprocess.run([python, "-m", "colorit", "generate", "--size", "16x16", "--colours", "10", "--seed",
                            str(seed), "-o", str(out)], cwd=REPO, check=True, capture_output=True)
            files.append(str(out))
        for cap in args.caps.split(","):
            summary = Path(tmp) / f"{cap}.json"
            cmd = [python, "-m", "colorit", "bench", *files, "--algo", args.algo, "--time-limit", "3600",
                   "--json", str(summary), "-q"]
            if cap != "none":
                cmd += ["--max-memory", cap]
            t0 = time.monotonic()
            subprocess.run(cmd, cwd=REPO, check=False, stdout=subprocess.DEVNULL)
            wall = time.monotonic() - t0
            data = json.loads(summary.read_text())
            tables = [b.get("table_bytes", 0) for b in data.get("board_results", [])]
            largest = f"{max(tables) / 2**20:.0f}" if tables else "-"
            shown = f"colorit bench s{first}.csv .. s{last}.csv --algo {args.algo} --time-limit 3600" + (
                f" --max-memory {cap}" if cap != "none" else "")
            print(f"| {cap} | {data['boards']} | {data['total_moves']} | {data['proven']} | {wall:.1f} | "
                  f"{data['peak_rss_mb']:.0f} | {largest} | `{shown}` |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
