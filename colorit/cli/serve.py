"""``colorit serve``: the local web page (play, watch the solvers, compare with the basic AI).

A thin command over ``colorit.web``: it checks the options, prints the URL and runs the
server until Ctrl-C; the web libraries load only here.
"""

from __future__ import annotations

import argparse

from ..runtime.clock import settle_collection
from .context import Context
from .options import add_value, count_arg, require_extra, seconds_arg


def add_arguments(p: argparse.ArgumentParser) -> None:
    from ..web.config import DEFAULT_HOST, DEFAULT_MAX_CELLS, DEFAULT_MAX_TIME, DEFAULT_PORT

    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    p.add_argument("--port", type=count_arg(0, "--port"), default=DEFAULT_PORT, help=f"port, 0 for any free one (default {DEFAULT_PORT})")
    add_value(p, "--workers", count_arg(1, "--workers"), None, "N",
              "solver processes (default: one per core this process may use, within a container's CPU quota)")
    add_value(p, "--max-cells", count_arg(1, "--max-cells"), DEFAULT_MAX_CELLS, "C",
              f"largest board a request may send, in cells (default {DEFAULT_MAX_CELLS}: 300x300)")
    add_value(p, "--max-time", seconds_arg("--max-time"), DEFAULT_MAX_TIME, "S",
              f"longest time limit a request may ask (default {DEFAULT_MAX_TIME:g} s)")
    p.add_argument("--open", action="store_true", help="open the page in a browser")


def run(args: argparse.Namespace, ctx: Context) -> int:
    require_extra("web", "serve", "fastapi", "uvicorn")
    from ..web.config import ServerConfig
    from ..web.server import serve

    settle_collection()  # started: a long-running server collects as usual
    config = ServerConfig(host=args.host, port=args.port, workers=args.workers, max_cells=args.max_cells, max_time=args.max_time)
    return serve(config, open_browser=args.open, log=lambda line: print(line, flush=True))
