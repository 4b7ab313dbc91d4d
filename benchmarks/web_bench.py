#!/usr/bin/env python3
"""Numbers for ``colorit serve``, measured through HTTP against a real server.

1. **First answer**: the time from sending ``POST /api/solve/stream`` (pressing solve on
   the page) to the first ``progress`` event (the quick first answer), on 14x14 boards,
   one request at a time on an idle server; the stream is then closed (which also
   cancels the solve). Also the time to the ``started`` event.
2. **Throughput**: solves per second through ``POST /api/solve`` with the server's
   workers kept busy (``--concurrency`` requests in flight, fewer than the queue holds,
   so none is refused), each with ``--time-limit``; every answer is checked with
   ``Board.check`` and against the set's optimum.

The boards are the pc19 set (``pc19_b14c6n1000.txt``: 14x14, 6 colours), read where they
are (``../shared/datasets`` beside the repository, ``$COLORIT_DATASETS`` or
``--datasets``), never copied. The server is started here (``python -m colorit.web
--port 0 --workers N``) and stopped with SIGINT at the end, unless ``--url`` names one.

    python benchmarks/web_bench.py                       # 50 first answers, 300 solves at 1 s
    python benchmarks/web_bench.py --first 20 --solves 10  # quicker
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from colorit.io.datasets import read_boards, read_lengths

DEFAULT_DATASETS = REPO.parent / "shared" / "datasets"
SET_NAME = "pc19_b14c6n1000.txt"


def start_server(workers: int) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "colorit.web", "--port", "0", "--workers", str(workers)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "serving on" in line:
            return process, line.split("serving on ", 1)[1].split(" ", 1)[0].rstrip("/")
    raise SystemExit(f"the server exited without serving (status {process.wait()})")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    low, high = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


async def first_answers(url: str, boards: list[Any], time_limit: float) -> dict[str, Any]:
    """Seconds to ``started`` and to the first ``progress`` event, one request at a time."""
    to_started: list[float] = []
    to_first: list[float] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for board in boards:
            while (await client.get("/api/health")).json()["busy"]:  # an idle server each time
                await asyncio.sleep(0.01)
            body = {"board": board.cells.tolist(), "time_limit": time_limit}
            t0 = time.perf_counter()
            async with client.stream("POST", "/api/solve/stream", json=body) as r:
                r.raise_for_status()
                async for line in r.aiter_lines():
                    if line.startswith("event: started"):
                        to_started.append(time.perf_counter() - t0)
                    elif line.startswith("event: progress"):
                        to_first.append(time.perf_counter() - t0)
                        break
    return {
        "requests": len(to_first),
        "started_p50_ms": 1000 * percentile(to_started, 0.5),
        "first_p50_ms": 1000 * percentile(to_first, 0.5),
        "first_p95_ms": 1000 * percentile(to_first, 0.95),
        "first_max_ms": 1000 * max(to_first),
    }


async def throughput(
    url: str, boards: list[Any], optimum: list[int], time_limit: float, concurrency: int
) -> dict[str, Any]:
    """Solves per second with ``concurrency`` requests in flight."""
    gate = asyncio.Semaphore(concurrency)
    answers: list[dict[str, Any]] = []
    refused = 0

    async def one(client: httpx.AsyncClient, i: int) -> None:
        nonlocal refused
        async with gate:
            body = {"board": boards[i].cells.tolist(), "time_limit": time_limit}
            r = await client.post("/api/solve", json=body)
            if r.status_code == 503:
                refused += 1
                return
            r.raise_for_status()
            answer = r.json()
            boards[i].check(answer["moves"])
            answer["optimum"] = optimum[i] if i < len(optimum) else None
            answers.append(answer)

    limits = httpx.Limits(max_connections=concurrency + 2)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        t0 = time.perf_counter()
        await asyncio.gather(*(one(client, i) for i in range(len(boards))))
        wall = time.perf_counter() - t0
    proven = sum(1 for a in answers if a["proven"])
    optimal = sum(1 for a in answers if a["optimum"] is not None and len(a["moves"]) == a["optimum"])
    return {
        "solves": len(answers),
        "refused_503": refused,
        "wall_s": wall,
        "solves_per_s": len(answers) / wall,
        "proven": proven,
        "optimal_length": optimal,
        "mean_elapsed_s": statistics.mean(a["elapsed_s"] for a in answers),
        "total_moves": sum(len(a["moves"]) for a in answers),
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--datasets", default=os.environ.get("COLORIT_DATASETS") or str(DEFAULT_DATASETS))
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--first", type=int, default=50, help="first-answer requests (default 50)")
    p.add_argument("--solves", type=int, default=300, help="throughput solves (default 300)")
    p.add_argument("--time-limit", type=float, default=1.0, help="each throughput solve's limit (default 1 s)")
    p.add_argument("--concurrency", type=int, default=0, help="requests in flight (default: 2 per worker)")
    p.add_argument("--url", help="use this running server instead of starting one")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    args = p.parse_args()

    path = Path(args.datasets) / SET_NAME
    boards = read_boards(path, limit=args.first + args.solves)
    optimum = read_lengths(path.with_suffix(".opt"))
    concurrency = args.concurrency or 2 * args.workers
    process = None
    url = args.url
    if url is None:
        process, url = start_server(args.workers)
    try:
        load = os.getloadavg()
        first = asyncio.run(first_answers(url, boards[: args.first], time_limit=5.0))
        rest = boards[args.first :]
        speed = asyncio.run(throughput(url, rest, optimum[args.first :], args.time_limit, concurrency))
    finally:
        if process is not None:
            process.send_signal(signal.SIGINT)
            process.wait(30)
    result = {
        "set": SET_NAME,
        "workers": args.workers,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, load {load[0]:.2f} at start",
        "first_answer": first,
        "throughput": {**speed, "time_limit_s": args.time_limit, "concurrency": concurrency},
    }
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    f, s = first, speed
    print(f"{SET_NAME}, {args.workers} workers ({result['machine']})")
    print(
        f"first answer  ({f['requests']} streams, one at a time): p50 {f['first_p50_ms']:.1f} ms, "
        f"p95 {f['first_p95_ms']:.1f} ms, max {f['first_max_ms']:.1f} ms (started: p50 {f['started_p50_ms']:.1f} ms)"
    )
    print(
        f"throughput    ({s['solves']} solves at {args.time_limit:g} s, {concurrency} in flight): "
        f"{s['solves_per_s']:.2f} solves/s over {s['wall_s']:.1f} s; {s['proven']} proven, "
        f"{s['optimal_length']} of optimal length, {s['refused_503']} refused"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
