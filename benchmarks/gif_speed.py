#!/usr/bin/env python3
"""Time the replay GIF of a large board: the speed and size target of ``colorit show``.

The target (issue 10): a 100x100 board solved in about 120 moves becomes a GIF in under
5 s for the whole command and under 5 MB. This script times the rendering part alone,
in this process, after solving: importing Pillow and the renderer, drawing the frames,
encoding the GIF, and the key-frame PNG for comparison. The default board (100x100,
4 colours, seed 1) takes greedy 105 moves; ``--colours 6`` takes it about 200.

    python benchmarks/gif_speed.py
    python benchmarks/gif_speed.py --size 300x300 --colours 6 --repeat 1
    python benchmarks/gif_speed.py --labels numbers -o /tmp/replay.gif
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size", default="100x100", help="WIDTHxHEIGHT (default 100x100)")
    p.add_argument("--colours", type=int, default=4, help="colours on the board (default 4)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--algo", default="greedy", help="solver for the moves (default greedy: instant)")
    p.add_argument("--labels", default="none", choices=("none", "numbers", "symbols"))
    p.add_argument("--repeat", type=int, default=3, help="timed runs; the median is printed (default 3)")
    p.add_argument("-o", "--output", help="also write the GIF here")
    args = p.parse_args(argv)

    from colorit import Limits, solve
    from colorit.game.generate import parse_board_size, random_board

    width, height = parse_board_size(args.size)
    board = random_board(width, height, args.colours, args.seed)
    answer = solve(board, args.algo, Limits(time=10))
    moves = answer.moves
    print(f"board {width}x{height}, {args.colours} colours, seed {args.seed}: {args.algo} answer of {len(moves)} moves")

    started = time.perf_counter()
    from colorit.render import frames

    print(f"import Pillow and colorit.render.frames: {time.perf_counter() - started:.2f} s")
    cell = frames.cell_size_for(height, width, labels=args.labels)

    def timed(fn):  # type: ignore[no-untyped-def]
        runs, result = [], None
        for _ in range(max(1, args.repeat)):
            t = time.perf_counter()
            result = fn()
            runs.append(time.perf_counter() - t)
        return statistics.median(runs), result

    t_frames, shots = timed(lambda: frames.replay_frames(board, moves, labels=args.labels))
    t_gif, gif = timed(lambda: frames.gif_bytes(board, moves, labels=args.labels))
    t_png, png = timed(lambda: frames.keyframes_png(board, moves, labels=args.labels))
    w, h = shots[0].size
    print(f"frames: {len(shots)} of {w}x{h} px (cell {cell} px): {t_frames:.2f} s")
    print(f"gif:    {t_gif:.2f} s, {len(gif) / 1e6:.2f} MB ({len(gif) / len(shots) / 1e3:.1f} kB a frame)")
    print(f"png key frames: {t_png:.2f} s, {len(png) / 1e6:.2f} MB")
    if args.output:
        Path(args.output).write_bytes(gif)
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
