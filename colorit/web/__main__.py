"""``python -m colorit.web``: the server without the CLI (``colorit serve`` is the same)."""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    from ..errors import ColoritError
    from . import config as defaults
    from .config import ServerConfig
    from .server import serve

    p = argparse.ArgumentParser(prog="python -m colorit.web", description="Serve the colorit page and API.")
    p.add_argument(
        "--host", default=defaults.DEFAULT_HOST, help=f"address to listen on (default {defaults.DEFAULT_HOST})"
    )
    p.add_argument(
        "--port",
        type=int,
        default=defaults.DEFAULT_PORT,
        help=f"port, 0 for any free one (default {defaults.DEFAULT_PORT})",
    )
    p.add_argument("--workers", type=int, default=None, help="solver processes (default: one per core)")
    p.add_argument("--max-cells", type=int, default=defaults.DEFAULT_MAX_CELLS, help="largest board, in cells")
    p.add_argument("--max-time", type=float, default=defaults.DEFAULT_MAX_TIME, help="longest time limit, in seconds")
    p.add_argument("--open", action="store_true", help="open the page in a browser")
    args = p.parse_args(argv)
    try:
        config = ServerConfig(
            host=args.host, port=args.port, workers=args.workers, max_cells=args.max_cells, max_time=args.max_time
        )
        return serve(config, open_browser=args.open, log=lambda line: print(line, flush=True))
    except ColoritError as e:
        print(f"colorit: error: {e}", file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C before the server took over the signal
        sys.exit(130)
