#!/usr/bin/env python3
"""Run ``colorit bench`` over every community benchmark set with a known optimum, with
1 and 2 workers, and print a markdown table of the results.

Each run is a fresh process (so wall time and peak memory are the whole process, as in
the published reference times: ``process s`` counts interpreter start-up and imports,
``wall s`` is colorit bench's own clock), checked against the set's ``.opt`` file with
``--expect``; its JSON summary, answers and report go to ``--out`` (``bench-out/``, which
git ignores). The sets are read where they are, never copied: ``../shared/datasets``
beside the repository, or the folder named by ``COLORIT_DATASETS`` or ``--datasets``.

    python benchmarks/run_datasets.py                   # every .opt set, 1 and 2 workers
    python benchmarks/run_datasets.py --sets pc19,b24c4 --workers 2 --algo auto
    python benchmarks/run_datasets.py --limit 100 --algo greedy   # a quick smoke run

Exit status: 0 when every run passed its ``--expect`` check, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"


def datasets_dir(arg: str | None) -> Path:
    """``--datasets``, else ``$COLORIT_DATASETS``, else ``../shared/datasets``."""
    return Path(arg or os.environ.get("COLORIT_DATASETS") or DEFAULT_DATASETS)


def find_sets(folder: Path, include_best: bool) -> list[tuple[Path, Path]]:
    """(boards, lengths) for each set with an ``.opt`` (and ``.best`` if asked)."""
    suffixes = (".opt", ".best") if include_best else (".opt",)
    found = []
    for boards in sorted(folder.glob("*.txt")):
        for suffix in suffixes:
            lengths = boards.with_suffix(suffix)
            if lengths.is_file():
                found.append((boards, lengths))
                break
    return found


def bench_command() -> list[str]:
    """``colorit bench``, run by this interpreter."""
    return [sys.executable, "-m", "colorit", "bench"]


def run_one(boards: Path, lengths: Path, workers: int, args: argparse.Namespace, out: Path) -> dict[str, Any]:
    """One ``colorit bench`` run; its summary plus the exit status."""
    tag = f"{boards.stem}-w{workers}"
    summary_path = out / f"{tag}.json"
    summary_path.unlink(missing_ok=True)
    cmd = [
        *bench_command(),
        str(boards),
        "--expect", str(lengths),
        "--json", str(summary_path),
        "--solutions", str(out / f"{tag}.sol"),
        "--algo", args.algo,
        "--workers", str(workers),
    ]  # fmt: skip
    if args.time_limit is not None:
        cmd += ["--time-limit", str(args.time_limit)]
    if args.limit is not None:
        cmd += ["--limit", str(args.limit)]
    if args.max_memory:
        cmd += ["--max-memory", args.max_memory]
    if args.quiet:
        cmd.append("--quiet")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p))
    t0 = time.monotonic()
    with open(out / f"{tag}.log", "w", encoding="utf-8") as log:
        code = subprocess.call(cmd, stdout=log, env=env)
    wall = time.monotonic() - t0
    doc: dict[str, Any] = json.loads(summary_path.read_text()) if summary_path.is_file() else {}
    known = sum(int(v) for v in lengths.read_text().split()[: int(doc.get("boards", 0))])
    doc.update(set=boards.stem, workers=workers, exit=code, known_total=known, process_s=round(wall, 2), log=str(out / f"{tag}.log"))
    return doc


def status(doc: dict[str, Any]) -> str:
    code = doc["exit"]
    if code == 0:
        return "ok"
    if code == 1:
        files = doc.get("files") or [{}]
        f = files[0]
        parts = [f"{f.get(k)} {label}" for k, label in (("longer", "longer"), ("shorter_than_proven", "BUG shorter")) if f.get(k)]
        if doc.get("errors"):
            parts.append(f"{doc['errors']} failed")
        return "FAIL: " + (", ".join(parts) or "see log")
    return f"exit {code} (see {doc['log']})"


def table(rows: list[dict[str, Any]]) -> str:
    head = ["set", "boards", "total", "known", "proven", "wall s", "process s", "peak MB", "workers", "status"]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for d in rows:
        cells = [
            d["set"], d.get("boards", "-"), d.get("total_moves", "-"), d["known_total"], d.get("proven", "-"),
            d.get("wall_s", "-"), d["process_s"], d.get("peak_rss_mb", "-"), d["workers"], status(d),
        ]  # fmt: skip
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--datasets", help=f"folder of the sets (default: $COLORIT_DATASETS or {DEFAULT_DATASETS})")
    p.add_argument("--sets", help="comma-separated name prefixes to run (default: all with a known optimum)")
    p.add_argument("--workers", default="1,2", help="worker counts to run each set with (default: 1,2)")
    p.add_argument("--algo", default="auto", help="solver (default: auto)")
    p.add_argument("--time-limit", type=float, help="seconds per board (default: colorit bench's)")
    p.add_argument("--limit", type=int, help="only the first N boards of each set")
    p.add_argument("--max-memory", help="memory cap for the search tables (e.g. 1G; default: colorit bench's)")
    p.add_argument("--include-best", action="store_true", help="also run sets with only a .best file (b24c6)")
    p.add_argument("--out", default=str(REPO / "bench-out"), help="folder for summaries, answers and logs (default: bench-out/)")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress bars")
    args = p.parse_args(argv)

    folder = datasets_dir(args.datasets)
    if not folder.is_dir():
        print(f"run_datasets: no datasets folder at {folder} (set COLORIT_DATASETS or --datasets)", file=sys.stderr)
        return 2
    sets = find_sets(folder, args.include_best)
    if args.sets:
        wanted = [s.strip() for s in args.sets.split(",") if s.strip()]
        sets = [s for s in sets if any(s[0].stem.startswith(w) for w in wanted)]
    if not sets:
        print(f"run_datasets: no matching sets with known lengths in {folder}", file=sys.stderr)
        return 2
    workers = [int(w) for w in args.workers.split(",")]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    rows = []
    for boards, lengths in sets:
        for w in workers:
            doc = run_one(boards, lengths, w, args, out)
            rows.append(doc)
            print(f"{doc['set']} with {w} worker{'s' if w != 1 else ''}: {status(doc)}, "
                  f"{doc.get('total_moves', '-')} moves (known {doc['known_total']}), {doc['process_s']} s", file=sys.stderr)  # fmt: skip
    print(table(rows))
    return 0 if all(d["exit"] == 0 for d in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
