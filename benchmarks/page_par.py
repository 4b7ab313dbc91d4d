#!/usr/bin/env python3
"""How soon the page shows par and "still optimal?", in headless Chromium against a real
``colorit serve`` (``python -m colorit.web``, two solver workers).

For each board: the time from "new game" to the par's first "≥ L" and to the proven par,
then the time from each of the first moves (the greedy player's, so most leave the
optimal line the par's answer already covers) to the on-par status after it. Times are
taken in the page (performance.now()), from the click to the text shown.

    python benchmarks/page_par.py [--repeat 3] [--moves 5] [--sizes 14x14/6,20x20/6,30x30/8]

Prints one line a board and the medians a size: over all moves, and over the moves whose
position was not on an answer known already (those ask the server: the status shows at
the solve's first telling event, a bound past par or an answer at par, and is settled by
its replayed answer).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from colorit import solve  # noqa: E402
from colorit.game.generate import random_board  # noqa: E402

NEW_GAME = """
const [w, h, c, seed, done] = arguments;
const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
for (const [id, v] of [['width', w], ['height', h], ['colours', c], ['seed', seed]]) $(id).value = String(v);
$('start').value = 'top-left';
const par = $('par');
let bound = null;
const t0 = performance.now();
const watch = new MutationObserver(() => {
  if (!$('game-info').textContent.includes(`seed ${seed},`)) return;
  const text = par.textContent;
  if (bound === null && text.startsWith('≥')) bound = performance.now() - t0;
  if (/^[0-9]+$/.test(text) || text === 'unknown' || par.dataset.state === 'unproven') {
    watch.disconnect();
    done({text, state: par.dataset.state, bound_ms: bound, par_ms: performance.now() - t0});
  }
});
watch.observe(par, {childList: true, characterData: true, subtree: true, attributes: true});
$('new-game').click();
"""

MOVES = """
const [moves, done] = arguments;
const box = document.querySelector('[data-testid="on-par"]');
const out = [];
const shown = (k) => box.dataset.moves === String(k) && box.dataset.state !== 'pending';
const settled = (k) => shown(k) && box.dataset.settled === 'true';
(async () => {
  for (const [i, m] of moves.entries()) {
    const t0 = performance.now();
    document.querySelector(`[data-testid="colour-${m}"]`).click();
    const known = settled(i + 1);  // a position on an answer already known: no solve asked
    let first = known ? 0 : null;
    if (!known) {
      await new Promise((resolve) => {
        const watch = new MutationObserver(() => {
          if (first === null && shown(i + 1)) first = performance.now() - t0;
          if (settled(i + 1)) watch.disconnect(), resolve();
        });
        watch.observe(box, {attributes: true, childList: true, characterData: true, subtree: true});
      });
    }
    out.push({ms: first ?? performance.now() - t0, settled_ms: performance.now() - t0, text: box.textContent, known});
  }
  done(out);
})();
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="boards a size (seeds 1 .. repeat)")
    parser.add_argument("--moves", type=int, default=5, help="moves timed a board")
    parser.add_argument("--sizes", default="14x14/6,20x20/6,30x30/8", help="WxH/colours, comma-separated")
    args = parser.parse_args()
    sizes = [tuple(int(v) for v in re.split(r"[x/]", s)) for s in args.sizes.split(",")]

    from page_session import open_page, served_page

    with served_page(workers=2, script_timeout=120) as (driver, url):
        open_page(driver, url)
        for width, height, colours in sizes:
            bounds, pars, moves_ms, solved_ms, settled_ms = [], [], [], [], []
            for seed in range(1, args.repeat + 1):
                got = driver.execute_async_script(NEW_GAME, width, height, colours, seed)
                line = f"{width}x{height}/{colours} seed {seed}: par {got['text']}"
                line += f", ≥ L after {got['bound_ms']:.0f} ms" if got["bound_ms"] is not None else ", no ≥ L shown"
                line += f", par after {got['par_ms']:.0f} ms"
                if got["bound_ms"] is not None:
                    bounds.append(got["bound_ms"])
                if got["state"] != "proven":
                    print(line + f" ({got['state']}: no on-par status without a proven par)", flush=True)
                    continue
                pars.append(got["par_ms"])
                board = random_board(width, height, colours, seed=seed)
                greedy = [int(m) for m in solve(board, "greedy").moves[: args.moves]]
                timed = driver.execute_async_script(MOVES, greedy)
                moves_ms += [t["ms"] for t in timed]
                solved_ms += [t["ms"] for t in timed if not t["known"]]
                settled_ms += [t["settled_ms"] for t in timed if not t["known"]]
                line += "; move -> on-par: " + ", ".join(
                    f"{t['ms']:.0f} ms" + ("" if t["known"] else f" (solved, exact answer at {t['settled_ms']:.0f} ms)") for t in timed
                )
                line += f" (last: {timed[-1]['text']})"
                print(line, flush=True)
            def median(xs: list[float]) -> str:
                return f"{statistics.median(xs):.0f} ms" if xs else "n/a"
            print(
                f"== {width}x{height}/{colours}: median new game -> ≥ L {median(bounds)}, -> par {median(pars)} "
                f"({len(pars)}/{args.repeat} proven); move -> on-par {median(moves_ms)} over {len(moves_ms)} moves, "
                f"{median(solved_ms)} over the {len(solved_ms)} that asked the server (max {max(solved_ms, default=0):.0f} ms; "
                f"their exact answer: median {median(settled_ms)}, max {max(settled_ms, default=0):.0f} ms)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
