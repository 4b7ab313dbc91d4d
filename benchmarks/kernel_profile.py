#!/usr/bin/env python3
"""Where a bench's time goes, kernel by kernel: ``perf`` samples mapped to the compiled
kernels.

numba's compiled code has no symbols ``perf`` can read, so the solving process (a child
of this script, run under ``perf record``) writes down, when it is done, where each
loaded kernel starts in memory; every sample in compiled code is then given to the
kernel that starts nearest below it (code of a function not listed, numba's own, lands
on its neighbour below). The code that takes a kernel's arguments from Python (unboxing
them) is listed apart. A kernel that another calls and LLVM did not inline is counted
as itself (A*'s lower bound shows as ``bound_bits``); one inlined counts as its caller.
Samples outside compiled code (the interpreter, numpy, the process's start) are counted
together as ``outside kernels``.

    python benchmarks/kernel_profile.py ../shared/datasets/pc19_b14c6n1000.txt --limit 1000
    python benchmarks/kernel_profile.py ../shared/datasets/b12c12n1000.txt --limit 150 --algo astar

Needs ``perf`` (Debian's ``linux-perf``) and permission to sample the process.
"""

from __future__ import annotations

import argparse
import bisect
import collections
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: The solving child: solve the boards, then list every loaded kernel's entry address.
CHILD = """
import json, sys
from colorit.io import datasets
from colorit.batch.solving import solve_one
from colorit.solvers import Limits
from colorit.runtime.warmup import warm_for
from numba.core.registry import CPUDispatcher

path, limit, algo, out = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
boards = datasets.read_boards(path, limit=limit)
warm_for(algo, boards)
for board in boards:
    solve_one(board, algo, Limits())
kernels = {}
for name, module in list(sys.modules.items()):
    if name.startswith("colorit"):
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher):
                kernels[id(value)] = value
starts = []
for kernel in kernels.values():
    name = f"{kernel.py_func.__module__}.{kernel.py_func.__qualname__}"
    for cres in kernel.overloads.values():
        for symbol, label in ((cres.fndesc.llvm_func_name, name),
                              (cres.fndesc.llvm_cpython_wrapper_name, name + " (call from Python)")):
            address = cres.library.get_pointer_to_function(symbol)
            if address:
                starts.append([address, label])
json.dump(starts, open(out, "w"))
"""


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dataset")
    p.add_argument("--limit", type=int, default=200, help="boards from the start of the set")
    p.add_argument("--algo", default="auto")
    p.add_argument("--frequency", type=int, default=2000, help="samples a second")
    args = p.parse_args()
    if shutil.which("perf") is None:
        raise SystemExit("kernel_profile: needs perf (apt-get install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        data, starts_file = Path(tmp, "perf.data"), Path(tmp, "starts.json")
        subprocess.run(["perf", "record", "-q", "-F", str(args.frequency), "-o", str(data), sys.executable, "-c",
                        CHILD, args.dataset, str(args.limit), args.algo, str(starts_file)], check=True)
        script = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,dso"], check=True,
                                capture_output=True, text=True).stdout
        starts = sorted((int(a), name) for a, name in json.loads(starts_file.read_text()))
    addresses = [a for a, _ in starts]
    counts: collections.Counter[str] = collections.Counter()
    for line in script.splitlines():
        parts = line.split(maxsplit=1)
        if not parts:
            continue
        ip = int(parts[0], 16)
        i = bisect.bisect_right(addresses, ip) - 1
        # compiled code has no file behind it: perf names it "[unknown]", "[JIT]" or after
        # the process's map file (/tmp/perf-PID.map)
        in_jit = len(parts) < 2 or any(mark in parts[1] for mark in ("unknown", "JIT", "/tmp/perf-"))
        counts[starts[i][1] if in_jit and i >= 0 else "outside kernels"] += 1
    total = sum(counts.values())
    print(f"{Path(args.dataset).name}, {args.limit} boards, {args.algo}: {total} samples")
    for name, n in counts.most_common(15):
        print(f"{100 * n / total:6.1f}%  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
