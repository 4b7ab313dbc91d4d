"""``serve``: run the web app on uvicorn until Ctrl-C or SIGTERM, then stop cleanly.

The socket is bound here, before anything else, so that ``--port 0`` works and the URL
printed is the real one, and a port in use is a one-line error. The solver workers are
started (and their kernels loaded) before the URL is printed: once it shows, a solve
answers at once. On Ctrl-C or SIGTERM the running solves are stopped first (their
clients get an error event, so no open stream holds the server up), uvicorn closes its
connections, and the pool ends every worker process before ``serve`` returns.
"""

from __future__ import annotations

import ipaddress
import signal
import socket
import threading
import time
import webbrowser
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

from ..errors import ColoritError
from .config import ServerConfig
from .pool import SolverPool

#: seconds uvicorn waits for open connections once told to stop
GRACEFUL_S = 3.0


def _bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port``; ``ColoritError`` if that is impossible."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise ColoritError(f"--host {host!r}: cannot resolve it ({e.strerror or e})") from None
    error: OSError | None = None
    for family, kind, proto, _, address in infos:
        sock = socket.socket(family, kind, proto)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(128)
            sock.set_inheritable(False)
            return sock
        except OSError as e:
            sock.close()
            error = e
    reason = (error.strerror or str(error)).lower() if error else "no address found"
    raise ColoritError(f"cannot listen on {host}:{port}: {reason}")


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _url(host: str, port: int) -> str:
    """The address to open in a browser: a wildcard host is shown as this machine."""
    shown = host.strip("[]")
    if shown in ("0.0.0.0", ""):
        shown = "127.0.0.1"
    elif shown == "::":
        shown = "::1"
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


@contextmanager
def _signals_stop(server: Any) -> Iterator[None]:
    """SIGINT and SIGTERM stop ``server``, also when they come before uvicorn has taken
    them over (right after the URL is printed) or after it has given them back (it
    raises a signal it caught again for the previous handler, which would otherwise
    end the process before the pool is closed)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {sig: signal.signal(sig, server.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def serve(config: ServerConfig, *, open_browser: bool = False, log: Callable[[str], Any] = print) -> int:
    """Serve the page and the API until Ctrl-C or SIGTERM; return the exit status (0).

    ``ColoritError`` if the address cannot be used or the solver workers do not start."""
    import uvicorn

    from .app import create_app

    sock = _bind(config.host, config.port)
    pool = SolverPool(int(config.workers or 1), queue_size=config.queue_size, memory_per_solve=config.memory_per_solve)
    stopping: list[int] = []

    class _Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            first = not self.should_exit
            super().handle_exit(sig, frame)
            if first:
                stopping.append(sig)
                # not from the signal handler itself: it may have interrupted a thread
                # that holds the pool's lock
                threading.Thread(target=pool.cancel_all, name="colorit-stop-solves", daemon=True).start()

    port = sock.getsockname()[1]
    url = _url(config.host, port)
    server = _Server(
        uvicorn.Config(
            create_app(config, pool=pool),
            log_level="warning",
            access_log=False,
            lifespan="on",
            timeout_graceful_shutdown=int(GRACEFUL_S),
            server_header=False,
        )
    )
    try:
        with _signals_stop(server):
            try:
                pool.start(wait=False)
                pool.wait_ready(give_up=lambda: server.should_exit)
            except RuntimeError as e:
                raise ColoritError(str(e)) from None
            if not server.should_exit:  # no Ctrl-C while the workers were loading
                log(f"colorit: serving on {url} (Ctrl-C to stop)")
                if not is_loopback(config.host):
                    log(
                        f"colorit: warning: listening on {config.host}, not on this machine alone: "
                        "anyone who can reach it can play and run the solvers"
                    )
                if open_browser:
                    threading.Thread(target=_open_when_up, args=(server, url, log), daemon=True).start()
                server.run(sockets=[sock])
    finally:
        pool.close()
        sock.close()
    if stopping:
        name = "Ctrl-C" if stopping[0] == signal.SIGINT else signal.Signals(stopping[0]).name
        log(f"colorit: stopped ({name}); solver workers ended")
    return 0


def _open_when_up(server: Any, url: str, log: Callable[[str], Any]) -> None:
    for _ in range(200):
        if server.started:
            break
        if server.should_exit:
            return
        time.sleep(0.05)
    try:
        opened = webbrowser.open(url)
    except (webbrowser.Error, OSError):
        opened = False
    if not opened:  # the URL is printed anyway
        log("colorit: no browser found here; open the address above in one")
